/**
 * Extremes: a huge single line, 50 000-deep arguments, multi-megabyte error strings, lines over the
 * line-size limit, and many runs in one input (ended runs must release their working state).
 * Inputs are generated into a temp dir, never committed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonLine } from "../../src/adapters/adapter.js";
import { splitLines } from "../../src/adapters/io/lineSplitter.js";
import { TOO_LONG_LINE, type LineProblem } from "../../src/adapters/io/lineSource.js";
import { createHashing, unknownToolName } from "../../src/core/hashing.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { Replayer } from "../../src/core/replay.js";
import { stableSerialize } from "../../src/core/stableSerialize.js";
import { analyzeFile, digest, LOOPLENS_DEFAULT, renderAll, runMain, tempDir, TERMINAL_UNSAFE } from "./harness.js";

const tmp = tempDir();
const jsonl = (events: object[]) => events.map((e) => JSON.stringify(e)).join("\n") + "\n";

/** `n` identical call/result pairs with the given args and outcome. */
function loop(n: number, tool: string, args: unknown, outcome: object): object[] {
  const out: object[] = [];
  for (let i = 0; i < n; i++) out.push({ type: "tool_call", run: "r", id: `c${i}`, tool, args }, { type: "tool_result", run: "r", id: `c${i}`, ...outcome });
  return out;
}

describe("a huge single line", () => {
  // 20 MB keeps the suite fast; 100 MB was checked by hand (see the report).
  const SIZE = 20 * 1024 * 1024;

  it("a 20 MB call line is read, hashed, replayed and printed back by `events`", async () => {
    const huge = "x".repeat(SIZE);
    const path = tmp.write("huge.jsonl", jsonl(loop(1, "exec", { command: huge }, { result: { content: [{ type: "text", text: "same" }] } })));
    const analysis = await analyzeFile(path);
    expect(analysis.lines).toEqual({ read: 2, used: 2, ignored: 0, skipped: 0 });
    expect(analysis.runs[0]!.calls).toBe(1);
    const events = await runMain(["events", path]);
    expect(events.status).toBe(0);
    const first = JSON.parse(events.stdout.slice(0, events.stdout.indexOf("\n"))) as { args: { command: string } };
    expect(first.args.command.length).toBe(SIZE);
  });

  it("a 20 MB line of garbage is one skipped line with a short diagnostic", async () => {
    const path = tmp.write("huge-garbage.jsonl", `{"type":"run_start","run":"r"}\n{${"y".repeat(SIZE)}\n{"type":"run_end","run":"r"}\n`);
    const result = await runMain(["analyze", path, "--format", "json"]);
    expect(result.stderr).toBe(`${path}:2: not valid JSON\n`);
    expect((JSON.parse(result.stdout) as { summary: { lines: object } }).summary.lines).toEqual({ read: 3, used: 2, ignored: 0, skipped: 1 });
  });

  it("a 5 MB unknown event type or run id gives a short diagnostic, not a 5 MB one", async () => {
    const long = "t".repeat(5 * 1024 * 1024);
    const path = tmp.write("long-type.jsonl", jsonl([{ type: "run_start", run: "r" }, { type: long, run: "r" }, { type: "tool_result", run: long, id: long }]));
    const result = await runMain(["analyze", path]);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toEqual([
      `${path}:2: unknown event type "${"t".repeat(80)}…" (${long.length} chars)`,
      `${path}:3: result (id "${"t".repeat(80)}…" (${long.length} chars)) matches no call of run "${"t".repeat(80)}…" (${long.length} chars); not replayed`,
    ]);
    // The run header clips the id too.
    expect(result.stdout.length).toBeLessThan(5000);
  });
});

