/**
 * Finding previews (core/preview.ts): the telling arguments and the outcome of a finding's pattern,
 * bounded whatever the input, and made by replay only when it was handed the input's events; and
 * the previews of each call of a window `looplens explain` shows.
 */
import { describe, expect, it } from "vitest";
import { toBytes } from "../../src/core/byteText.js";
import { createHashing } from "../../src/core/hashing.js";
import { argsPreview, CALL_PREVIEW_CHARS, callArgsPreview, callOutcomePreview, findingPreview, oneLine } from "../../src/core/preview.js";
import { RecentPatterns } from "../../src/core/recentPatterns.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { Replayer } from "../../src/core/replay.js";
import { call, failure, repeat, result, textResult, type EventLine } from "../helpers/events.js";
import { configWith, identityDigest, toLoopEvents } from "../helpers/replay.js";

describe("argument previews", () => {
  it("puts the telling keys first, then the others in input order, at most three", () => {
    expect(argsPreview({ args: { timeout: 5, commandId: "build-42" } })).toBe("commandId=build-42, timeout=5");
    expect(argsPreview({ args: { a: 1, b: 2, c: 3, path: "src/a.ts" } })).toBe("path=src/a.ts, a=1, b=2, …");
  });

  it("quotes values that are not one word and clips long ones", () => {
    expect(argsPreview({ args: { command: "npm test" } })).toBe('command="npm test"');
    const long = argsPreview({ args: { query: `${"x".repeat(100)} tail` } });
    expect(long).toBe(`query=${"x".repeat(31)}…`);
  });

  it("names non-scalar arguments without printing them, and says nothing for absent ones", () => {
    expect(argsPreview({ args: { edits: [{ a: 1 }], options: {} } })).toBe("edits=…, options=…");
    expect(argsPreview({ args: undefined })).toBe("");
    expect(argsPreview({ args: "ls -la" })).toBe('"ls -la"');
  });

  it("reads byte strings as the text they hold", () => {
    expect(argsPreview({ args: { path: toBytes("résumé.md") }, form: "bytes" })).toBe("path=résumé.md");
  });
});

describe("outcome previews", () => {
  it("takes the content text, else the status, else compact JSON", () => {
    expect(findingPreview(undefined, { result: textResult("status:\n  running") }).result).toBe("status: running");
    expect(findingPreview(undefined, { result: { content: [], details: { status: "running" } } }).result).toBe("running");
    expect(findingPreview(undefined, { result: { ok: true, n: 3 } }).result).toBe('{"ok":true,"n":3}');
    expect(findingPreview(undefined, { result: undefined }).result).toBeNull();
    expect(findingPreview(undefined, undefined)).toEqual({ args: "", result: null, error: false });
  });

  it("marks errors and shows their message", () => {
    expect(findingPreview(undefined, { error: { message: "ENOENT: no such file" } })).toEqual({ args: "", result: "ENOENT: no such file", error: true });
    expect(findingPreview(undefined, { error: null }).error).toBe(true);
  });

  it("stays short for a huge result and holds no line break", () => {
    const huge = { rows: Array.from({ length: 100_000 }, (_, i) => ({ i, text: "y".repeat(100) })) };
    const preview = findingPreview({ args: { sql: "select *\nfrom t" } }, { result: huge });
    expect(preview.result!.length).toBeLessThanOrEqual(48);
    expect(preview.args).toBe('sql="select * from t"');
    expect(oneLine("a\r\n\tb", 10)).toBe("a b");
  });
});

describe("recent patterns", () => {
  it("keeps at least `limit` patterns and forgets older ones", () => {
    const recent = new RecentPatterns(2);
    recent.refs("a").call = { args: 1 };
    recent.refs("b");
    recent.refs("c"); // a moves to the previous generation
    expect(recent.peek("a")?.call).toEqual({ args: 1 });
    recent.refs("d");
    recent.refs("e"); // the generation holding a is dropped
    expect(recent.peek("a")).toBeUndefined();
    expect(recent.peek("e")).toBeDefined();
  });

  it("hands out the same refs for a pattern, in either generation, and carries them over when it comes again", () => {
    const recent = new RecentPatterns(3);
    const a = recent.refs("a");
    const b = recent.refs("b");
    expect(recent.refs("a")).toBe(a); // the first pattern (held apart from the others)
    expect(recent.refs("b")).toBe(b);
    recent.refs("c");
    recent.refs("d"); // a, b and c move to the previous generation
    expect(recent.peek("a")).toBe(a);
    expect(recent.refs("b")).toBe(b); // carried over into the current one
    recent.refs("e");
    recent.refs("f"); // d, b and e move on; the generation holding a and c is dropped
    expect(recent.peek("b")).toBe(b);
    expect(recent.peek("a")).toBeUndefined();
    expect(recent.peek("c")).toBeUndefined();
    expect(recent.refs("a")).not.toBe(a);
  });
});

