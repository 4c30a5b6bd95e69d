/**
 * An independent reference model of the detector semantics (spec: detection.md), written from the
 * spec only: nothing here is shared with src/. It is deliberately direct and slow — every rule is a
 * plain loop over plain arrays — so that a reader can check it against the spec line by line.
 * Its digest is node's sha256 over its own serialization, so even hash collisions are independent.
 *
 * Input: the text of one canonical events file (inputs.md §1) and a config; output: the findings
 * a replay must report, in the order they arise.
 */
import { createHash } from "node:crypto";

// ---------------------------------------------------------------------------------------------
// Configuration (detection.md "Configuration")

export interface ModelBlock {
  enabled?: unknown;
  historySize?: unknown;
  warningThreshold?: unknown;
  criticalThreshold?: unknown;
  unknownToolThreshold?: unknown;
  globalCircuitBreakerThreshold?: unknown;
  detectors?: { genericRepeat?: unknown; knownPollNoProgress?: unknown; pingPong?: unknown };
  postCompactionGuard?: { windowSize?: unknown };
}

/** The global `tools.loopDetection` block and per-agent overrides, as a config file would hold them. */
export interface ModelConfigInput {
  global?: ModelBlock;
  agents?: Record<string, ModelBlock>;
}

export interface ModelConfig {
  enabled: boolean | undefined;
  historySize: number;
  warningThreshold: number;
  criticalThreshold: number;
  unknownToolThreshold: number;
  globalCircuitBreakerThreshold: number;
  genericRepeat: boolean;
  knownPollNoProgress: boolean;
  pingPong: boolean;
  windowSize: number;
}

function positiveIntOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

function booleanOr(value: unknown, fallback: boolean): boolean {
  return typeof value === "boolean" ? value : fallback;
}

/** The agent block wins field by field; `detectors` and `postCompactionGuard` one level deeper. */
function mergeBlocks(global: ModelBlock | undefined, agent: ModelBlock | undefined): ModelBlock {
  if (global === undefined) return agent ?? {};
  if (agent === undefined) return global;
  const merged: ModelBlock = { ...global, ...agent };
  if (isPlainObject(global.detectors) && isPlainObject(agent.detectors)) merged.detectors = { ...global.detectors, ...agent.detectors };
  if (isPlainObject(global.postCompactionGuard) && isPlainObject(agent.postCompactionGuard)) {
    merged.postCompactionGuard = { ...global.postCompactionGuard, ...agent.postCompactionGuard };
  }
  return merged;
}

export function resolveModelConfig(input: ModelConfigInput, agent: string | undefined): ModelConfig {
  const agentBlock = agent !== undefined && input.agents !== undefined && Object.hasOwn(input.agents, agent) ? input.agents[agent] : undefined;
  const block = mergeBlocks(input.global, agentBlock);
  const detectors = isPlainObject(block.detectors) ? block.detectors : {};
  const guard = isPlainObject(block.postCompactionGuard) ? block.postCompactionGuard : {};
  const warningThreshold = positiveIntOr(block.warningThreshold, 10);
  let criticalThreshold = positiveIntOr(block.criticalThreshold, 20);
  let globalCircuitBreakerThreshold = positiveIntOr(block.globalCircuitBreakerThreshold, 30);
  if (criticalThreshold <= warningThreshold) criticalThreshold = warningThreshold + 1;
  if (globalCircuitBreakerThreshold <= criticalThreshold) globalCircuitBreakerThreshold = criticalThreshold + 1;
  return {
    enabled: typeof block.enabled === "boolean" ? block.enabled : undefined,
    historySize: positiveIntOr(block.historySize, 30),
    warningThreshold,
    criticalThreshold,
    unknownToolThreshold: positiveIntOr(block.unknownToolThreshold, 10),
    globalCircuitBreakerThreshold,
    genericRepeat: booleanOr(detectors.genericRepeat, true),
    knownPollNoProgress: booleanOr(detectors.knownPollNoProgress, true),
    pingPong: booleanOr(detectors.pingPong, true),
    windowSize: positiveIntOr(guard.windowSize, 3),
  };
}