describe("lines over the size limit", () => {
  /** Splits `chunks` with a tiny limit, returning what the handler saw. */
  async function split(chunks: string[], limit: number) {
    const seen: Array<{ text: string; line: number; terminated: boolean; problem?: LineProblem }> = [];
    await splitLines(chunks.map((c) => Buffer.from(c)), (text, line, terminated, problem) => void seen.push({ text, line, terminated, ...(problem ? { problem } : {}) }), { maxLineBytes: limit });
    return seen;
  }

  it("an over-long line, whole or in pieces, is handed over as TOO_LONG_LINE with its size, and reading goes on", async () => {
    expect(await split(["ok\n" + "z".repeat(50) + "\nnext\n"], 20)).toEqual([
      { text: "ok", line: 1, terminated: true },
      { text: TOO_LONG_LINE, line: 2, terminated: true, problem: { tooLong: 50, head: "z".repeat(50) } },
      { text: "next", line: 3, terminated: true },
    ]);
    expect(await split(["ok\nzzzzzzzzzz", "zzzzzzzzzz", "zzzzzzzzzz", "zz\nnext", "\n", "q".repeat(30)], 20)).toEqual([
      { text: "ok", line: 1, terminated: true },
      { text: TOO_LONG_LINE, line: 2, terminated: true, problem: { tooLong: 32, head: "z".repeat(32) } },
      { text: "next", line: 3, terminated: true },
      { text: TOO_LONG_LINE, line: 4, terminated: false, problem: { tooLong: 30, head: "q".repeat(30) } },
    ]);
    // The head is the line's first 64 bytes, whichever pieces they came in.
    expect(await split(["ok\nab", "c".repeat(30), "d".repeat(60), "e".repeat(90) + "\n"], 20)).toEqual([
      { text: "ok", line: 1, terminated: true },
      { text: TOO_LONG_LINE, line: 2, terminated: true, problem: { tooLong: 182, head: "ab" + "c".repeat(30) + "d".repeat(32) } },
    ]);
    // Right at the limit is still a line.
    expect(await split(["a".repeat(20) + "\n", "b".repeat(10), "c".repeat(10)], 20)).toEqual([
      { text: "a".repeat(20), line: 1, terminated: true },
      { text: "b".repeat(10) + "c".repeat(10), line: 2, terminated: false },
    ]);
  });

  it("every adapter skips it with a reason naming the size, even one that ignores `problem`", () => {
    expect(parseJsonLine(TOO_LONG_LINE, true, { tooLong: 300 * 2 ** 20 })).toEqual({
      ok: false,
      reason: `line too long (${300 * 2 ** 20} bytes, over the 32 MiB limit); not read (--max-line-bytes raises the limit)`,
    });
    // How it begins, quoted: control characters come out escaped, never raw.
    expect(parseJsonLine(TOO_LONG_LINE, true, { tooLong: 300 * 2 ** 20, head: '{"t":"\u001b[31m' })).toEqual({
      ok: false,
      reason: `line too long (${300 * 2 ** 20} bytes, over the 32 MiB limit; it begins "{\\"t\\":\\"\\u001b[31m…"); not read (--max-line-bytes raises the limit)`,
    });
    expect(parseJsonLine(TOO_LONG_LINE, true)).toEqual({ ok: false, reason: "line too long (over the 32 MiB limit); not read (--max-line-bytes raises the limit)" });
  });
});

