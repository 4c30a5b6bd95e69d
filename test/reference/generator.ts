/**
 * A seeded generator of realistic-but-adversarial canonical event files (inputs.md §1) and of the
 * configs to replay them under. Every choice comes from a small PRNG, so a seed reproduces a case.
 * The mix is biased so that every detector and the post-compaction guard fire regularly: loops of
 * the kinds the detectors look for, interleaved with noise, progress and the fine points of the spec
 * (volatile fields, rewordings, lone surrogates, `-0`/`1.0`, whitespace, absent vs null).
 */
import type { ModelBlock, ModelConfigInput } from "./model.js";

/** mulberry32: tiny, fast, good enough for test data. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/** A JSON literal written verbatim into the file (`-0`, `1.0`): JSON.stringify cannot produce these. */
class Literal {
  constructor(readonly text: string) {}
  /** Serialized as a marked string, which `toLine` then unquotes. */
  toJSON(): string {
    return LITERAL_MARK + this.text;
  }
}
const LITERAL_MARK = "\u0000lit:";

function toLine(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes("\\u0000lit:") ? text.replace(/"\\u0000lit:([^"]*)"/g, "$1") : text;
}

// ---------------------------------------------------------------------------------------------
// One step of a run: a call and (usually) its result.

interface Step {
  tool: string;
  args?: unknown;
  /** `undefined` args are written without an `args` key. */
  hasArgs: boolean;
  outcome: { kind: "result"; value: unknown } | { kind: "error"; value: unknown } | { kind: "absent" } | { kind: "none" };
}

const text = (t: string, details?: unknown) => (details === undefined ? { content: [{ type: "text", text: t }] } : { content: [{ type: "text", text: t }], details });

function step(tool: string, args: unknown, outcome: Step["outcome"]): Step {
  return { tool, args, hasArgs: args !== undefined, outcome };
}

function result(value: unknown): Step["outcome"] {
  return { kind: "result", value };
}

/** A string that equals `base` once hashed (trim, lone surrogates) but not as written. */
function disguise(rng: Rng, base: string): string {
  switch (rng.int(0, 5)) {
    case 0:
      return base + "\ud800";
    case 1:
      return "\ufeff" + base + " \n";
    case 2:
      return "\udc00" + base;
    default:
      return base;
  }
}

type Episode = (rng: Rng, length: number) => Step[];

const pollLoop: Episode = (rng, length) => {
  const tool = rng.pick(["process", "process", "command_status"]);
  const action = rng.pick(["poll", "log"]);
  const sessionId = rng.pick(["p1", "p2"]);
  const args = tool === "command_status" ? { commandId: sessionId } : { action, sessionId };
  const changeEvery = rng.pick([0, 0, 3, 5]);
  // A log whose only progress is in its counters (the text stays the same).
  const growing = rng.chance(0.3);
  let generation = 0;
  const steps: Step[] = [];
  for (let i = 0; i < length; i++) {
    if (changeEvery > 0 && i % changeEvery === changeEvery - 1) generation++;
    const details: Record<string, unknown> = { durationMs: rng.int(1, 999), pid: rng.int(100, 200) };
    if (!rng.chance(0.1)) details.status = rng.chance(0.9) ? "running" : null;
    if (rng.chance(0.5)) details.aggregated = `line ${generation}`;
    if (action === "log") Object.assign(details, { totalLines: growing ? i : generation, totalChars: generation * 7, truncated: false });
    if (rng.chance(0.15)) details.exitCode = rng.chance(0.5) ? 0 : new Literal("-0");
    steps.push(step(tool, args, result(text(disguise(rng, `still running ${generation}`), details))));
  }
  return steps;
};

