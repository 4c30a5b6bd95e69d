/**
 * One test per kind of bad line: each is skipped (or used, where still meaningful) with a
 * `file:line: reason` diagnostic, the summary accounts for every line, stderr is capped with a
 * total, and the rest is analysed as if the bad lines were absent.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LineTally, UnitHistory } from "../../src/adapters/adapter.js";
import { TOO_LONG_LINE, type LineSource } from "../../src/adapters/io/lineSource.js";
import { ROOT } from "../helpers/cli.js";
import { ADAPTERS, analyzeFile, findingKeys, runMain, tempDir } from "./harness.js";

const tmp = tempDir();

/** `looplens analyze FILE --format json`: the diagnostics on stderr and the line counts. */
async function analyzeJson(path: string, ...flags: string[]) {
  const result = await runMain(["analyze", path, "--format", "json", ...flags]);
  const doc = JSON.parse(result.stdout) as {
    summary: { lines: Record<string, number>; diagnostics: number; runs: number; calls: number };
    diagnostics: Array<{ file: string; line: number; reason: string }>;
  };
  return { ...result, doc, stderrLines: result.stderr.split("\n").filter((l) => l !== "") };
}

const CALL = '{"type":"tool_call","run":"r1","id":"c1","tool":"exec","args":{"command":"ls"}}';

