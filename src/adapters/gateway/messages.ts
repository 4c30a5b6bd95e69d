/**
 * The Gateway-log messages looplens understands (spec: inputs.md §4), as data: each template names
 * its subsystem and an exact pattern. A message that resembles a template (same opening words,
 * case aside) but does not match it exactly is a near miss: reported, never guessed into a finding.
 */
import type { DetectorName } from "../../core/detectors.js";
import type { FindingLevel } from "../../core/findings.js";
import { DETECTOR_NAMES, FINDING_LEVELS } from "../../core/liveEvents.js";

/** Where a detector event's line came from: the detector itself, the tool hook, or the diagnostic event. */
export type EchoOrigin = "detector" | "hook" | "diagnostic";

interface Identity {
  readonly session?: string;
  readonly agent?: string;
}

export type LogRecord =
  | (Identity & { readonly kind: "run_start" | "run_done"; readonly run: string })
  | (Identity & { readonly kind: "tool_start"; readonly run: string; readonly tool: string; readonly id?: string })
  | { readonly kind: "compaction"; readonly cause: "overflow" | "timeout" }
  /** `context overflow detected …`: the start of the compaction its `auto-compaction succeeded` line completes. */
  | { readonly kind: "overflow" }
  /** `[tools] T failed: <error>` (a console line): the outcome of the call the run's last start of T began. */
  | { readonly kind: "tool_failed"; readonly tool: string }
  | { readonly kind: "guard_armed"; readonly attempts: number }
  | { readonly kind: "guard_closed"; readonly toolCalls: number; readonly preCompactionRepeats: number; readonly tools: readonly string[] }
  | (Identity & {
      readonly kind: "loop";
      readonly origin: EchoOrigin;
      /** A line of the spec's table (a finding of its own); otherwise it can only echo one. */
      readonly counts: boolean;
      readonly tool: string;
      readonly detector: DetectorName;
      readonly level: FindingLevel;
      readonly count: number;
    })
  /** A hook line whose loop message is not one looplens knows: it can neither count nor merge. */
  | { readonly kind: "unrecognised_hook" }
  /** `expected` is set when the message matches a template of another subsystem. */
  | { readonly kind: "near_miss"; readonly template: string; readonly expected?: string }
  | { readonly kind: "irrelevant" };

type Match = RegExpExecArray;

interface Template {
  readonly subsystem: string;
  /** Opening words that show a message means to be this template (tested case-insensitively). */
  readonly intent: RegExp;
  readonly pattern: RegExp;
  /** Shown in near-miss diagnostics. */
  readonly text: string;
  /** The record, or `undefined` when the matched fields are invalid (a count of 0, a missing key). */
  readonly read: (m: Match) => LogRecord | undefined;
}

/** A positive safe integer from a `\d+` capture. */
function count(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** `key=value` tokens of a message tail; later duplicates do not override earlier ones. */
export function keyValues(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const token of text.split(" ")) {
    const eq = token.indexOf("=");
    if (eq <= 0) continue;
    const key = token.slice(0, eq);
    if (!pairs.has(key)) pairs.set(key, token.slice(eq + 1));
  }
  return pairs;
}

/** Session id and, from an `agent:<id>:…` session key, the agent id. */
function identity(pairs: Map<string, string>): Identity {
  const session = pairs.get("sessionId");
  const agent = /^agent:([^:\s]+):/.exec(pairs.get("sessionKey") ?? "")?.[1];
  return { ...(session ? { session } : {}), ...(agent ? { agent } : {}) };
}

function loop(origin: EchoOrigin, counts: boolean, tool: string, detector: DetectorName, level: FindingLevel, n: string | undefined): LogRecord | undefined {
  const c = count(n);
  return c === undefined ? undefined : { kind: "loop", origin, counts, tool, detector, level, count: c };
}

const DETECTION = "agents/loop-detection";
const TOOLS = "agents/tools";
const GUARD = "agents/post-compaction-guard";
const EMBEDDED = "agent/embedded";
/** The console writer's `[tools]` prefix (a captured console line, or a record of the text form). */
const CONSOLE_TOOLS = "tools";

/** The detector lines: `T` is group 1 and `N` group 2, except ping-pong (count first). */
const detectorLine = (intent: RegExp, pattern: RegExp, text: string, detector: DetectorName, level: FindingLevel, pingPong = false): Template => ({
  subsystem: DETECTION,
  intent,
  pattern,
  text,
  read: (m) => (pingPong ? loop("detector", true, m[2]!, detector, level, m[1]) : loop("detector", true, m[1]!, detector, level, m[2])),
});