// ---------------------------------------------------------------------------------------------
// Values and digests (detection.md "Hashing", "Fine points")

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function field(obj: unknown, key: string): unknown {
  return isPlainObject(obj) && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Lone UTF-16 surrogates are dropped before hashing. */
function dropLoneSurrogates(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    if (isHigh) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : -1;
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i]! + text[i + 1]!;
        i++;
      }
      continue;
    }
    if (isLow) continue;
    out += text[i]!;
  }
  return out;
}

/**
 * Key-sorted serialization in JSON's spirit. `undefined` at the top or in an array is its own token
 * (it differs from null); object members that are `undefined` are absent. Numbers go through
 * `String`, so `-0` and `0` (and `1` and `1.0`, which JSON.parse already merged) are equal.
 */
function serialize(value: unknown): string {
  if (value === undefined) return "<undefined>";
  if (value === null) return "null";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return JSON.stringify(dropLoneSurrogates(value));
  if (Array.isArray(value)) return "[" + value.map(serialize).join(",") + "]";
  if (typeof value === "object") {
    const members: Array<[string, unknown]> = [];
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) members.push([dropLoneSurrogates(key), member]);
    }
    members.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return "{" + members.map(([key, member]) => JSON.stringify(key) + ":" + serialize(member)).join(",") + "}";
  }
  return String(value);
}

function sha(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function digest(value: unknown): string {
  return sha(serialize(value));
}

function isBlank(text: string): boolean {
  return text.trim() === "";
}

// ---------------------------------------------------------------------------------------------
// Arguments

function normalizeUpdatePlan(value: unknown): unknown {
  const plan = field(value, "plan");
  const steps: unknown[] = Array.isArray(plan) ? plan : [];
  const explanation = field(value, "explanation");
  return {
    planLength: steps.length,
    statuses: steps.map((step) => field(step, "status")),
    stepPresence: steps.map((step) => {
      const text = field(step, "step");
      return typeof text === "string" && !isBlank(text);
    }),
    hasExplanation: typeof explanation === "string" && !isBlank(explanation),
  };
}

export function argsHashOf(tool: string, args: unknown): string {
  return tool + ":" + digest(tool === "update_plan" ? normalizeUpdatePlan(args) : args);
}

function actionOf(args: unknown): unknown {
  return field(args, "action");
}

function isKnownPoll(tool: string, args: unknown): boolean {
  if (tool === "command_status") return true;
  const action = actionOf(args);
  return tool === "process" && (action === "poll" || action === "log");
}

const SEND_ACTIONS = ["send", "broadcast", "reply", "thread-reply", "sendWithEffect", "sendAttachment", "upload-file", "sticker", "poll"];
const CHANNEL_TOOLS = ["telegram", "discord", "slack", "whatsapp", "signal", "imessage", "msteams", "googlechat", "matrix", "mattermost"];

/**
 * "A non-string `action` never makes a call a send": read as "never qualifies it", so it does not
 * count as an absent action for the channel tools; `sessions_send` is a send whatever its action.
 */
function isOutboundSend(tool: string, args: unknown): boolean {
  if (tool === "sessions_send") return true;
  const action = actionOf(args);
  if (action !== undefined && typeof action !== "string") return false;
  if (tool === "message") return typeof action === "string" && SEND_ACTIONS.includes(action);
  if (CHANNEL_TOOLS.includes(tool)) return action === undefined || SEND_ACTIONS.includes(action as string);
  return false;
}

// ---------------------------------------------------------------------------------------------
// Outcomes

export type ModelOutcome = { kind: "error"; value: unknown } | { kind: "result"; value: unknown } | { kind: "absent" };

export interface OutcomeHash {
  resultHash: string | undefined;
  unknownToolName: string | undefined;
}

function errorText(error: unknown): string {
  if (typeof error === "string") return error === "" ? "Error" : error;
  if (typeof error === "number" || typeof error === "boolean") return String(error);
  const message = field(error, "message");
  if (typeof message === "string") return message;
  return serialize(error);
}

function unknownToolNameIn(text: string): string | undefined {
  const first = /unknown tool[:\s]+["']?([a-z0-9_.-]+)["']?/i.exec(text);
  if (first) return first[1]!.toLowerCase();
  const second = /tool\s+["']?([a-z0-9_.-]+)["']?\s+(not found|is not available)/i.exec(text);
  if (second) return second[1]!.toLowerCase();
  return undefined;
}

const VOLATILE_KEYS = [
  "messageId", "message_id", "messageIds", "platformMessageId", "platformMessageIds", "fileId", "file_id", "fileKey",
  "pollId", "poll_id", "receipt", "runId", "idempotencyKey", "ts", "timestamp", "sentAt", "deliveredAt", "createdAt",
];

function isMessageLike(obj: Record<string, unknown>): boolean {
  return (
    typeof obj.id === "string" &&
    typeof obj.text === "string" &&
    (typeof obj.direction === "string" || typeof obj.senderId === "string" || typeof obj.accountId === "string" || isPlainObject(obj.conversation))
  );
}

function withoutVolatileKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVolatileKeys);
  if (!isPlainObject(value)) return value;
  const messageLike = isMessageLike(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (VOLATILE_KEYS.includes(key)) continue;
    if (key === "id" && messageLike) continue;
    out[key] = withoutVolatileKeys(value[key]);
  }
  return out;
}

function contentText(result: Record<string, unknown>): string {
  const content = result.content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const entry of content) {
    if (isPlainObject(entry) && typeof entry.type === "string" && typeof entry.text === "string") parts.push(entry.text);
  }
  return parts.join("\n").trim();
}