const execLoop: Episode = (rng, length) => {
  const args = { command: rng.pick(["npm test", "ls -la", "make"]) };
  const status = rng.pick(["running", "completed", "completed", "failed", "approval-pending", "approval-unavailable", "weird"]);
  const changes = rng.chance(0.3);
  const steps: Step[] = [];
  for (let i = 0; i < length; i++) {
    const out = changes && rng.chance(0.5) ? `out ${i}` : "out";
    const volatile = { durationMs: rng.int(1, 5000), pid: rng.int(1, 9999), sessionId: `x${rng.int(1, 99)}`, cwd: rng.pick(["/a", "/b"]) };
    let details: Record<string, unknown>;
    switch (status) {
      case "running":
        details = { status, tail: out, ...volatile };
        break;
      case "completed":
      case "failed": {
        const exitCode = rng.pick<unknown>([status === "completed" ? 0 : 1, new Literal(status === "completed" ? "-0" : "1.0"), "1", undefined]);
        details = { status, exitCode, ...volatile };
        if (rng.chance(0.3)) details.timedOut = rng.pick([true, false, "yes"]);
        if (rng.chance(0.6)) details.aggregated = rng.pick([disguise(rng, out), " ", ""]);
        break;
      }
      case "weird":
        details = { status, ...volatile };
        break;
      default:
        details = { status, reason: "needs approval", host: "gw", command: args.command, warningText: out === "out" ? "careful" : out, ...volatile };
    }
    steps.push(step("exec", args, result(text(disguise(rng, out), details))));
  }
  return steps;
};

const sendLoop: Episode = (rng, length) => {
  const tool = rng.pick(["message", "sessions_send", "telegram", "slack", "discord", "message"]);
  // sessions_send ignores `action`, but a non-string one still makes the call no send (detection.md).
  const action = tool === "sessions_send" ? rng.pick<unknown>([undefined, undefined, 5]) : rng.pick<unknown>(["send", "reply", "poll", "read", undefined, 5, null]);
  const args: Record<string, unknown> = { to: "user", text: "hello" };
  if (action !== undefined) args.action = action;
  const changes = rng.chance(0.25);
  const withOther = rng.chance(0.2);
  const stringReceipt = rng.chance(0.3);
  const steps: Step[] = [];
  for (let i = 0; i < length; i++) {
    const n = rng.int(1, 1_000_000);
    const details: Record<string, unknown> = {
      ok: true,
      messageId: `m${n}`,
      ts: n,
      receipt: stringReceipt ? `receipt-${n}` : { platformMessageId: `p${n}`, deliveredAt: n },
      message: { id: `id${n}`, text: "hello", ...(rng.chance(0.5) ? { direction: "outbound" } : { conversation: { id: "c" } }) },
      items: [{ fileId: `f${n}`, name: "a.png", createdAt: n }],
    };
    // Not message-like (no direction, sender, account or conversation): its id stays in the hash.
    if (withOther) details.other = { id: `keep${n}`, text: "not message-like" };
    if (changes && rng.chance(0.5)) details.ok = i;
    steps.push(step(tool, args, result(text(`sent ${n}`, details))));
  }
  return steps;
};

const planLoop: Episode = (rng, length) => {
  const statuses = ["pending", "in_progress", "completed"];
  const size = rng.int(1, 4);
  const steps: Step[] = [];
  let progress = 0;
  for (let i = 0; i < length; i++) {
    if (rng.chance(0.15)) progress = Math.min(size, progress + 1);
    const plan = Array.from({ length: size }, (_, k) => ({
      step: rng.chance(0.1) ? "  " : `Step ${k} ${rng.pick(["do it", "do it now", "finish"])}`,
      status: k < progress ? statuses[2] : statuses[k === progress ? 1 : 0],
    }));
    const args: Record<string, unknown> = { plan };
    if (rng.chance(0.5)) args.explanation = rng.pick(["because", " ", "reworded why"]);
    steps.push(step("update_plan", args, result(text(rng.pick(["Plan updated", "Updated plan"]), rng.chance(0.5) ? { plan, extra: i } : { status: "ok" }))));
  }
  return steps;
};