/** What the hook's loop message (the text after `Blocking T due to critical loop:`) says. */
const HOOK_MESSAGES: ReadonlyArray<{ pattern: RegExp; detector: DetectorName; counts?: boolean }> = [
  { pattern: /^CRITICAL: attempted unavailable tool \S+ (\d+) times\b/, detector: "unknown_tool_repeat", counts: true },
  { pattern: /^CRITICAL: \S+ has repeated identical no-progress outcomes (\d+) times\b/, detector: "global_circuit_breaker" },
  { pattern: /^CRITICAL: Called \S+ with identical arguments and no progress (\d+) times\. This appears to be a stuck polling loop\b/, detector: "known_poll_no_progress" },
  { pattern: /^CRITICAL: Called \S+ with identical arguments and no progress (\d+) times\. This appears to be a stuck tool loop\b/, detector: "generic_repeat" },
  { pattern: /^CRITICAL: You are alternating between repeated tool-call patterns \((\d+) consecutive calls\) with no progress\b/, detector: "ping_pong" },
  { pattern: /^WARNING: You have called \S+ (\d+) times with identical arguments and no progress\b/, detector: "known_poll_no_progress" },
  { pattern: /^WARNING: You have called \S+ (\d+) times with identical arguments\b/, detector: "generic_repeat" },
  { pattern: /^WARNING: You are alternating between repeated tool-call patterns \((\d+) consecutive calls\)/, detector: "ping_pong" },
];

const UNKNOWN_TOOL_INTENT = /^critical:\s*attempted unavailable tool\b/i;

function hookLine(tool: string, level: FindingLevel, body: string): LogRecord | undefined {
  for (const known of HOOK_MESSAGES) {
    const m = known.pattern.exec(body);
    if (m) return loop("hook", known.counts === true, tool, known.detector, level, m[1]);
  }
  // The unknown-tool block counts on its own, so a garbled one is a near miss, not just noise.
  return UNKNOWN_TOOL_INTENT.test(body) ? undefined : { kind: "unrecognised_hook" };
}

function diagnosticLine(tail: string): LogRecord | undefined {
  const pairs = keyValues(tail);
  const tool = pairs.get("tool");
  const detector = pairs.get("detector") as DetectorName | undefined;
  const level = pairs.get("level") as FindingLevel | undefined;
  if (!tool || !detector || !DETECTOR_NAMES.includes(detector) || !level || !FINDING_LEVELS.includes(level)) return undefined;
  const record = loop("diagnostic", true, tool, detector, level, pairs.get("count"));
  return record && { ...record, ...identity(pairs) };
}

function embeddedRun(kind: "run_start" | "run_done", tail: string): LogRecord | undefined {
  const pairs = keyValues(tail);
  const run = pairs.get("runId");
  return run ? { kind, run, ...identity(pairs) } : undefined;
}

function toolStart(tail: string): LogRecord | undefined {
  const pairs = keyValues(tail);
  const run = pairs.get("runId");
  const tool = pairs.get("tool");
  const id = pairs.get("toolCallId");
  return run && tool ? { kind: "tool_start", run, tool, ...(id ? { id } : {}), ...identity(pairs) } : undefined;
}

/** `embedded run <what>: runId=… key=value…` lines; `read` gets the key=value tail. */
const embeddedRunLine = (what: string, read: (tail: string) => LogRecord | undefined): Template => ({
  subsystem: EMBEDDED,
  intent: new RegExp(`^embedded run ${what}\\b`, "i"),
  pattern: new RegExp(`^embedded run ${what}: (runId=[\\s\\S]*)$`),
  text: `embedded run ${what}: runId=…`,
  read: (m) => read(m[1]!),
});