function orNull(value: unknown): unknown {
  return value === undefined ? null : value;
}

/** The result hash of an outcome, computed with the arguments of the call it answers. */
export function hashOutcome(tool: string, args: unknown, outcome: ModelOutcome): OutcomeHash {
  const none: OutcomeHash = { resultHash: undefined, unknownToolName: undefined };
  if (outcome.kind === "absent") return none;
  if (outcome.kind === "error") {
    const text = errorText(outcome.value);
    return { resultHash: "error:" + sha(dropLoneSurrogates(text)), unknownToolName: unknownToolNameIn(text) };
  }
  const result = outcome.value;
  if (!isPlainObject(result)) return { resultHash: digest(result), unknownToolName: undefined };
  const details = isPlainObject(result.details) ? result.details : {};
  const text = contentText(result);
  if (details.status === "blocked" && details.deniedReason === "tool-loop") return none;
  const hashed = (value: unknown): OutcomeHash => ({ resultHash: digest(value), unknownToolName: undefined });

  if (tool === "exec") {
    const status = details.status;
    if (status === "running") return hashed({ status, tail: details.tail });
    if (status === "completed" || status === "failed") {
      const aggregated = details.aggregated;
      return hashed({
        status,
        exitCode: typeof details.exitCode === "number" ? details.exitCode : null,
        timedOut: details.timedOut === true,
        output: typeof aggregated === "string" && !isBlank(aggregated) ? aggregated.trim() : text,
      });
    }
    if (status === "approval-pending" || status === "approval-unavailable") {
      return hashed({ status, reason: details.reason, host: details.host, command: details.command, warningText: details.warningText });
    }
  }
  const action = actionOf(args);
  if (tool === "process" && action === "poll") {
    return hashed({
      action,
      status: details.status,
      exitCode: orNull(details.exitCode),
      exitSignal: orNull(details.exitSignal),
      aggregated: orNull(details.aggregated),
      text,
    });
  }
  if (tool === "process" && action === "log") {
    return hashed({
      action,
      status: details.status,
      totalLines: orNull(details.totalLines),
      totalChars: orNull(details.totalChars),
      truncated: orNull(details.truncated),
      exitCode: orNull(details.exitCode),
      exitSignal: orNull(details.exitSignal),
      text,
    });
  }
  if (isOutboundSend(tool, args)) return hashed(withoutVolatileKeys(details));
  if (tool === "update_plan") return hashed({ details: normalizeUpdatePlan(details), text: "" });
  return hashed({ details, text });
}