const pingPongLoop: Episode = (rng, length) => {
  const a = rng.pick([{ tool: "read", args: { path: "a.txt" } }, { tool: "process", args: { action: "poll", sessionId: "p1" } }]);
  const b = rng.pick([{ tool: "read", args: { path: "b.txt" } }, { tool: "grep", args: { pattern: "x" } }, { tool: "exec", args: { command: "ls" } }]);
  const changes = rng.chance(0.3);
  const steps: Step[] = [];
  for (let i = 0; i < length; i++) {
    const side = i % 2 === 0 ? a : b;
    const body = changes && rng.chance(0.4) ? `${side.tool} ${i}` : `${side.tool} same`;
    const details = side.tool === "exec" ? { status: "completed", exitCode: 0, aggregated: body } : { status: "running" };
    steps.push(step(side.tool, side.args, rng.chance(0.05) ? { kind: "none" } : result(text(body, details))));
  }
  return steps;
};

const unknownToolLoop: Episode = (rng, length) => {
  const tool = rng.pick(["browser", "web_fetch", "Browser"]);
  const steps: Step[] = [];
  for (let i = 0; i < length; i++) {
    const name = rng.chance(0.1) ? "other_tool" : tool;
    const message = rng.pick([`Unknown tool: ${name}`, `unknown tool "${name}"`, `Tool ${name} not found`, `tool '${name}' is not available`, `UNKNOWN TOOL:\t${name}.`]);
    const error = rng.pick<unknown>([message, message, { message }, { message, code: 404 }]);
    steps.push(step(tool, rng.chance(0.8) ? { url: "https://x" } : undefined, { kind: "error", value: error }));
  }
  return steps;
};

const genericLoop: Episode = (rng, length) => {
  const tool = rng.pick(["read", "grep", "web_search", "custom.tool"]);
  const args = rng.pick<unknown>([{ path: "x.ts", n: 1 }, { path: "x.ts", n: new Literal("1.0") }, { q: "a\ud800" }, { q: "a" }, null, undefined, [1, 2], "raw"]);
  const mode = rng.pick(["same", "same", "changing", "content", "null", "absent", "error", "veto"]);
  const countedVaries = rng.chance(0.5);
  const steps: Step[] = [];
  for (let i = 0; i < length; i++) {
    let outcome: Step["outcome"];
    switch (mode) {
      case "changing":
        outcome = result(text(rng.chance(0.5) ? "a" : `v${i}`));
        break;
      case "null":
        outcome = rng.chance(0.8) ? result(null) : { kind: "absent" };
        break;
      case "absent":
        outcome = { kind: "absent" };
        break;
      case "error":
        outcome = { kind: "error", value: rng.pick<unknown>(["", "boom", 42, false, null, { message: "boom" }, { code: 5 }, "Error"]) };
        break;
      case "content": {
        // Only entries with a string `type` and a string `text` count; the others may change freely.
        const counted = { type: "output_text", text: countedVaries ? `t${i}` : "t" };
        const content = [{ type: "text", text: "same" }, counted, { type: 5, text: `ignored ${i}` }, { type: "image", data: `b${i}` }, "junk"];
        outcome = result({ content, details: {} });
        break;
      }
      case "veto":
        outcome = rng.chance(0.6) ? result(text("blocked", { status: "blocked", deniedReason: "tool-loop" })) : result(text("same"));
        break;
      default:
        outcome = result(rng.pick<unknown>([text("same"), text("same", { k: 1 }), text("same", { k: new Literal("1.0") }), "plain", [1]]));
    }
    steps.push(step(tool, args, outcome));
  }
  return steps;
};

const noise: Episode = (rng, length) => {
  const steps: Step[] = [];
  for (let i = 0; i < length; i++) {
    const tool = rng.pick(["read", "write", "grep", "exec", "process"]);
    const args = tool === "process" ? { action: rng.pick(["poll", "list", "kill"]), sessionId: `p${rng.int(1, 3)}` } : { path: `f${rng.int(1, 4)}` };
    steps.push(step(tool, args, result(text(`r${rng.int(1, 3)}`))));
  }
  return steps;
};

