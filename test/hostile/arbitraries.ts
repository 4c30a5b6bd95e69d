/**
 * fast-check generators for hostile input: well-formed canonical transcripts that actually loop
 * (small pools of tools, args and results, so repeats happen), bad lines that every format must skip,
 * and the ways real files break (truncation, splices, duplicated lines, injected garbage).
 */
import fc from "fast-check";
import type { ResolvedConfig } from "../../src/core/config.js";

/** Names that are special on JavaScript objects; as data they must behave like any other name. */
export const PROTO_NAMES = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"] as const;

/** Text that would act on a terminal: clear screen, OSC 8 link, OSC 52 clipboard, C1 CSI, bidi, `\r`. */
export const TERMINAL_ATTACKS = [
  "\u001b[2J\u001b[H",
  "\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\",
  "\u001b]52;c;ZXZpbA==\u0007",
  "\u009b31mred",
  "\u202egnp.exe",
  "ok\rEVIL",
] as const;

const runIds = fc.constantFrom("r1", "r2", " r3 ", "__proto__", "constructor", `r${TERMINAL_ATTACKS[0]}`, TERMINAL_ATTACKS[4]);
const sessions = fc.constantFrom(undefined, "s1", "s2", "prototype", TERMINAL_ATTACKS[2]);
const agents = fc.constantFrom(undefined, "main", "__proto__", TERMINAL_ATTACKS[1]);
const tools = fc.constantFrom("exec", "read", "process", "command_status", "browser", "message", "update_plan", "constructor", `x${TERMINAL_ATTACKS[3]}`, TERMINAL_ATTACKS[5]);
const argsPool = fc.constantFrom<unknown>(
  { action: "poll", sessionId: "p1" },
  { action: "log", sessionId: "p1" },
  { path: "a.txt" },
  { path: "b.txt" },
  { command: "ls" },
  { action: "send", text: "hi" },
  JSON.parse('{"__proto__":{"x":1},"constructor":{"prototype":2}}'),
  { plan: [{ step: "x", status: "pending" }] },
  undefined,
  null,
);
const resultPool = fc.constantFrom<unknown>(
  { content: [{ type: "text", text: "running" }], details: { status: "running" } },
  { content: [{ type: "text", text: "done" }], details: { status: "completed", exitCode: 0 } },
  { content: [{ type: "text", text: "same" }] },
  { content: [{ type: "text", text: "other" }] },
  { details: { status: "blocked", deniedReason: "tool-loop" } },
  { details: { messageId: "m1", ok: true } },
  { details: { messageId: "m2", ok: true } },
  "plain",
  null,
);
const errorPool = fc.constantFrom<unknown>("Unknown tool: browser", "Tool 'frob' not found", "", { message: "boom" }, 7, `Unknown tool: ${TERMINAL_ATTACKS[2]}`);

export type EventLine = Record<string, unknown>;

/** One canonical event; `ids` numbers calls so that results can answer them. */
function eventLine(n: number): fc.Arbitrary<EventLine> {
  const base = fc.record({ run: runIds, session: sessions, agent: agents });
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(base, tools, argsPool).map(([b, tool, args]) => ({ type: "tool_call", ...b, id: `c${n}`, tool, args })) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(base, tools, fc.boolean(), resultPool, errorPool, fc.boolean())
        .map(([b, tool, isError, result, error, byId]) => ({
          type: "tool_result",
          ...b,
          ...(byId ? { id: `c${n - 1}` } : {}),
          tool,
          ...(isError ? { error } : { result }),
        })),
    },
    { weight: 1, arbitrary: base.map((b) => ({ type: "compaction", ...b })) },
    { weight: 1, arbitrary: base.map((b) => ({ type: "run_start", ...b })) },
    { weight: 1, arbitrary: base.map((b) => ({ type: "run_end", ...b })) },
  );
}

