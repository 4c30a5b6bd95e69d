/**
 * Property tests: whatever bytes arrive, every adapter (taken from the ADAPTERS registry, so adapters
 * added later are covered too) and the core neither throw nor lose a line, and every reporter renders
 * the result without letting a control character through to a terminal.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Analysis } from "../../src/pipeline/analysis.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { createHashing } from "../../src/core/hashing.js";
import { Replayer } from "../../src/core/replay.js";
import type { LoopEvent } from "../../src/core/events.js";
import {
  applyDamage,
  badLine,
  damage,
  joinLines,
  loopingTranscript,
  openclawShapedFile,
  openclawShapedLine,
  smallConfig,
  toJsonl,
  transcript,
  type EventLine,
} from "./arbitraries.js";
import {
  ADAPTERS,
  analyzeFile,
  digest,
  findingKeys,
  lineCount,
  renderAll,
  tempDir,
  TERMINAL_UNSAFE,
  type InputAdapter,
} from "./harness.js";

const tmp = tempDir();
// Bounded so that the whole file stays within a few seconds.
const RUNS = { numRuns: 60 };

const COMPRESSION_MAGIC = [
  [0x1f, 0x8b],
  [0x28, 0xb5, 0x2f, 0xfd],
];
const looksCompressed = (data: Uint8Array) => COMPRESSION_MAGIC.some((magic) => magic.every((byte, i) => data[i] === byte));

/** The invariants every analysis must satisfy, whatever its input. */
function checkInvariants(data: Uint8Array, analysis: Analysis): void {
  const { read, used, ignored, skipped } = analysis.lines;
  expect(read).toBe(used + ignored + skipped);
  // A file that starts with gzip's or zstd's magic is read as compressed: its lines are what it
  // decompresses to, and none when it is corrupt from its start (then it is a file not read).
  if (!looksCompressed(data)) expect(read).toBe(lineCount(data));
  else if (analysis.unusable.length > 0) expect(read).toBe(0);
  expect(analysis.diagnosticsTotal).toBeGreaterThanOrEqual(analysis.diagnostics.length);
  for (const d of analysis.diagnostics) {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(Math.max(1, read));
    expect(d.reason).not.toBe("");
  }
  for (const run of analysis.runs) {
    for (const f of run.findings) {
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(f.line).toBeLessThanOrEqual(read);
      expect(f.count).toBeGreaterThanOrEqual(1);
    }
    // Call ordinals and stops are replay's; findings read from a live log (source "log") have their own.
    const replayed = [...run.findings].filter((f) => f.source === undefined);
    for (const f of replayed) {
      expect(f.call).toBeGreaterThanOrEqual(1);
      expect(f.call).toBeLessThanOrEqual(run.calls);
    }
    const stops = replayed.filter((f) => f.level !== "warning");
    if (stops.length === 0) expect(run.firstStop).toBeNull();
    else expect(run.firstStop?.call).toBe(stops[0]!.call);
  }
  // Live findings (Gateway logs) point at a line of the input; their call is unknown or positive.
  for (const f of [...analysis.liveFindings, ...[...analysis.liveRuns].flatMap((run) => run.findings)]) {
    expect(f.line).toBeGreaterThanOrEqual(1);
    expect(f.line).toBeLessThanOrEqual(read);
    if (f.call !== null) expect(f.call).toBeGreaterThanOrEqual(1);
  }
}

function checkReports(analysis: Analysis): void {
  const outputs = renderAll(analysis);
  for (const [format, text] of Object.entries(outputs)) {
    expect(TERMINAL_UNSAFE.test(text), `${format} output carries a control character`).toBe(false);
  }
  const json = JSON.parse(outputs.json!) as { summary: { lines: Analysis["lines"] } };
  expect(json.summary.lines).toEqual(analysis.lines);
  const ndjsonLines = outputs.ndjson!.split("\n").filter((l) => l !== "");
  expect(ndjsonLines.length).toBe(analysis.runs.reduce((n, run) => n + run.findings.length, 0) + analysis.liveFindings.length);
}

async function analyzeBytes(data: Uint8Array, adapter: InputAdapter | undefined, name = "input.jsonl"): Promise<Analysis> {
  const analysis = await analyzeFile(tmp.write(name, data), adapter);
  checkInvariants(data, analysis);
  return analysis;
}