export const TEMPLATES: readonly Template[] = [
  detectorLine(/^loop warning\s*:/i, /^Loop warning: (\S+) called (\d+) times with identical arguments$/, "Loop warning: T called N times with identical arguments", "generic_repeat", "warning"),
  detectorLine(/^critical generic loop\b/i, /^Critical generic loop detected: (\S+) repeated (\d+) times$/, "Critical generic loop detected: T repeated N times", "generic_repeat", "critical"),
  detectorLine(/^polling loop warning\b/i, /^Polling loop warning: (\S+) repeated (\d+) times$/, "Polling loop warning: T repeated N times", "known_poll_no_progress", "warning"),
  detectorLine(/^critical polling loop\b/i, /^Critical polling loop detected: (\S+) repeated (\d+) times$/, "Critical polling loop detected: T repeated N times", "known_poll_no_progress", "critical"),
  detectorLine(/^ping-pong loop warning\b/i, /^Ping-pong loop warning: alternating calls count=(\d+) currentTool=(\S+)$/, "Ping-pong loop warning: alternating calls count=N currentTool=T", "ping_pong", "warning", true),
  detectorLine(/^critical ping-pong loop\b/i, /^Critical ping-pong loop detected: alternating calls count=(\d+) currentTool=(\S+)$/, "Critical ping-pong loop detected: alternating calls count=N currentTool=T", "ping_pong", "critical", true),
  detectorLine(/^global circuit breaker\b/i, /^Global circuit breaker triggered: (\S+) repeated (\d+) times with no progress$/, "Global circuit breaker triggered: T repeated N times with no progress", "global_circuit_breaker", "critical"),
  {
    subsystem: TOOLS,
    intent: /^blocking \S+ due to critical loop\b/i,
    pattern: /^Blocking (\S+) due to critical loop: ([\s\S]*)$/,
    text: "Blocking T due to critical loop: …",
    read: (m) => hookLine(m[1]!, "critical", m[2]!),
  },
  {
    subsystem: TOOLS,
    intent: /^loop warning for\b/i,
    pattern: /^Loop warning for (\S+): ([\s\S]*)$/,
    text: "Loop warning for T: …",
    read: (m) => hookLine(m[1]!, "warning", m[2]!),
  },
  {
    subsystem: "diagnostic",
    intent: /^tool loop\s*:/i,
    pattern: /^tool loop: ([\s\S]*)$/,
    text: "tool loop: … tool=T level=L action=… detector=D count=N …",
    read: (m) => diagnosticLine(m[1]!),
  },
  {
    subsystem: GUARD,
    intent: /^post-compaction loop persisted\b/i,
    pattern: /^post-compaction loop persisted: tool=(\S+) repeated (\d+) times with identical args\+result post-compaction$/,
    text: "post-compaction loop persisted: tool=T repeated N times with identical args+result post-compaction",
    read: (m) => loop("detector", true, m[1]!, "compaction_loop_persisted", "abort", m[2]),
  },
  {
    subsystem: GUARD,
    intent: /^post-compaction guard armed\b/i,
    pattern: /^post-compaction guard armed for (\d+) attempts$/,
    text: "post-compaction guard armed for N attempts",
    read: (m) => {
      const attempts = count(m[1]);
      return attempts === undefined ? undefined : { kind: "guard_armed", attempts };
    },
  },
  {
    subsystem: GUARD,
    intent: /^post-compaction window closed\b/i,
    pattern: /^post-compaction window closed: toolCalls=(\d+) preCompactionRepeats=(\d+) tools=([\s\S]*)$/,
    text: "post-compaction window closed: toolCalls=N preCompactionRepeats=M tools=…",
    read: (m) => ({
      kind: "guard_closed",
      toolCalls: Number(m[1]),
      preCompactionRepeats: Number(m[2]),
      tools: m[3]!.split(/[\s,]+/).filter((tool) => tool !== ""),
    }),
  },
  embeddedRunLine("start", (tail) => embeddedRun("run_start", tail)),
  embeddedRunLine("tool start", toolStart),
  embeddedRunLine("done", (tail) => embeddedRun("run_done", tail)),
  {
    subsystem: EMBEDDED,
    intent: /^context overflow detected\b/i,
    pattern: /^context overflow detected\b/,
    text: "context overflow detected …",
    read: () => ({ kind: "overflow" }),
  },
  {
    subsystem: EMBEDDED,
    intent: /^auto-compaction succeeded\b/i,
    pattern: /^auto-compaction succeeded for [\s\S]+; retrying prompt$/,
    text: "auto-compaction succeeded for …; retrying prompt",
    read: () => ({ kind: "compaction", cause: "overflow" }),
  },
  {
    subsystem: EMBEDDED,
    intent: /^\[timeout-compaction\]\s*compaction succeeded\b/i,
    pattern: /^\[timeout-compaction\] compaction succeeded\b/,
    text: "[timeout-compaction] compaction succeeded …",
    read: () => ({ kind: "compaction", cause: "timeout" }),
  },
  {
    subsystem: CONSOLE_TOOLS,
    // Never a near miss: "… failed:" is how any subsystem words an error, and only `[tools]` means a tool.
    intent: /(?!)/,
    pattern: /^(\S+) failed:(?: [\s\S]*)?$/,
    text: "[tools] T failed: <error>",
    read: (m) => ({ kind: "tool_failed", tool: m[1]! }),
  },
];

/** Near-miss detection only looks at a message's opening: bounded work whatever the message size. */
const INTENT_WINDOW = 200;

/** The opening of any template, case aside: one test rejects most lines of a log. */
const ANY_INTENT =
  /^(?:loop warning|critical |polling loop|ping-pong|global circuit|blocking |tool loop|post-compaction|embedded run|context overflow|auto-compaction|\[timeout-compaction\])/i;

const BY_SUBSYSTEM = new Map<string, Template[]>();
for (const template of TEMPLATES) BY_SUBSYSTEM.set(template.subsystem, [...(BY_SUBSYSTEM.get(template.subsystem) ?? []), template]);

/** What a Gateway-log message is: a record looplens uses, a near miss, or irrelevant. */
export function classify(subsystem: string | null, message: string): LogRecord {
  const opening = message.trimStart().slice(0, INTENT_WINDOW);
  if (!ANY_INTENT.test(opening) && subsystem !== CONSOLE_TOOLS) return { kind: "irrelevant" };
  const text = message.trim();
  // Exact templates of the line's own subsystem first (the common case), then what it resembles.
  for (const template of (subsystem !== null && BY_SUBSYSTEM.get(subsystem)) || []) {
    const m = template.pattern.exec(text);
    const record = m ? template.read(m) : undefined;
    if (record) return record;
  }
  const resembled = TEMPLATES.find((template) => template.intent.test(opening));
  if (!resembled) return { kind: "irrelevant" };
  return { kind: "near_miss", template: resembled.text, ...(subsystem !== resembled.subsystem ? { expected: resembled.subsystem } : {}) };
}