/**
 * A canonical transcript: mostly call/result pairs drawn from small pools (so loops happen), with
 * compactions and run boundaries. Every event has a run id.
 */
export const transcript: fc.Arbitrary<EventLine[]> = fc
  .array(fc.nat({ max: 1000 }), { minLength: 0, maxLength: 80 })
  .chain((seeds) => (seeds.length === 0 ? fc.constant([]) : fc.tuple(...seeds.map((_, i) => eventLine(i)))));

/** Loops of one call/result pair repeated, so that detectors fire with default-ish thresholds. */
export const loopingTranscript: fc.Arbitrary<EventLine[]> = fc
  .tuple(runIds, tools, argsPool, resultPool, fc.integer({ min: 1, max: 25 }), transcript)
  .map(([run, tool, args, result, times, noise]) => {
    const lines: EventLine[] = [];
    for (let i = 0; i < times; i++) {
      lines.push({ type: "tool_call", run, id: `loop${i}`, tool, args }, { type: "tool_result", run, id: `loop${i}`, tool, result });
    }
    return [...lines, ...noise];
  });

/** Small thresholds so that short transcripts produce every kind of finding. */
export const smallConfig: fc.Arbitrary<ResolvedConfig> = fc
  .record({
    enabled: fc.constantFrom<boolean | undefined>(true, true, undefined, false),
    historySize: fc.integer({ min: 1, max: 12 }),
    warningThreshold: fc.integer({ min: 1, max: 4 }),
    criticalThreshold: fc.integer({ min: 2, max: 6 }),
    unknownToolThreshold: fc.integer({ min: 1, max: 4 }),
    globalCircuitBreakerThreshold: fc.integer({ min: 3, max: 8 }),
    detectors: fc.record({ genericRepeat: fc.boolean(), knownPollNoProgress: fc.boolean(), pingPong: fc.boolean() }),
    postCompactionGuard: fc.record({ windowSize: fc.integer({ min: 1, max: 4 }) }),
  })
  .map((c) => {
    const criticalThreshold = Math.max(c.criticalThreshold, c.warningThreshold + 1);
    return { ...c, criticalThreshold, globalCircuitBreakerThreshold: Math.max(c.globalCircuitBreakerThreshold, criticalThreshold + 1) };
  });

const notJson = (text: string) => {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
};

/** A line of text without line breaks (a `\r` at its end would be eaten as CRLF). */
const lineText = fc.string({ maxLength: 60, unit: "binary" }).map((s) => s.replace(/[\n\r]/g, " "));

/**
 * Lines every format must skip, in a file whose events carry run ids: each is bad for a reason the
 * issue lists (not JSON, not an object, missing fields, wrong types, NUL bytes, invalid UTF-8).
 */
export const badLine: fc.Arbitrary<Uint8Array> = fc.oneof(
  lineText.filter((s) => s.trim() !== "" && notJson(s)).map((s) => Buffer.from(s)),
  fc.constantFrom("{", '{"type":"tool_call"', "]", "undefined", "NaN", "{'type':'run_start'}").map((s) => Buffer.from(s)),
  fc.jsonValue().filter((v) => typeof v !== "object" || v === null || Array.isArray(v)).map((v) => Buffer.from(JSON.stringify(v) ?? "null")),
  fc.constantFrom(
    { run: "r1" },
    { type: 5, run: "r1" },
    { type: "tool_kall", run: "r1" },
    { type: "__proto__", run: "r1" },
    { type: "tool_call", tool: "exec", id: "x" },
    { type: "tool_call", run: "r1", id: "x" },
    { type: "tool_call", run: "r1", tool: 7 },
    { type: "tool_call", run: "r1", tool: "" },
    { type: "tool_call", run: ["r1"], tool: "exec" },
    { type: "tool_call", run: "   ", tool: "exec" },
    { type: "tool_result", run: "r1" },
    { type: "tool_result", run: "r1", id: "c1", tool: { name: "exec" } },
    { type: "run_end" },
  ).map((v) => Buffer.from(JSON.stringify(v))),
  fc.constantFrom(Buffer.from('{"type":"tool_call","run":"r1",\0"tool":"exec"}'), Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0x7d]), Buffer.from([0xc3, 0x28, 0x0, 0xa0])),
);

