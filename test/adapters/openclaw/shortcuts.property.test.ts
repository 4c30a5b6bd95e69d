/**
 * Analysis takes shortcuts the `looplens events` path does not: session transcripts' first pass read
 * from line bytes (checked by the second pass), lines parsed as latin1 with byte-string arguments
 * and results, runs closed when the next one starts. On damaged transcripts — lines cut and run
 * together, keys given twice, non-ASCII escapes, invalid UTF-8, garbage — the analysis must be
 * exactly the one without any shortcut. An equal analysis proves nothing if the shortcuts were not
 * taken, so every source the pipeline opens is watched (`passes`): which passes read each file,
 * as bytes or as text, and how often the file was read again.
 */
import { describe, expect, it, vi } from "vitest";
import { analyzeFile } from "../../../src/pipeline/analysis.js";
import { resolveConfig } from "../../../src/core/config.js";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { analyzePaths, comparable, writeSessionFile } from "../../helpers/inProcess.js";
import { prng, randomSessions, transcriptText } from "../../helpers/randomSessions.js";

/**
 * Per file, its passes in order: "bytes" (forEachRawLine) or "text" (forEachLine), and the byte
 * searches (mayContain) that let a first pass be skipped: "found" or "absent".
 */
type Pass = "bytes" | "text" | "found" | "absent";
const passes = vi.hoisted(() => new Map<string, Pass[]>());

vi.mock("../../../src/adapters/discovery.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../../src/adapters/discovery.js")>();
  return {
    ...actual,
    openSource: async (path: string) => {
      const source = await actual.openSource(path);
      const log = (kind: Pass) => passes.set(source.file, [...(passes.get(source.file) ?? []), kind]);
      const text = source.forEachLine.bind(source);
      source.forEachLine = (handler, options) => (log("text"), text(handler, options));
      const raw = source.forEachRawLine?.bind(source);
      if (raw) source.forEachRawLine = (handler, options) => (log("bytes"), raw(handler, options));
      const search = source.mayContain?.bind(source);
      if (search) {
        source.mayContain = async (needles) => {
          const found = await search(needles);
          log(found ? "found" : "absent");
          return found;
        };
      }
      return source;
    },
  };
});

/** The passes that `run` made over `path`. */
async function passesOf<T>(path: string, run: () => Promise<T>): Promise<{ result: T; passes: Pass[] }> {
  passes.delete(path);
  const result = await run();
  return { result, passes: passes.get(path) ?? [] };
}

/**
 * The passes of a session transcript. Each reading starts with the sniff's look at its first lines
 * (as text). With every shortcut, a byte search tells whether the file names runs: only then is
 * there a first pass (from bytes); the pass over a last file (when it is large enough) and the
 * replay read bytes too. A failed check reads the file again with its first pass as text and no
 * search (the replay still from bytes). The long way reads text only.
 */
const SNIFF = "text";
function shortcutReadings(lastFilePass: boolean): Pass[][] {
  const firstReadings: Pass[][] = [["found", "bytes"], ["absent"]].map((scan) => [SNIFF, ...(scan as Pass[]), ...(lastFilePass ? ["bytes" as const] : []), "bytes"]);
  return [...firstReadings, ...firstReadings.map((first) => [...first, ...READ_AGAIN_PASSES])];
}
const READ_AGAIN_PASSES: Pass[] = [SNIFF, "text", "bytes"];
const LONG_WAY_PASSES: Pass[] = [SNIFF, "text", "text"];

type Damage = (line: string, next: string | undefined, random: () => number) => Buffer[];