// ---------------------------------------------------------------------------------------------
// History and detectors (detection.md "History", "The rolling detectors")

interface CallRecord {
  run: string;
  tool: string;
  argsHash: string;
  callId: string | undefined;
  resultHash: string | undefined;
  unknownToolName: string | undefined;
}

export type ModelLevel = "warning" | "critical" | "abort";

export interface ModelVerdict {
  level: ModelLevel;
  detector: string;
  count: number;
}

function unknownStreak(records: CallRecord[], tool: string): number {
  let streak = 0;
  let name: string | undefined;
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    if (record.tool !== tool || record.unknownToolName === undefined) break;
    if (name !== undefined && record.unknownToolName !== name) break;
    name = record.unknownToolName;
    streak++;
  }
  return streak;
}

function noProgressStreak(records: CallRecord[], tool: string, argsHash: string): number {
  const same = records.filter((r) => r.tool === tool && r.argsHash === argsHash && r.resultHash !== undefined);
  if (same.length === 0) return 0;
  const newest = same[same.length - 1]!.resultHash;
  let streak = 0;
  for (let i = same.length - 1; i >= 0 && same[i]!.resultHash === newest; i--) streak++;
  return streak;
}

function pingPong(records: CallRecord[], argsHash: string): { count: number; noProgress: boolean } {
  const zero = { count: 0, noProgress: false };
  if (records.length === 0) return zero;
  const last = records[records.length - 1]!;
  let other: CallRecord | undefined;
  for (let i = records.length - 2; i >= 0; i--) {
    if (records[i]!.argsHash !== last.argsHash) {
      other = records[i];
      break;
    }
  }
  if (other === undefined) return zero;
  const tail: CallRecord[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const expected = tail.length % 2 === 0 ? last.argsHash : other.argsHash;
    if (records[i]!.argsHash !== expected) break;
    tail.push(records[i]!);
  }
  if (tail.length < 2 || argsHash !== other.argsHash) return zero;
  const lastSide = tail.filter((_, i) => i % 2 === 0).map((r) => r.resultHash);
  const otherSide = tail.filter((_, i) => i % 2 === 1).map((r) => r.resultHash);
  const noProgress =
    tail.every((r) => r.resultHash !== undefined) &&
    lastSide.length > 0 &&
    otherSide.length > 0 &&
    lastSide.every((h) => h === lastSide[0]) &&
    otherSide.every((h) => h === otherSide[0]);
  return { count: tail.length + 1, noProgress };
}