export function toJsonl(lines: readonly EventLine[], eol = "\n"): string {
  return lines.map((line) => JSON.stringify(line) + eol).join("");
}

/** Joins raw lines with `\n` (and a final one). */
export function joinLines(lines: readonly Uint8Array[]): Buffer {
  return Buffer.concat(lines.flatMap((line) => [Buffer.from(line), Buffer.from("\n")]));
}

/** Ways a file gets broken: truncation, a spliced-out range, duplicated lines, garbage in between. */
export type Damage =
  | { kind: "truncate"; at: number }
  | { kind: "splice"; from: number; length: number }
  | { kind: "duplicate"; line: number; times: number }
  | { kind: "inject"; line: number; garbage: Uint8Array };

export const damage: fc.Arbitrary<Damage[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("splice" as const), from: fc.nat(), length: fc.nat({ max: 200 }) }),
    fc.record({ kind: fc.constant("duplicate" as const), line: fc.nat(), times: fc.integer({ min: 1, max: 5 }) }),
    fc.record({ kind: fc.constant("inject" as const), line: fc.nat(), garbage: fc.oneof(badLine, fc.uint8Array({ maxLength: 50 })) }),
  ),
  { maxLength: 4 },
);

export function applyDamage(data: Buffer, damages: readonly Damage[]): Buffer {
  let out = data;
  for (const d of damages) {
    if (d.kind === "truncate") out = out.subarray(0, out.length === 0 ? 0 : d.at % out.length);
    else if (d.kind === "splice") {
      const from = out.length === 0 ? 0 : d.from % out.length;
      out = Buffer.concat([out.subarray(0, from), out.subarray(from + d.length)]);
    } else {
      const lines = splitKeepingEnds(out);
      const at = lines.length === 0 ? 0 : d.line % lines.length;
      const insert = d.kind === "duplicate" ? Array<Buffer>(d.times).fill(lines[at] ?? Buffer.alloc(0)) : [Buffer.concat([Buffer.from(d.garbage), Buffer.from("\n")])];
      lines.splice(at, 0, ...insert);
      out = Buffer.concat(lines);
    }
  }
  return out;
}

function splitKeepingEnds(data: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, start)) {
    lines.push(data.subarray(start, nl + 1));
    start = nl + 1;
  }
  if (start < data.length) lines.push(data.subarray(start));
  return lines;
}

/**
 * Lines shaped like the OpenClaw formats (session transcripts, trajectories, Gateway logs), with
 * hostile names and values, so that every adapter gets past its format checks and the reporters
 * print replayed and live findings built from hostile text.
 */
const hostileName = fc.constantFrom("exec", "read", "__proto__", `x${TERMINAL_ATTACKS[0]}`, TERMINAL_ATTACKS[3], TERMINAL_ATTACKS[4], TERMINAL_ATTACKS[5]);
const hostileRun = fc.constantFrom("r1", "r2", "constructor", `r${TERMINAL_ATTACKS[1]}`, TERMINAL_ATTACKS[4]);
const entryId = fc.constantFrom("1", "2", "3", "4", "__proto__");
const callId = fc.constantFrom("t1", "t2", "toString");
const text = fc.constantFrom("running", "done", `Unknown tool: ${TERMINAL_ATTACKS[2]}`, TERMINAL_ATTACKS[1]);