describe("50 000-deep nesting", () => {
  const DEPTH = 50_000;
  const deepObject = (leaf: string) => `${'{"a":'.repeat(DEPTH)}${leaf}${"}".repeat(DEPTH)}`;
  const deepArray = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;

  it("stableSerialize writes it without recursion, the same text the recursive writer gives", () => {
    let value: unknown = 1;
    for (let i = 0; i < DEPTH; i++) value = { a: value };
    expect(stableSerialize(value, undefined, undefined, "text")).toBe(deepObject("1"));
    // Past 800 levels the explicit-stack writer takes over: wrapping any value 1000 deep must give
    // exactly the wrapper around the value's own (recursively written) text.
    fc.assert(
      fc.property(fc.jsonValue(), (inner) => {
        let wrapped: unknown = inner;
        for (let i = 0; i < 1000; i++) wrapped = i % 2 ? [wrapped] : { k: wrapped };
        const ownText = stableSerialize(inner, undefined, undefined, "text");
        expect(stableSerialize(wrapped, undefined, undefined, "text")).toBe(`${'[{"k":'.repeat(500)}${ownText}${"}]".repeat(500)}`);
      }),
      { numRuns: 100 },
    );
  });

  it("in args, results, details and errors: replay, every reporter and events neither crash nor overflow", async () => {
    const lines = [
      `{"type":"tool_call","run":"r","id":"c1","tool":"exec","args":${deepObject('"x"')}}`,
      `{"type":"tool_result","run":"r","id":"c1","result":{"content":[],"details":${deepObject("2")}}}`,
      `{"type":"tool_call","run":"r","id":"c2","tool":"message","args":{"action":"send","to":${deepArray}}}`,
      `{"type":"tool_result","run":"r","id":"c2","result":{"details":${deepObject('{"messageId":"m1","id":"x"}')}}}`,
      `{"type":"tool_call","run":"r","id":"c3","tool":"update_plan","args":{"plan":${deepArray}}}`,
      `{"type":"tool_result","run":"r","id":"c3","error":${deepObject('"Unknown tool: frob"')}}`,
    ];
    // Twice, so that detectors fire and reporters have findings to print.
    const path = tmp.write("deep.jsonl", `${lines.join("\n")}\n${lines.join("\n")}\n`);
    const analysis = await analyzeFile(path, undefined, { ...LOOPLENS_DEFAULT, warningThreshold: 1, criticalThreshold: 2, unknownToolThreshold: 1 });
    expect(analysis.lines).toEqual({ read: 12, used: 12, ignored: 0, skipped: 0 });
    expect([...analysis.runs[0]!.findings].map((f) => [f.call, f.detector, f.level])).toEqual([
      [4, "generic_repeat", "warning"],
      [5, "generic_repeat", "warning"],
      [6, "generic_repeat", "warning"],
    ]);
    for (const text of Object.values(renderAll(analysis))) expect(text).toMatch(/generic_repeat/);
    const once = tmp.write("deep-once.jsonl", `${lines.join("\n")}\n`);
    const events = await runMain(["events", once]);
    expect(events.status).toBe(0);
    expect(events.stdout.split("\n")[0]).toBe(`${lines[0]!.slice(0, -1)},"file":${JSON.stringify(once)},"line":1}`);
  });

  it("a deep config is read (unknown key notice), not a crash", async () => {
    const config = tmp.write("deep.json5", `{tools:{loopDetection:{enabled:true,x:${deepObject("1").replace(/"a"/g, "a")}}}}`);
    const result = await runMain(["analyze", tmp.write("one.jsonl", '{"type":"run_start","run":"r"}\n'), "--config", config]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/unknown key tools\.loopDetection\.x/);
  });
});