const EPISODES: Episode[] = [pollLoop, execLoop, sendLoop, planLoop, pingPongLoop, unknownToolLoop, genericLoop, genericLoop, noise];

// ---------------------------------------------------------------------------------------------
// Runs and files

interface RunPlan {
  run: string;
  session: string | undefined;
  agent: string | undefined;
  /** Session and agent on every event, or only on the first. */
  labelsEverywhere: boolean;
  lines: Record<string, unknown>[];
}

function runEvents(rng: Rng, plan: RunPlan, withRunIds: boolean): void {
  const base = (): Record<string, unknown> => {
    const fields: Record<string, unknown> = {};
    if (withRunIds) fields.run = rng.chance(0.1) ? ` ${plan.run}\t` : plan.run;
    const labelled = plan.lines.length === 0 || plan.labelsEverywhere;
    if (labelled && plan.session !== undefined) fields.session = plan.session;
    if (labelled && plan.agent !== undefined) fields.agent = plan.agent;
    return fields;
  };
  const emit = (type: string, extra: Record<string, unknown> = {}) => plan.lines.push({ type, ...base(), ...extra });
  if (rng.chance(0.7)) emit("run_start");

  const steps: Step[] = [];
  const episodes = rng.int(1, 3);
  for (let e = 0; e < episodes; e++) {
    const episode = rng.pick(EPISODES);
    steps.push(...episode(rng, rng.int(2, 22)));
    if (rng.chance(0.25)) steps.push(...noise(rng, rng.int(1, 3)));
  }

  const useIds = rng.chance(0.85);
  const pending: Array<{ due: number; line: Record<string, unknown> }> = [];
  const flushDue = (index: number) => {
    for (let k = 0; k < pending.length; ) {
      if (pending[k]!.due <= index) {
        emit("tool_result", pending[k]!.line);
        pending.splice(k, 1);
      } else k++;
    }
  };
  steps.forEach((s, index) => {
    flushDue(index);
    if (rng.chance(0.04)) emit("compaction");
    const id = useIds && !rng.chance(0.05) ? `c${index}` : undefined;
    emit("tool_call", { ...(id !== undefined ? { id } : {}), tool: s.tool, ...(s.hasArgs ? { args: s.args } : {}) });
    if (s.outcome.kind === "none" || rng.chance(0.03)) return;
    const line: Record<string, unknown> = {};
    if (id !== undefined && !rng.chance(0.1)) {
      line.id = id;
      if (rng.chance(0.5)) line.tool = s.tool;
    } else line.tool = s.tool;
    if (s.outcome.kind === "result") line.result = s.outcome.value;
    if (s.outcome.kind === "error") line.error = s.outcome.value;
    const delay = rng.chance(0.08) ? rng.int(1, 3) : 0;
    if (delay === 0) emit("tool_result", line);
    else pending.push({ due: index + delay, line });
    // A stray result: for a call that comes later, or a tool that was never called. Not replayed.
    if (rng.chance(0.01)) emit("tool_result", rng.chance(0.5) ? { id: `c${index + 1}`, result: null } : { tool: "never_called", result: null });
  });
  flushDue(Number.MAX_SAFE_INTEGER);
  if (rng.chance(0.5)) emit("run_end");
}

/** Merges the runs' event lists: one after another, or interleaved at random (per-run order kept). */
function mergeRuns(rng: Rng, plans: RunPlan[]): Record<string, unknown>[] {
  if (rng.chance(0.5)) return plans.flatMap((p) => p.lines);
  const cursors = plans.map(() => 0);
  const merged: Record<string, unknown>[] = [];
  for (;;) {
    const open = plans.map((_, i) => i).filter((i) => cursors[i]! < plans[i]!.lines.length);
    if (open.length === 0) return merged;
    const i = rng.pick(open);
    const burst = rng.int(1, 4);
    for (let k = 0; k < burst && cursors[i]! < plans[i]!.lines.length; k++) merged.push(plans[i]!.lines[cursors[i]!++]!);
  }
}