const structuredLine = fc.oneof(
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v))),
  badLine,
  fc.uint8Array({ maxLength: 40 }),
  fc.record({ type: fc.constantFrom("tool_call", "tool_result", "run_start", "compaction", "session", "message"), run: fc.jsonValue() }, { requiredKeys: [] }).map((v) => Buffer.from(JSON.stringify(v))),
  openclawShapedLine,
);

// `undefined`: the format is sniffed, as without --input-format.
const targets: Array<[string, InputAdapter | undefined]> = [...ADAPTERS.map((a): [string, InputAdapter] => [a.format, a]), ["sniffed", undefined]];

describe.each(targets)("adapter %s", (_name, adapter) => {
  it("arbitrary bytes: no exception, every line accounted for", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), async (bytes) => {
        checkReports(await analyzeBytes(bytes, adapter));
      }),
      RUNS,
    );
  });

  it("arbitrary JSON values and event-shaped objects, one per line, with CRLF and BOM", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(structuredLine, { maxLength: 30 }), fc.boolean(), fc.boolean(), async (lines, crlf, bom) => {
        const body = Buffer.concat(lines.flatMap((l) => [Buffer.from(l), Buffer.from(crlf ? "\r\n" : "\n")]));
        const data = bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
        checkReports(await analyzeBytes(data, adapter));
      }),
      RUNS,
    );
  });

  it("files of the OpenClaw formats with hostile names and bad lines among them", async () => {
    await fc.assert(
      fc.asyncProperty(openclawShapedFile, smallConfig, async (lines, config) => {
        const data = joinLines(lines);
        const analysis = await analyzeFile(tmp.write("openclaw.jsonl", data), adapter, config);
        checkInvariants(data, analysis);
        checkReports(analysis);
      }),
      RUNS,
    );
  });

  it("broken transcripts (truncated, spliced, duplicated lines, injected garbage), gzipped or not", async () => {
    await fc.assert(
      fc.asyncProperty(loopingTranscript, damage, fc.boolean(), async (lines, damages, gzip) => {
        const data = applyDamage(Buffer.from(toJsonl(lines)), damages);
        if (!gzip) return checkReports(await analyzeBytes(data, adapter));
        const { gzipSync } = await import("node:zlib");
        const analysis = await analyzeFile(tmp.write("input.jsonl.gz", gzipSync(data)), adapter);
        checkInvariants(data, analysis);
      }),
      RUNS,
    );
  });
});