export function evaluateCall(records: CallRecord[], tool: string, args: unknown, argsHash: string, config: ModelConfig): ModelVerdict | undefined {
  const unknown = unknownStreak(records, tool);
  const noProgress = noProgressStreak(records, tool, argsHash);
  const knownPoll = isKnownPoll(tool, args);
  const pp = pingPong(records, argsHash);
  const recent = records.filter((r) => r.tool === tool && r.argsHash === argsHash).length;

  if (unknown >= config.unknownToolThreshold) return { level: "critical", detector: "unknown_tool_repeat", count: unknown };
  if (noProgress >= config.globalCircuitBreakerThreshold) return { level: "critical", detector: "global_circuit_breaker", count: noProgress };
  if (knownPoll && config.knownPollNoProgress && noProgress >= config.criticalThreshold) {
    return { level: "critical", detector: "known_poll_no_progress", count: noProgress };
  }
  if (knownPoll && config.knownPollNoProgress && noProgress >= config.warningThreshold) {
    return { level: "warning", detector: "known_poll_no_progress", count: noProgress };
  }
  if (config.pingPong && pp.count >= config.criticalThreshold && pp.noProgress) return { level: "critical", detector: "ping_pong", count: pp.count };
  if (config.pingPong && pp.count >= config.warningThreshold) return { level: "warning", detector: "ping_pong", count: pp.count };
  if (!knownPoll && config.genericRepeat && noProgress >= config.criticalThreshold) return { level: "critical", detector: "generic_repeat", count: noProgress };
  if (!knownPoll && config.genericRepeat && recent >= config.warningThreshold) return { level: "warning", detector: "generic_repeat", count: recent };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Reading one file: runs, calls, and results linked to their calls (inputs.md §1). None of this
// depends on the config, so it is done once per file and replayed under each config.

/** One thing the detectors see, in file order. `session`/`agent` are the run's as known by then. */
export type ModelStep =
  | { kind: "call"; run: string; session?: string; agent?: string; tool: string; args: unknown; argsHash: string; callId?: string; ordinal: number }
  | { kind: "outcome"; run: string; session?: string; agent?: string; tool: string; argsHash: string; callId?: string; ordinal: number; hash: OutcomeHash }
  | { kind: "compaction"; run: string; session?: string; agent?: string };

interface CallSeen {
  id: string | undefined;
  tool: string;
  args: unknown;
  argsHash: string;
  ordinal: number;
  answered: boolean;
}

interface RunSeen {
  session: string | undefined;
  agent: string | undefined;
  calls: CallSeen[];
}

const EVENT_TYPES = ["run_start", "run_end", "tool_call", "tool_result", "compaction"];

function nonBlankTrimmed(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return isBlank(value) ? undefined : value.trim();
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function parseEvents(text: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (isBlank(line)) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (isPlainObject(value) && typeof value.type === "string" && EVENT_TYPES.includes(value.type)) events.push(value);
  }
  return events;
}

function outcomeOf(event: Record<string, unknown>): ModelOutcome {
  if (Object.hasOwn(event, "error")) return { kind: "error", value: event.error ?? null };
  if (Object.hasOwn(event, "result")) return { kind: "result", value: event.result };
  return { kind: "absent" };
}

/** Reads one canonical events file; `fileRun` names the run of a file without any run ids. */
export function readModelFile(text: string, fileRun: string): ModelStep[] {
  const events = parseEvents(text);
  const fileHasRuns = events.some((e) => nonBlankTrimmed(e.run) !== undefined);
  const runs = new Map<string, RunSeen>();
  const steps: ModelStep[] = [];
  for (const event of events) {
    const runId = fileHasRuns ? nonBlankTrimmed(event.run) : fileRun;
    if (runId === undefined) continue;
    let run = runs.get(runId);
    if (!run) runs.set(runId, (run = { session: undefined, agent: undefined, calls: [] }));
    run.session ??= nonEmptyString(event.session);
    run.agent ??= nonEmptyString(event.agent);
    const where = { run: runId, session: run.session, agent: run.agent };
    const callId = nonBlankTrimmed(event.id);

    if (event.type === "tool_call") {
      const tool = event.tool;
      if (typeof tool !== "string" || tool === "") continue;
      const args = Object.hasOwn(event, "args") ? event.args : undefined;
      const call: CallSeen = { id: callId, tool, args, argsHash: argsHashOf(tool, args), ordinal: run.calls.length + 1, answered: false };
      run.calls.push(call);
      steps.push({ kind: "call", ...where, tool, args, argsHash: call.argsHash, callId, ordinal: call.ordinal });
    } else if (event.type === "tool_result") {
      // By id: the call with that id. Without: the newest unanswered call of the tool.
      const tool = event.tool;
      let call: CallSeen | undefined;
      for (let i = run.calls.length - 1; i >= 0 && call === undefined; i--) {
        const candidate = run.calls[i]!;
        if (callId !== undefined ? candidate.id === callId : candidate.tool === tool && !candidate.answered) call = candidate;
      }
      // A call has one outcome: a second result for an answered call (by id) is not replayed.
      if (call === undefined || call.answered) continue;
      call.answered = true;
      const hash = hashOutcome(call.tool, call.args, outcomeOf(event));
      steps.push({ kind: "outcome", ...where, tool: call.tool, argsHash: call.argsHash, callId: call.id, ordinal: call.ordinal, hash });
    } else if (event.type === "compaction") {
      steps.push({ kind: "compaction", ...where });
    }
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------
// Replay under one config (detection.md "History", "Post-compaction guard", "Replay")

export interface ModelFinding {
  run: string;
  call: number;
  level: ModelLevel;
  detector: string;
  count: number;
  afterStop: boolean;
}

interface RunState {
  stopped: boolean;
  /** Attempts left in the post-compaction window; 0 = not armed. */
  guardAttempts: number;
  guardWindow: string[];
}

export function replayModelSteps(steps: readonly ModelStep[], configInput: ModelConfigInput): ModelFinding[] {
  const runs = new Map<string, RunState>();
  const histories = new Map<string, CallRecord[]>();
  const configs = new Map<string | undefined, ModelConfig>();
  const findings: ModelFinding[] = [];

  const configFor = (agent: string | undefined): ModelConfig => {
    let config = configs.get(agent);
    if (!config) configs.set(agent, (config = resolveModelConfig(configInput, agent)));
    return config;
  };
  // Per session; per run when no session is known.
  const historyOf = (step: ModelStep): CallRecord[] => {
    const key = step.session !== undefined ? "session:" + step.session : "run:" + step.run;
    let history = histories.get(key);
    if (!history) histories.set(key, (history = []));
    return history;
  };
  const append = (step: ModelStep, record: CallRecord, config: ModelConfig) => {
    const history = historyOf(step);
    history.push(record);
    while (history.length > config.historySize) history.shift();
  };
  const report = (run: string, call: number, verdict: ModelVerdict) => {
    const state = runs.get(run)!;
    findings.push({ run, call, level: verdict.level, detector: verdict.detector, count: verdict.count, afterStop: state.stopped });
    if (verdict.level === "critical" || verdict.level === "abort") state.stopped = true;
  };

  for (const step of steps) {
    if (!runs.has(step.run)) runs.set(step.run, { stopped: false, guardAttempts: 0, guardWindow: [] });
    const run = runs.get(step.run)!;
    const config = configFor(step.agent);
    if (config.enabled === false) continue;

    if (step.kind === "call") {
      // Check before record; a critical call is vetoed and never recorded.
      const records = historyOf(step).filter((r) => r.run === step.run);
      const verdict = config.enabled === true ? evaluateCall(records, step.tool, step.args, step.argsHash, config) : undefined;
      if (verdict) report(step.run, step.ordinal, verdict);
      if (verdict?.level !== "critical") {
        append(step, { run: step.run, tool: step.tool, argsHash: step.argsHash, callId: step.callId, resultHash: undefined, unknownToolName: undefined }, config);
      }
    } else if (step.kind === "outcome") {
      if (step.hash.resultHash === undefined) continue;
      const history = historyOf(step);
      let attached = false;
      for (let i = history.length - 1; i >= 0 && !attached; i--) {
        const r = history[i]!;
        const sameId = step.callId === undefined || r.callId === step.callId;
        if (r.run === step.run && sameId && r.tool === step.tool && r.argsHash === step.argsHash && r.resultHash === undefined) {
          r.resultHash = step.hash.resultHash;
          r.unknownToolName = step.hash.unknownToolName;
          attached = true;
        }
      }
      if (!attached) append(step, { run: step.run, tool: step.tool, argsHash: step.argsHash, callId: step.callId, ...step.hash }, config);
      if (run.guardAttempts > 0) {
        const triple = step.tool + "\u0000" + step.argsHash + "\u0000" + step.hash.resultHash;
        run.guardAttempts--;
        run.guardWindow.push(triple);
        const identical = run.guardWindow.filter((t) => t === triple).length;
        if (identical >= config.windowSize) {
          report(step.run, step.ordinal, { level: "abort", detector: "compaction_loop_persisted", count: identical });
          run.guardAttempts = 0;
        }
      }
    } else {
      run.guardAttempts = config.windowSize;
      run.guardWindow = [];
    }
  }
  return findings;
}

/** Reads and replays one file under one config. */
export function replayModel(text: string, fileRun: string, configInput: ModelConfigInput): ModelFinding[] {
  return replayModelSteps(readModelFile(text, fileRun), configInput);
}