export interface GeneratedFile {
  /** File name (no directory); its base name names the run of a file without run ids. */
  name: string;
  text: string;
}

export function generateFile(seed: number): GeneratedFile {
  const rng = new Rng(seed);
  const withRunIds = !rng.chance(0.05);
  const runCount = withRunIds ? rng.int(1, 4) : 1;
  const sharedSession = rng.chance(0.5) ? rng.pick(["S1", "S2"]) : undefined;
  const plans: RunPlan[] = [];
  for (let r = 0; r < runCount; r++) {
    plans.push({
      run: `r${r + 1}`,
      session: sharedSession ?? (rng.chance(0.5) ? `S${r}` : undefined),
      agent: rng.pick([undefined, "main", "helper", "ops"]),
      labelsEverywhere: rng.chance(0.5),
      lines: [],
    });
  }
  for (const plan of plans) runEvents(rng, plan, withRunIds);
  const lines = mergeRuns(rng, plans);
  return { name: `session-${seed}.jsonl`, text: lines.map(toLine).join("\n") + "\n" };
}

// ---------------------------------------------------------------------------------------------
// Configs

function smallThresholds(rng: Rng): ModelBlock {
  const warning = rng.int(2, 6);
  const block: ModelBlock = {
    enabled: true,
    historySize: rng.int(5, 12),
    warningThreshold: warning,
    // Sometimes out of order, to exercise the clamps.
    criticalThreshold: rng.chance(0.15) ? rng.int(1, warning) : warning + rng.int(1, 4),
    globalCircuitBreakerThreshold: rng.chance(0.3) ? rng.int(2, 12) : undefined,
    // Sometimes not a positive integer: the runtime ignores such a value and uses the default.
    unknownToolThreshold: rng.chance(0.1) ? rng.pick([0, -1, 2.5, "3"]) : rng.int(2, 6),
    postCompactionGuard: { windowSize: rng.chance(0.05) ? 1.5 : rng.int(2, 4) },
  };
  return block;
}

function toggledDetectors(rng: Rng): ModelBlock["detectors"] {
  return { genericRepeat: rng.chance(0.6), knownPollNoProgress: rng.chance(0.6), pingPong: rng.chance(0.6) };
}

/** Some of the detector switches, so that an agent block must merge into the global one key by key. */
function someDetectors(rng: Rng): ModelBlock["detectors"] {
  const all = toggledDetectors(rng)!;
  return Object.fromEntries(Object.entries(all).filter(() => rng.chance(0.5)));
}

export interface GeneratedConfig {
  label: string;
  config: ModelConfigInput;
}

/** The configs one file is replayed under: always the looplens default, plus a few random ones. */
export function generateConfigs(seed: number): GeneratedConfig[] {
  const rng = new Rng(seed ^ 0x5bd1e995);
  const configs: GeneratedConfig[] = [{ label: "defaults, enabled", config: { global: { enabled: true } } }];
  configs.push({ label: "small thresholds", config: { global: smallThresholds(rng) } });
  switch (rng.int(0, 4)) {
    case 0:
      configs.push({ label: "detectors toggled", config: { global: { ...smallThresholds(rng), detectors: toggledDetectors(rng) } } });
      break;
    case 1: {
      const global = smallThresholds(rng);
      delete global.enabled;
      configs.push({ label: "enabled unset (guard only)", config: { global } });
      break;
    }
    case 2:
      configs.push({ label: "enabled false", config: { global: { ...smallThresholds(rng), enabled: false } } });
      break;
    default:
      configs.push({
        label: "agent overrides",
        config: {
          global: { ...smallThresholds(rng), detectors: someDetectors(rng) },
          agents: {
            helper: { warningThreshold: rng.int(2, 4), detectors: someDetectors(rng), postCompactionGuard: { windowSize: rng.int(2, 4) } },
            ops: { enabled: rng.chance(0.5), historySize: rng.int(5, 8) },
          },
        },
      });
  }
  return configs;
}