describe("canonical events: bad lines change nothing but the counts", () => {
  /** Inserts each bad line before the line at its position, and maps clean line numbers to dirty ones. */
  function interleave(clean: Buffer[], bad: Array<[number, Uint8Array]>): { data: Buffer; lineMap: (line: number) => number } {
    const before = new Map<number, Uint8Array[]>();
    for (const [at, line] of bad) {
      const pos = clean.length === 0 ? 0 : at % (clean.length + 1);
      before.set(pos, [...(before.get(pos) ?? []), line]);
    }
    const out: Uint8Array[] = [];
    const dirtyLineOf: number[] = [];
    clean.forEach((line, i) => {
      out.push(...(before.get(i) ?? []));
      out.push(line);
      dirtyLineOf[i + 1] = out.length;
    });
    out.push(...(before.get(clean.length) ?? []));
    return { data: joinLines(out), lineMap: (line) => dirtyLineOf[line]! };
  }

  it("analysing a transcript with bad lines gives exactly the findings of the transcript without them", async () => {
    const events = ADAPTERS.find((a) => a.format === "events")!;
    await fc.assert(
      fc.asyncProperty(loopingTranscript, fc.array(fc.tuple(fc.nat(), badLine), { maxLength: 6 }), async (lines, bad) => {
        const clean = lines.map((l) => Buffer.from(JSON.stringify(l)));
        const { data, lineMap } = interleave(clean, bad);
        const before = await analyzeBytes(joinLines(clean), events);
        const after = await analyzeBytes(data, events);
        expect(findingKeys(after)).toEqual(findingKeys(before, lineMap));
        expect(after.runs.map((r) => [r.run, r.calls, r.compactions])).toEqual(before.runs.map((r) => [r.run, r.calls, r.compactions]));
        expect(after.lines).toEqual({ ...before.lines, read: before.lines.read + bad.length, skipped: before.lines.skipped + bad.length });
      }),
      RUNS,
    );
  });

  it("CRLF line ends, a BOM and a missing final newline change nothing", async () => {
    const events = ADAPTERS.find((a) => a.format === "events")!;
    await fc.assert(
      fc.asyncProperty(loopingTranscript.filter((l) => l.length > 0), async (lines) => {
        const lf = await analyzeBytes(Buffer.from(toJsonl(lines)), events);
        const crlf = await analyzeBytes(Buffer.from(`\uFEFF${toJsonl(lines, "\r\n").slice(0, -2)}`), events);
        expect(findingKeys(crlf)).toEqual(findingKeys(lf));
        expect(crlf.lines).toEqual(lf.lines);
      }),
      RUNS,
    );
  });

  it("a transcript cut anywhere reads as its complete lines, plus a skipped partial line", async () => {
    const events = ADAPTERS.find((a) => a.format === "events")!;
    await fc.assert(
      fc.asyncProperty(loopingTranscript.filter((l) => l.length > 0), fc.nat(), async (lines, cut) => {
        const full = Buffer.from(toJsonl(lines));
        const at = cut % full.length;
        const complete = full.subarray(0, full.lastIndexOf(10, at - 1) + 1);
        const partial = full.subarray(complete.length, at);
        if (partial.length === 0 || partial.toString().trim() === "") return;
        const truncated = await analyzeBytes(full.subarray(0, at), events);
        const whole = await analyzeBytes(complete, events);
        let partialIsJson = true;
        try {
          JSON.parse(partial.toString());
        } catch {
          partialIsJson = false;
        }
        if (partialIsJson) return; // cut just before the newline: the line is whole
        expect(findingKeys(truncated)).toEqual(findingKeys(whole));
        expect(truncated.lines.skipped).toBe(whole.lines.skipped + 1);
        expect(truncated.diagnostics.at(-1)?.reason).toMatch(/truncated/);
      }),
      RUNS,
    );
  });
});

describe("the core (preparation and replay), fed events directly", () => {
  const anyEvent: fc.Arbitrary<LoopEvent> = fc
    .record({
      type: fc.constantFrom("tool_call", "tool_result", "run_start", "run_end", "compaction"),
      run: fc.oneof(fc.constantFrom("r1", "__proto__", "constructor"), fc.string({ maxLength: 4 })),
      session: fc.option(fc.constantFrom("s", "__proto__", "hasOwnProperty"), { nil: undefined }),
      agent: fc.option(fc.string({ maxLength: 3 }), { nil: undefined }),
      id: fc.option(fc.constantFrom("c1", "c2", "toString"), { nil: undefined }),
      tool: fc.constantFrom("exec", "process", "command_status", "__proto__", "valueOf", "message", "update_plan"),
      args: fc.oneof(fc.anything(), fc.constantFrom({ action: "poll" }, { action: "log" }, { plan: 3 })),
      result: fc.anything(),
      error: fc.option(fc.anything(), { nil: undefined }),
    })
    .map((e) => ({ ...e, file: "f", line: 1 }) as unknown as LoopEvent);

  it("never throws, whatever the events and the config", async () => {
    const hashing = createHashing(await digest());
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 60 }), smallConfig, (events, config) => {
        const preparer = new EventPreparer(hashing);
        const replayer = new Replayer(() => config);
        for (const event of events) {
          const disposition = preparer.prepare(event);
          if (disposition.used) replayer.push(disposition.prepared);
        }
        const runs = replayer.finish();
        for (const run of runs) for (const f of run.findings) expect(f.call).toBeLessThanOrEqual(run.calls);
      }),
      { numRuns: 150 },
    );
  });

  it("small thresholds over random transcripts: every reporter renders every kind of finding safely", async () => {
    const events = ADAPTERS.find((a) => a.format === "events")!;
    await fc.assert(
      fc.asyncProperty(transcript, smallConfig, async (lines: EventLine[], config) => {
        const data = Buffer.from(toJsonl(lines));
        const analysis = await analyzeFile(tmp.write("t.jsonl", data), events, config);
        checkInvariants(data, analysis);
        checkReports(analysis);
      }),
      RUNS,
    );
  });
});