describe("bad lines", () => {
  // [what, line bytes, expected diagnostic (null: used or ignored without one), counted as]
  const cases: Array<[string, Buffer | string, string | null, "used" | "ignored" | "skipped"]> = [
    ["not JSON", "this is not json", "not valid JSON", "skipped"],
    ["an array", "[1,2,3]", "not a JSON object", "skipped"],
    ["a string", '"tool_call"', "not a JSON object", "skipped"],
    ["null", "null", "not a JSON object", "skipped"],
    ["no type", '{"run":"r1"}', 'missing "type"', "skipped"],
    ["a numeric type", '{"type":5,"run":"r1"}', '"type" is not a string', "skipped"],
    ["an unknown type", '{"type":"tool_kall","run":"r1"}', 'unknown event type "tool_kall"', "skipped"],
    ["no run in a file with runs", '{"type":"tool_call","tool":"exec"}', 'missing "run"', "skipped"],
    ["a run that is an object", '{"type":"tool_call","run":{"id":1},"tool":"exec"}', '"run" is not a non-blank string', "skipped"],
    ["a blank run", '{"type":"tool_call","run":"  ","tool":"exec"}', '"run" is not a non-blank string', "skipped"],
    ["a call without a tool", '{"type":"tool_call","run":"r1","id":"c2"}', 'tool_call without a "tool" name', "skipped"],
    ["a numeric tool", '{"type":"tool_call","run":"r1","tool":7}', '"tool" is not a non-empty string', "skipped"],
    ["a result with neither id nor tool", '{"type":"tool_result","run":"r1","result":{}}', 'tool_result with neither "id" nor "tool"', "skipped"],
    ["a result of no call", '{"type":"tool_result","run":"r1","id":"nope","result":{}}', 'result (id "nope") matches no call of run "r1"; not replayed', "ignored"],
    ["a NUL byte outside strings", '{"type":"run_start",\u0000"run":"r1"}', "not valid JSON: NUL byte", "skipped"],
    ["invalid UTF-8 outside strings", Buffer.from([0x7b, 0xff, 0x7d]), "not valid JSON: invalid UTF-8", "skipped"],
    ["invalid UTF-8 inside a string", Buffer.concat([Buffer.from('{"type":"run_start","run":"r1","agent":"a'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]), "invalid UTF-8 (replaced by U+FFFD)", "used"],
    ["an escaped NUL inside a string (valid JSON)", '{"type":"run_start","run":"r1","agent":"a\\u0000b"}', null, "used"],
    ["a blank line", "   \t", null, "ignored"],
  ];

  it.each(cases)("%s: %s", async (_what, bad, reason, counted) => {
    const path = tmp.write("bad.jsonl", Buffer.concat([Buffer.from(`${CALL}\n`), Buffer.from(bad), Buffer.from(`\n${CALL.replace("c1", "c3")}\n`)]));
    const { status, stderrLines, doc } = await analyzeJson(path);
    expect(status).toBe(0);
    expect(stderrLines).toEqual(reason === null ? [] : [`${path}:2: ${reason}`]);
    expect(doc.diagnostics).toEqual(reason === null ? [] : [{ file: path, line: 2, reason }]);
    const lines = { read: 3, used: 2, ignored: 0, skipped: 0 };
    lines[counted]++;
    expect(doc.summary.lines).toEqual(lines);
    expect(doc.summary.calls).toBe(2);
  });

  it("a BOM, CRLF line ends and a cut-off last line", async () => {
    const path = tmp.write("crlf.jsonl", `\uFEFF${CALL}\r\n${CALL.replace("c1", "c2")}\r\n${CALL.slice(0, 30)}`);
    const { stderrLines, doc } = await analyzeJson(path);
    expect(stderrLines).toEqual([`${path}:3: truncated last line (not valid JSON)`]);
    expect(doc.summary.lines).toEqual({ read: 3, used: 2, ignored: 0, skipped: 1 });
  });

  it("a BOM in the middle of a file (two files concatenated) is removed too", async () => {
    const path = tmp.write("cat.jsonl", `\uFEFF${CALL}\n\uFEFF${CALL.replace("c1", "c2")}\n`);
    const { stderrLines, doc } = await analyzeJson(path);
    expect(stderrLines).toEqual([]);
    expect(doc.summary.lines).toEqual({ read: 2, used: 2, ignored: 0, skipped: 0 });
  });

  it("a cut-off last line of a gzipped file: what the file holds is read, and the cut is noted once", async () => {
    // An incompressible last line, so that cutting the compressed file cuts into that line.
    const full = gzipSync(`${CALL}\n${CALL.replace("c1", "c2")}\n${randomBytes(6000).toString("base64")}\n`);
    const path = tmp.write("cut.jsonl.gz", full.subarray(0, full.length - 1000));
    const { status, stderrLines, doc } = await analyzeJson(path);
    expect(status).toBe(0);
    expect(doc.summary.lines).toMatchObject({ used: 2, skipped: 1 });
    expect(stderrLines).toEqual([
      `${path}:3: truncated last line (not valid JSON)`,
      `${path}:3: gzip data ends early or is corrupt (unexpected end of file); read up to here`,
    ]);
  });

  it("a gzip stream cut after its last line: every line is read, the missing end is noted", async () => {
    const full = gzipSync(`${CALL}\n${CALL.replace("c1", "c2")}\n`);
    const path = tmp.write("cut-trailer.jsonl.gz", full.subarray(0, full.length - 4));
    const { status, stderrLines, doc } = await analyzeJson(path);
    expect(status).toBe(0);
    expect(doc.summary.lines).toEqual({ read: 2, used: 2, ignored: 0, skipped: 0 });
    expect(stderrLines).toEqual([`${path}:2: gzip data ends early or is corrupt (unexpected end of file); read up to here`]);
  });

  it("compression is recognised by magic bytes, not the name: a plain file named .gz reads as text", async () => {
    const path = tmp.write("plain.jsonl.gz", `${CALL}\n`);
    const { status, stderrLines, doc } = await analyzeJson(path);
    expect(status).toBe(0);
    expect(stderrLines).toEqual([]);
    expect(doc.summary.lines).toEqual({ read: 1, used: 1, ignored: 0, skipped: 0 });
  });

  it("stderr shows each kind of diagnostic once with its count, --verbose every one; json keeps them all; --quiet shows none", async () => {
    const bad = Array.from({ length: 45 }, (_, i) => `garbage ${i}`);
    const path = tmp.write("many.jsonl", [CALL, ...bad, "[1]"].join("\n") + "\n");
    const { status, stderrLines, doc } = await analyzeJson(path);
    expect(status).toBe(0);
    expect(stderrLines).toEqual([
      `${path}:2: not valid JSON (and 44 more like it)`,
      `${path}:47: ${doc.diagnostics[45]!.reason}`,
      "looplens: 46 diagnostics of 2 kinds, the first of each shown (looplens analyze --verbose shows every one; --format json lists them)",
    ]);
    const verbose = await runMain(["analyze", path, "--verbose", "--format", "json"]);
    expect(verbose.stderr.trimEnd().split("\n")).toEqual(doc.diagnostics.map((d) => `${path}:${d.line}: ${d.reason}`));
    expect(doc.diagnostics).toHaveLength(46);
    expect(doc.summary.diagnostics).toBe(46);
    expect(doc.summary.lines).toEqual({ read: 47, used: 1, ignored: 0, skipped: 46 });
    expect((await runMain(["analyze", path, "--quiet", "--format", "json"])).stderr).toBe("");
  });

  it("--strict: a skipped line makes the exit status 2 (report still printed); ignored lines do not", async () => {
    const skipped = tmp.write("s.jsonl", `${CALL}\nnot json\n`);
    const strict = await runMain(["analyze", skipped, "--strict", "--format", "ndjson"]);
    expect(strict.status).toBe(2);
    expect(strict.stderr).toBe(`${skipped}:2: not valid JSON\nlooplens: --strict: 1 input line(s) skipped as bad\n`);
    expect((await runMain(["analyze", skipped, "--format", "ndjson"])).status).toBe(0);
    expect((await runMain(["events", skipped, "--strict"])).status).toBe(2);
    const ignored = tmp.write("i.jsonl", `${CALL}\n{"type":"tool_result","run":"r1","id":"none","result":1}\n\n`);
    expect((await runMain(["analyze", ignored, "--strict"])).status).toBe(0);
  });

  it("the poll-loop fixture with garbage between its lines gives the same findings, at the shifted lines", async () => {
    const fixture = readFileSync(`${ROOT}/fixtures/poll-loop.jsonl`, "utf8").trimEnd().split("\n");
    const garbage = ["{", "[]", '{"type":"tool_call","run":"poll-1"}', '{"run":"poll-1","type":"nope"}', "\u0000\u0000"];
    const dirty = fixture.flatMap((line, i) => [garbage[i % garbage.length]!, line]);
    const clean = await analyzeFile(tmp.write("clean.jsonl", fixture.join("\n")));
    const withGarbage = await analyzeFile(tmp.write("dirty.jsonl", dirty.join("\n")));
    expect(findingKeys(clean).length).toBeGreaterThan(10);
    expect(findingKeys(withGarbage)).toEqual(findingKeys(clean, (line) => 2 * line));
    expect(withGarbage.lines).toEqual({ ...clean.lines, read: 2 * fixture.length, skipped: fixture.length });
  });
});

describe("bad bytes in every format", () => {
  const BAD = Buffer.from([0xc3, 0x28]); // not UTF-8
  const tslog = (message: Buffer | string) =>
    Buffer.concat([Buffer.from('{"0":"{\\"subsystem\\":\\"agent/embedded\\"}","1":"'), Buffer.from(message), Buffer.from('","_meta":{"logLevelName":"INFO","date":"2026-05-03T10:00:00.000Z"}}')]);
  const trajectory = (runId: Buffer | string) =>
    Buffer.concat([Buffer.from('{"traceSchema":"openclaw-trajectory","schemaVersion":1,"type":"session.started","runId":"'), Buffer.from(runId), Buffer.from('"}')]);
  // Per format: a good first line (for sniffing), then a good line whose string holds bytes that are not UTF-8.
  const files: Record<string, [Buffer, Buffer]> = {
    events: [Buffer.from(CALL), Buffer.concat([Buffer.from('{"type":"run_start","run":"r'), BAD, Buffer.from('"}')])],
    "openclaw-session": [
      Buffer.from('{"type":"session","version":3,"id":"s1"}'),
      Buffer.concat([Buffer.from('{"type":"message","id":"1","parentId":null,"message":{"role":"user","content":[{"type":"text","text":"a'), BAD, Buffer.from('"}]}}')]),
    ],
    "openclaw-trajectory": [trajectory("r1"), trajectory(Buffer.concat([Buffer.from("r"), BAD]))],
    "gateway-log": [tslog("embedded run start: runId=r1"), tslog(Buffer.concat([Buffer.from("embedded run start: runId=r"), BAD]))],
    codex: [Buffer.from('{"timestamp":"t","type":"session_meta","payload":{"id":"s1"}}'), Buffer.concat([Buffer.from('{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"a'), BAD, Buffer.from('"}}')])],
    openhands: [Buffer.from('{"id":"e1","source":"user","llm_message":{"role":"user","content":[]},"kind":"MessageEvent"}'), Buffer.concat([Buffer.from('{"id":"e2","source":"user","kind":"MessageEvent","x":"a'), BAD, Buffer.from('"}')])],
    "openhands-eval": [Buffer.from('{"instance_id":"a__a-1","test_result":{},"history":[]}'), Buffer.concat([Buffer.from('{"instance_id":"a__a-2","test_result":{},"history":[],"error":"a'), BAD, Buffer.from('"}')])],
    "gemini-cli": [
      Buffer.from('{"sessionId":"s1","projectHash":"p1","startTime":"2026-01-01T00:00:00.000Z","lastUpdated":"2026-01-01T00:00:00.000Z","kind":"main"}'),
      Buffer.concat([Buffer.from('{"id":"u1","timestamp":"2026-01-01T00:00:01.000Z","type":"user","content":"a'), BAD, Buffer.from('"}')]),
    ],
    "claude-code": [
      Buffer.from('{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi"}}'),
      Buffer.concat([Buffer.from('{"type":"user","uuid":"u2","parentUuid":"u1","sessionId":"s","message":{"role":"user","content":"h'), BAD, Buffer.from('"}}')]),
    ],
  };

  it("covers every adapter", () => {
    expect(Object.keys(files).sort()).toEqual(ADAPTERS.map((a) => a.format).sort());
  });

  it.each(Object.entries(files))("%s: a line with invalid UTF-8 is used and noted; one that is not JSON says why", async (format, [good, withBadBytes]) => {
    const path = tmp.write(`utf8-${format}.jsonl`, Buffer.concat([good, Buffer.from("\n"), withBadBytes, Buffer.from("\n{"), BAD, Buffer.from("}\n")]));
    const analysis = await analyzeFile(path);
    expect(analysis.files).toEqual([{ file: path, format }]);
    expect(analysis.lines).toEqual({ read: 3, used: 2, ignored: 0, skipped: 1 });
    expect(analysis.diagnostics).toEqual([
      { file: path, line: 2, reason: "invalid UTF-8 (replaced by U+FFFD)" },
      { file: path, line: 3, reason: "not valid JSON: invalid UTF-8" },
    ]);
  });

  it.each(ADAPTERS.map((a) => [a.format, a] as const))("%s: an over-long line is skipped with its size, and reading goes on", async (format, adapter) => {
    const [good] = files[format]!;
    // A source that hands over what the splitter gives for a line over the limit (32 MiB is too big to write here).
    const source: LineSource = {
      file: "big.jsonl",
      size: undefined,
      async forEachLine(handler) {
        handler(good.toString(), 1, true);
        handler(TOO_LONG_LINE, 2, true, { tooLong: 300 * 2 ** 20 });
        handler(good.toString(), 3, true);
      },
    };
    const tally = new LineTally();
    await adapter.read(source, { tally, unit: new UnitHistory([source.file], false), options: {}, emit: () => ({ used: true }) });
    expect(tally.counts.read).toBe(3);
    expect(tally.counts.skipped).toBe(1);
    expect(tally.diagnostics).toContainEqual({ file: "big.jsonl", line: 2, reason: `line too long (${300 * 2 ** 20} bytes, over the 32 MiB limit); not read (--max-line-bytes raises the limit)` });
  });
});