function replay(lines: readonly EventLine[], withInput: boolean) {
  const preparer = new EventPreparer(createHashing(identityDigest));
  const replayer = new Replayer(() => configWith());
  for (const event of toLoopEvents(lines)) {
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared, withInput ? event : undefined);
  }
  return replayer.finish();
}

describe("replay's previews", () => {
  const poll = repeat(12, "r", "command_status", { commandId: "build-42" }, textResult("running"));

  it("a finding previews the repeated call and the outcome before it", () => {
    const [run] = replay(poll, true);
    expect([...run!.findings][0]!.preview).toEqual({ args: "commandId=build-42", result: "running", error: false });
    expect([...run!.findings].every((f) => f.preview?.result === "running")).toBe(true);
  });

  it("without the input's events (sweep) findings carry no preview, and the same verdicts", () => {
    const without = replay(poll, false)[0]!;
    expect([...without.findings].every((f) => f.preview === undefined)).toBe(true);
    const withIt = replay(poll, true)[0]!;
    expect([...without.findings].map((f) => [f.call, f.level, f.count])).toEqual([...withIt.findings].map((f) => [f.call, f.level, f.count]));
  });

  it("an unknown-tool streak previews the refusal though each call's arguments differ", () => {
    const lines = Array.from({ length: 11 }, (_, i) => [call("r", `u${i}`, "browser", { step: i }), failure("r", `u${i}`, "browser", "Unknown tool: browser")]).flat();
    const finding = [...replay(lines, true)[0]!.findings].find((f) => f.detector === "unknown_tool_repeat")!;
    expect(finding.preview).toEqual({ args: "step=10", result: "Unknown tool: browser", error: true });
  });

  it("a run keeps the call ordinals of the vetoes its input records", () => {
    const veto = { content: [{ type: "text", text: "blocked" }], details: { status: "blocked", deniedReason: "tool-loop" } };
    const lines = [call("r", "a", "read", {}), result("r", "a", "read", textResult("x")), call("r", "b", "read", {}), result("r", "b", "read", veto), call("r", "c", "read", {}), result("r", "c", "read", veto)];
    const [run] = replay(lines, false);
    expect(run!.recordedVetoes).toBe(2);
    expect(run!.recordedVetoCalls).toEqual([2, 3]);
  });
});

const resultEvent = (fields: Record<string, unknown>) => ({ type: "tool_result" as const, run: "r", file: "f", line: 1, ...fields });

describe("an explained call's arguments", () => {
  it("writes an object as key=value pairs, strings bare, other values as JSON", () => {
    expect(callArgsPreview({ action: "poll", sessionId: "p9", n: 3, flags: ["a"] }, "text")).toBe('action=poll sessionId=p9 n=3 flags=["a"]');
    expect(callArgsPreview(undefined, "text")).toBe("(no arguments)");
    expect(callArgsPreview({}, "text")).toBe("{}");
    expect(callArgsPreview("just text", "text")).toBe("just text");
  });

  it("cuts long or multi-line arguments to one short line, whatever their size", () => {
    const preview = callArgsPreview({ command: `echo ${"x".repeat(5_000_000)}\nsecond line` }, "text");
    expect(preview.length).toBeLessThanOrEqual(CALL_PREVIEW_CHARS);
    expect(preview.endsWith("…")).toBe(true);
    expect(callArgsPreview({ a: "one\n  two" }, "text")).toBe("a=one two");
    // Clipped as a finding's preview is (oneLine): by code points, never splitting a pair.
    const rockets = callArgsPreview({ a: "🚀".repeat(100) }, "text");
    expect([rockets.isWellFormed(), [...rockets].length]).toEqual([true, CALL_PREVIEW_CHARS]);
  });

  it("decodes byte strings (arguments the adapter kept as bytes)", () => {
    expect(callArgsPreview({ path: toBytes("café.md") }, "bytes")).toBe("path=café.md");
  });
});

describe("an explained call's outcome", () => {
  it("shows a result's first text, an error as error: …, and says when there is none", () => {
    expect(callOutcomePreview(resultEvent({ result: { content: [{ type: "text", text: "still running" }] } }))).toBe("still running");
    expect(callOutcomePreview(resultEvent({ error: "ENOENT: no such file" }))).toBe("error: ENOENT: no such file");
    expect(callOutcomePreview(resultEvent({ result: { status: "ok" } }))).toBe('{"status":"ok"}');
    expect(callOutcomePreview(resultEvent({}))).toBe("(no result)");
  });
});