describe("multi-megabyte error strings", () => {
  const MB5 = 5 * 1024 * 1024;
  /** Texts that would make a backtracking pattern quadratic, each with the size it is built at. */
  const adversarial: Record<string, (n: number) => string> = {
    "spaces after 'unknown tool'": (n) => `unknown tool${" ".repeat(n)}!`,
    "colons after 'unknown tool'": (n) => `unknown tool${":".repeat(n)}`,
    "a name that never ends in 'not found'": (n) => `tool ${"a".repeat(n)} not foun`,
    "'tool' repeated": (n) => "tool ".repeat(n / 5),
    "'tool a' repeated": (n) => "tool a\t".repeat(n / 7),
    "'unknown tool' repeated": (n) => "unknown tool ".repeat(n / 13),
    "quoted names": (n) => `tool '${"a.-_".repeat(n / 4)}' is not availabl`,
    "whitespace runs between names": (n) => `tool${" \t".repeat(n / 2)}x`,
  };

  /** Fastest of three runs, in ms (the minimum is robust to a loaded machine). */
  function fastest(text: string): number {
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      unknownToolName(text);
      best = Math.min(best, performance.now() - start);
    }
    return best;
  }

  it.each(Object.entries(adversarial))("%s: 5 MB is scanned in linear time", (_what, build) => {
    const small = build(MB5 / 4);
    const large = build(MB5);
    const [tSmall, tLarge] = [fastest(small), fastest(large)];
    // Linear: ~4x for 4x the text; a quadratic scan would be ~16x (and take minutes at 5 MB).
    expect(tLarge).toBeLessThan(Math.max(10, tSmall) * 10);
    expect(tLarge).toBeLessThan(2000);
  });

  it("the patterns still find the names in normal and in long messages", () => {
    expect(unknownToolName("Unknown tool: Browser")).toBe("browser");
    expect(unknownToolName('tool "web.fetch" is not available')).toBe("web.fetch");
    expect(unknownToolName(`${"log line\n".repeat(500_000)}Tool frob not found`)).toBe("frob");
  });

  it("a 5 MB error text through the pipeline: hashed, detected as unknown tool, short output", async () => {
    const error = `Unknown tool: browser ${"x".repeat(MB5)}`;
    const path = tmp.write("big-error.jsonl", jsonl(loop(3, "browser", {}, { error })));
    const analysis = await analyzeFile(path, undefined, { ...LOOPLENS_DEFAULT, unknownToolThreshold: 2 });
    expect([...analysis.runs[0]!.findings].map((f) => [f.call, f.detector, f.count])).toEqual([[3, "unknown_tool_repeat", 2]]);
    const ndjson = await runMain(["analyze", path, "--format", "ndjson"]);
    expect(ndjson.stdout.length).toBeLessThan(2000);
  });

  it("sanitizing a 5 MB tool name full of escape sequences for a table cell stays cheap", () => {
    const name = "\u001b[31m\u001b]8;;x\u0007".repeat(MB5 / 16);
    const start = performance.now();
    const cell = renderAll({
      files: [{ file: "f", format: "events" }],
      unusable: [],
      transcript: { copies: 0, duplicates: 0, reconstructedCalls: 0 },
      runs: [{ run: name, agent: name, session: null, file: "f", calls: 1, compactions: 0, findings: [], firstStop: null, guardWindows: [], recordedVetoes: 0 }],
      liveRuns: [],
      liveFindings: [],
      lines: { read: 1, used: 1, ignored: 0, skipped: 0 },
      diagnostics: [],
      diagnosticsTotal: 0,
    }).table!;
    expect(performance.now() - start).toBeLessThan(2000);
    expect(TERMINAL_UNSAFE.test(cell)).toBe(false);
  });
});

describe("many runs", () => {
  it("ended runs release their working state; open runs are all that is held", async () => {
    const hashing = createHashing(await digest());
    const preparer = new EventPreparer(hashing);
    const replayer = new Replayer(() => LOOPLENS_DEFAULT);
    const feed = (event: object, line: number) => {
      const disposition = preparer.prepare({ file: "f", line, ...event } as Parameters<EventPreparer["prepare"]>[0]);
      if (disposition.used) replayer.push(disposition.prepared);
    };
    let line = 0;
    for (let i = 0; i < 5000; i++) {
      const run = `run-${i}`;
      feed({ type: "run_start", run, session: i % 2 ? `s${i}` : undefined }, ++line);
      feed({ type: "tool_call", run, id: "c1", tool: "read", args: { path: "x".repeat(1000) } }, ++line);
      feed({ type: "tool_call", run, id: "c2", tool: "read", args: { never: "answered" } }, ++line);
      feed({ type: "tool_result", run, id: "c1", result: { content: [] } }, ++line);
      feed({ type: "run_end", run }, ++line);
      expect(preparer.openRuns).toBe(0);
      expect(replayer.heldHistories).toBe(0);
    }
    // Runs that never end (the canonical format allows that) are held until the end of input.
    for (let i = 0; i < 10; i++) feed({ type: "tool_call", run: `open-${i}`, tool: "read", args: {} }, ++line);
    expect(preparer.openRuns).toBe(10);
    expect(replayer.heldHistories).toBe(10);
    const reports = replayer.finish();
    expect(reports).toHaveLength(5010);
    expect(replayer.heldHistories).toBe(0);
    // A run without findings shares the empty lists rather than holding two arrays of its own.
    expect(reports[0]!.findings).toBe(reports[1]!.findings);
  });

  it("150 000 runs in one file: analysed without overflowing the stack", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 150_000; i++) lines.push(`{"type":"run_start","run":"r${i}"}`);
    const path = tmp.write("runs.jsonl", `${lines.join("\n")}\n`);
    const analysis = await analyzeFile(path);
    expect(analysis.runs).toHaveLength(150_000);
    expect(analysis.lines.used).toBe(150_000);
  });
});