const DAMAGES: Damage[] = [
  // A line cut by a crash and continued by the next write.
  (line, next) => (next === undefined ? [Buffer.from(line)] : [Buffer.from(line.slice(0, Math.max(1, Math.floor(line.length / 2))) + next)]),
  // A key given again at the end (JSON.parse keeps the last one).
  (line, _next, random) => [Buffer.from(line.replace(/}$/, random() < 0.5 ? ',"parentId":null}' : ',"type":"label"}'))],
  // Non-ASCII written as escapes, and a raw one: the line is parsed as text, its neighbours not.
  (line) => [Buffer.from(line.replace(/"text":"/g, '"text":"\\u00e9\\ud83d\\ude80é'))],
  // Bytes that are not UTF-8 inside a string.
  (line) => {
    const at = line.indexOf('"text":"');
    return at < 0 ? [Buffer.from(line)] : [Buffer.concat([Buffer.from(line.slice(0, at + 8)), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(line.slice(at + 8))])];
  },
  // Garbage next to the line.
  (line) => [Buffer.from(line), Buffer.from('{"type":"message","id":"zz","parentId":"nowhere"'), Buffer.from("\u00a0")],
];

/**
 * A rewrite appending an earlier message again under a new entry id: a copy (not replayed again),
 * or, with its call ids changed, a new message that repeats an earlier one's timestamp.
 */
function rewritten(earlier: string, n: number, random: () => number): Buffer {
  const copy = earlier.replace(/"id":"[^"]*"/, `"id":"rw${n}"`);
  return Buffer.from(random() < 0.3 ? copy.replace(/"call_/g, '"recall_') : copy);
}

/**
 * A result naming an unknown tool that no pending call answers: with a fresh id it is a rebuilt call,
 * with the id of an earlier call it is not. Its `isError` is sometimes written with a space, which a
 * pass over the bytes does not read (the replay must then have the file read again).
 */
function unknownToolResult(earlierCallId: string | undefined, n: number, random: () => number): Buffer {
  const id = earlierCallId !== undefined && random() < 0.5 ? earlierCallId : `orphan_${n}`;
  const message = { role: "toolResult", toolCallId: id, toolName: "browser", content: [{ type: "text", text: "Unknown tool: browser" }], isError: true, timestamp: 1777626000000 + n };
  const line = JSON.stringify({ type: "message", id: `un${n}`, parentId: null, timestamp: "2026-05-01T09:00:00.000Z", message });
  return Buffer.from(random() < 0.2 ? line.replace('"isError":true', '"isError": true') : line);
}

function damaged(text: string, seed: number): Buffer {
  const random = prng(seed);
  const lines = text.split("\n").filter((line) => line !== "");
  const out: Buffer[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && random() < 0.06) {
      const earlier = lines[Math.floor(random() * i)]!;
      if (earlier.startsWith('{"type":"message"')) out.push(rewritten(earlier, i, random));
    }
    if (i > 0 && random() < 0.03) out.push(unknownToolResult(/"id":"(call_\d+)"/.exec(lines[Math.floor(random() * i)]!)?.[1], i, random));
    if (random() < 0.06) {
      const damage = DAMAGES[Math.floor(random() * DAMAGES.length)]!;
      out.push(...damage(lines[i]!, lines[i + 1], random));
      if (damage === DAMAGES[0]) i++;
    } else out.push(Buffer.from(lines[i]!));
  }
  return Buffer.concat(out.flatMap((line) => [line, Buffer.from("\n")]));
}

describe("analysis shortcuts", () => {
  it("give exactly the analysis without them on damaged transcripts", async () => {
    const config = resolveConfig([{ origin: "test", source: "looplens", values: { enabled: true, warningThreshold: 3, criticalThreshold: 5 } }]).config;
    const digest = await loadXxhashDigest();
    let files = 0;
    let copies = 0;
    let rebuilt = 0;
    let readAgain = 0;
    for (const [i, session] of randomSessions(7, 40).entries()) {
      const path = writeSessionFile(damaged(transcriptText(session), i + 1), `${session.id}.jsonl`, session.agent);
      const slow = await passesOf(path, () => analyzeFile(path, digest, () => config, { canReadAgain: false, bytePayloads: false, closeRuns: false }));
      expect(slow.passes, session.id).toEqual(LONG_WAY_PASSES);
      // With and without the pass over a last file (lastFilePass.ts), which only large files get.
      for (const lastFilePassBytes of [undefined, 0]) {
        const fast = await passesOf(path, () => analyzeFile(path, digest, () => config, { lastFilePassBytes }));
        expect(fast.result, `${session.id}, times pass from ${lastFilePassBytes}`).toEqual(slow.result);
        expect(shortcutReadings(lastFilePassBytes === 0), session.id).toContainEqual(fast.passes);
        if (fast.passes.filter((pass) => pass === SNIFF).length > 1) readAgain++;
      }
      if (slow.result.runs.some((run) => run.findings.length > 0)) files++;
      copies += slow.result.transcript.copies;
      rebuilt += slow.result.transcript.reconstructedCalls;
    }
    // Most files keep to the shortcuts; some damage fails their checks and is read the long way.
    expect(readAgain).toBeGreaterThan(0);
    expect(readAgain).toBeLessThan(40);
    expect(files).toBeGreaterThan(5); // the comparison saw findings, not only empty reports
    expect(copies).toBeGreaterThan(20); // and rewritten copies
    expect(rebuilt).toBeGreaterThan(5); // and calls rebuilt from results naming an unknown tool
  });

  it("give exactly the analysis without them when a session's live file repeats messages of its archive", async () => {
    let copies = 0;
    for (const [i, session] of randomSessions(11, 12).entries()) {
      const archiveLines = transcriptText(session).split("\n").filter((line) => line !== "");
      const random = prng(100 + i);
      // The live file goes on from the archive, then a rewrite copies messages of both.
      const live = transcriptText(randomSessions(200 + i, 1)[0]!).split("\n").filter((line) => line !== "");
      const messages = [...archiveLines, ...live].filter((line) => line.startsWith('{"type":"message"'));
      const rewrites = Array.from({ length: 6 }, (_, k) => rewritten(messages[Math.floor(random() * messages.length)]!, k, random).toString());
      const archive = writeSessionFile(`${archiveLines.join("\n")}\n`, `${session.id}.jsonl.reset.2026-05-01T10-00-00.000Z`, session.agent);
      writeFileSync(join(dirname(archive), `${session.id}.jsonl`), `${[...live, ...rewrites].join("\n")}\n`);
      const slow = await analyzePaths([dirname(archive)], { canReadAgain: false, bytePayloads: false, closeRuns: false });
      const fast = await analyzePaths([dirname(archive)], { lastFilePassBytes: 0 });
      expect(comparable(fast), session.id).toEqual(comparable(slow));
      expect([fast.lines, fast.transcript], session.id).toEqual([slow.lines, slow.transcript]);
      copies += slow.transcript.copies;
    }
    expect(copies).toBeGreaterThan(20);
  });

  it("read a file again when a result naming an unknown tool was written in a way the pass does not read", async () => {
    const lines = transcriptText(randomSessions(3, 1)[0]!).split("\n").filter((line) => line !== "");
    const callId = lines.map((line) => /"id":"(call_\d+)"/.exec(line)?.[1]).find((id) => id !== undefined)!;
    const random = () => 0.1; // the earlier call's id, and `"isError": true` with a space
    const path = writeSessionFile(`${[...lines, unknownToolResult(callId, 1, random).toString()].join("\n")}\n`, "s-unknown.jsonl");
    expect(readFileSync(path, "utf8")).toContain('"isError": true');
    const slow = await analyzeFile(path, await loadXxhashDigest(), () => resolveConfig([]).config, { canReadAgain: false, bytePayloads: false, closeRuns: false });
    const digest = await loadXxhashDigest();
    const fast = await passesOf(path, () => analyzeFile(path, digest, () => resolveConfig([]).config, { lastFilePassBytes: 0 }));
    expect(slow.transcript.reconstructedCalls).toBe(0); // the call was there: not a rebuilt one
    expect(fast.result).toEqual(slow);
    expect(fast.passes).toEqual([SNIFF, "found", "bytes", "bytes", "bytes", ...READ_AGAIN_PASSES]);
  });
});
