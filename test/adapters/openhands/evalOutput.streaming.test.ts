/**
 * A large evaluation output (instances of over 5 MB each, as a SWE-bench run writes them) streams:
 * it is recognised though every line is over the sampling limit, each 5 MB line is under the
 * default line limit, and each instance is replayed and its runs closed before the next line is
 * read, so nothing of one instance is held while the others are read. Behaviour only: no timing.
 */
import { closeSync, createReadStream, createWriteStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineTally, MAX_SAMPLE_LINE, UnitHistory, type AdapterContext } from "../../../src/adapters/adapter.js";
import type { LoopEvent } from "../../../src/core/events.js";
import { fileSource } from "../../../src/adapters/io/sources.js";
import type { LineSource } from "../../../src/adapters/io/lineSource.js";
import { adapterFor } from "../../../src/adapters/registry.js";
import { analyzePaths, comparable } from "../../helpers/inProcess.js";
import { evalInstance } from "./evalWriters.js";
import type { AbstractSession, Step } from "./openhandsWriters.js";

const INSTANCES = 8;
const LINE_BYTES = 5 * 2 ** 20;
/** Each of the loop's twelve results is one twelfth of the line: a test log, as agents `cat` them. */
const RESULT_TEXT = "FAILED tests/test_app.py::test_x - AssertionError\n".repeat(Math.ceil(LINE_BYTES / 12 / 50));

function session(k: number): AbstractSession {
  const step: Step = { kind: "calls", calls: [{ tool: "execute_bash", args: { command: "pytest" }, outcome: { kind: "error", text: RESULT_TEXT } }], reversedResults: false };
  return { id: `big__big-${k}`, runs: [Array.from({ length: 12 }, () => step)] };
}

let dir: string;
let path: string;
const lineLengths: number[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-oh-eval-big-"));
  path = join(dir, "output.jsonl");
  // Written line by line: the test holds one instance at a time too.
  const fd = openSync(path, "w");
  for (let k = 1; k <= INSTANCES; k++) {
    const text = JSON.stringify(evalInstance({ session: session(k) }));
    lineLengths.push(Buffer.byteLength(text));
    writeSync(fd, text + "\n");
  }
  closeSync(fd);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The source, counting the lines it has handed over (all it offers is line by line reading). */
function countingSource(source: LineSource): { source: LineSource; handed: () => number } {
  let handed = 0;
  return {
    handed: () => handed,
    source: {
      file: source.file,
      size: source.size,
      forEachLine: (handler, options) =>
        source.forEachLine((text, line, terminated, problem) => {
          handed = line;
          return handler(text, line, terminated, problem);
        }, options),
    },
  };
}

describe("a large evaluation output", () => {
  it("every line is over 5 MB (over the sampling limit, under the default line limit) and is read: one run per instance, each with its loop", async () => {
    expect(Math.min(...lineLengths)).toBeGreaterThan(LINE_BYTES);
    expect(Math.min(...lineLengths)).toBeGreaterThan(MAX_SAMPLE_LINE);
    expect(statSync(path).size).toBeGreaterThan(INSTANCES * LINE_BYTES);
    const analysis = await analyzePaths([path]);
    expect(analysis.files).toEqual([{ file: path, format: "openhands-eval" }]);
    expect(analysis.runs.map((r) => [r.run, r.calls, [...r.findings][0]?.detector])).toEqual(Array.from({ length: INSTANCES }, (_, i) => [`big__big-${i + 1}#1`, 12, "generic_repeat"]));
    expect(analysis.lines).toEqual({ read: INSTANCES, used: INSTANCES, ignored: 0, skipped: 0 });
    expect(analysis.diagnostics).toEqual([]);
  });

  it("each instance is replayed, and its run over, before the next line is read", async () => {
    const { source, handed } = countingSource(await fileSource(path));
    const choice = await adapterFor(source);
    if (!("adapter" in choice)) throw new Error(`not recognised: ${choice.unusable}`);
    expect(choice.adapter.format).toBe("openhands-eval");
    const seen: Array<{ type: string; run: string; line: number; handed: number }> = [];
    const context: AdapterContext = {
      tally: new LineTally(),
      unit: new UnitHistory([path], false),
      options: { closeRuns: true },
      emit(event) {
        const { type, run, line } = event as LoopEvent;
        seen.push({ type, run, line, handed: handed() });
        return { used: true };
      },
    };
    await choice.adapter.read(source, context);
    // Every event of line k came while line k was the last line read, the run's end included.
    expect(seen.every((e) => e.handed === e.line)).toBe(true);
    const ends = seen.filter((e) => e.type === "run_end");
    expect(ends.map((e) => [e.run, e.line])).toEqual(Array.from({ length: INSTANCES }, (_, i) => [`big__big-${i + 1}#1`, i + 1]));
    expect(seen.filter((e) => e.type === "tool_call")).toHaveLength(12 * INSTANCES);
    expect(context.tally.counts).toEqual({ read: INSTANCES, used: INSTANCES, ignored: 0, skipped: 0 });
  });

  it("its .gz form gives the same", async () => {
    const gz = join(dir, "output.jsonl.gz");
    await pipeline(createReadStream(path), createGzip({ level: 1 }), createWriteStream(gz));
    const [plain, zipped] = await Promise.all([analyzePaths([path]), analyzePaths([gz])]);
    expect(comparable(zipped)).toEqual(comparable(plain));
    expect(zipped.files).toEqual([{ file: gz, format: "openhands-eval" }]);
    expect(zipped.lines).toEqual(plain.lines);
  });
});