const sessionLine: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant("session"), version: fc.constantFrom(3, 9), id: fc.constantFrom("s1", TERMINAL_ATTACKS[0]) }),
  fc.record({
    type: fc.constant("message"),
    id: entryId,
    parentId: fc.option(entryId, { nil: null }),
    message: fc.oneof(
      fc.record({ role: fc.constant("user"), content: fc.constant([{ type: "text", text: "go" }]) }),
      fc
        .tuple(callId, hostileName, argsPool)
        .map(([id, name, args]) => ({ role: "assistant", content: [{ type: "toolCall", id, name, arguments: args }] })),
      fc
        .tuple(callId, hostileName, text, fc.boolean())
        .map(([toolCallId, toolName, t, isError]) => ({ role: "toolResult", toolCallId, toolName, content: [{ type: "text", text: t }], isError })),
    ),
  }),
  fc.record({ type: fc.constantFrom("compaction", "custom", `odd${TERMINAL_ATTACKS[3]}`), id: entryId, parentId: fc.option(entryId, { nil: null }) }),
);

const trajectoryLine: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.constantFrom("session.started", "tool.call", "tool.result", "session.compaction", "model.completed", `odd${TERMINAL_ATTACKS[0]}`),
    hostileRun,
    callId,
    hostileName,
    argsPool,
    resultPool,
    fc.boolean(),
  )
  .map(([type, runId, toolCallId, name, args, result, success]) => ({
    traceSchema: "openclaw-trajectory",
    schemaVersion: 1,
    source: "runtime",
    type,
    runId,
    sessionId: "s1",
    sessionKey: `agent:${name}:main`,
    data: type === "tool.call" ? { toolCallId, name, args } : type === "tool.result" ? { toolCallId, name, success, result } : { compactionCount: 1 },
  }));

const gatewayMessage = fc.tuple(hostileRun, hostileName, fc.integer({ min: 1, max: 30 })).chain(([run, tool, n]) =>
  fc.constantFrom<[string, string]>(
    ["agent/embedded", `embedded run start: runId=${run}`],
    ["agent/embedded", `embedded run tool start: runId=${run} tool=${tool} toolCallId=t${n}`],
    ["agent/embedded", `embedded run done: runId=${run}`],
    ["agent/embedded", "auto-compaction succeeded for m; retrying prompt"],
    ["agents/loop-detection", `Loop warning: ${tool} called ${n} times with identical arguments`],
    ["agents/loop-detection", `Critical generic loop detected: ${tool} repeated ${n} times`],
    ["agents/tools", `Blocking ${tool} due to critical loop: CRITICAL: attempted unavailable tool ${tool} ${n} times.`],
    ["diagnostic", `tool loop: tool=${tool} level=warning action=warn detector=generic_repeat count=${n}`],
    [`odd${TERMINAL_ATTACKS[0]}`, `Loop warning: ${tool} called ten times`],
  ),
);

const gatewayLine: fc.Arbitrary<Record<string, unknown>> = gatewayMessage.map(([subsystem, message]) => ({
  "0": JSON.stringify({ subsystem }),
  "1": message,
  _meta: { logLevelName: "INFO", date: "2026-05-03T10:00:00.000Z" },
}));

/** One line of any of the OpenClaw formats. */
export const openclawShapedLine: fc.Arbitrary<Buffer> = fc.oneof(sessionLine, trajectoryLine, gatewayLine).map((v) => Buffer.from(JSON.stringify(v)));

/** A file of one OpenClaw format (so that sniffing picks it), with a few `badLine`s among its lines. */
export const openclawShapedFile: fc.Arbitrary<Uint8Array[]> = fc
  .tuple(fc.constantFrom(sessionLine, trajectoryLine, gatewayLine), fc.array(fc.tuple(fc.nat(), badLine), { maxLength: 3 }))
  .chain(([line, bad]) =>
    fc.array(line, { minLength: 1, maxLength: 40 }).map((values) => {
      const lines: Uint8Array[] = values.map((v) => Buffer.from(JSON.stringify(v)));
      for (const [at, b] of bad) lines.splice(1 + (at % lines.length), 0, b); // after the first line, which sniffing reads
      return lines;
    }),
  );
