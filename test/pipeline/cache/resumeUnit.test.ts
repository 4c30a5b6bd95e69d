/**
 * A grown file resumes from the point its entry kept (resumeUnit.ts, resumeEntry.ts), and the output
 * is the one without the cache, in every format: over random histories of appends to canonical event
 * files (cut anywhere: in the middle of runs, between a call and its result, after run ends taken as
 * final, across compactions), with edits that must not resume (a rewritten prefix, a config change,
 * a line left cut off, an event of a run ended as final: a ReadAgain), each checked to resume or not.
 */
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resumedUnits } from "../../../src/pipeline/cache/resumeUnit.js";
import { prng } from "../../helpers/randomSessions.js";
import { eventLines } from "../../helpers/eventLines.js";
import { tempDir } from "../../helpers/tempDir.js";
import { expectSameEveryFormat } from "./cacheBench.js";

/** Points are kept for files of any size here (the default keeps them from 1 MiB). */
const ENV = { LOOPLENS_CACHE_RESUME_MIN_BYTES: "0" };

async function expectSame(file: string, cacheDir: string, why: string, resumes: boolean, config?: string): Promise<void> {
  const before = resumedUnits();
  await expectSameEveryFormat([file, ...(config ? ["--config", config] : [])], cacheDir, why, ENV);
  expect(resumedUnits() > before, `${why}: resumed`).toBe(resumes);
}

describe("a grown file resumed from its entry's point", () => {
  it("gives the output without the cache, every format, over random appends", async () => {
    const random = prng(38);
    for (let seed = 1; seed <= 2; seed++) {
      const dir = tempDir("looplens-resume-");
      const cacheDir = join(dir, "cache");
      const file = join(dir, "events.jsonl");
      const lines = eventLines(seed);
      let at = 1 + Math.floor(random() * 10);
      writeFileSync(file, lines.slice(0, at).join("\n") + "\n");
      await expectSame(file, cacheDir, `seed ${seed}: first ${at} lines`, false);
      while (at < lines.length) {
        const next = Math.min(lines.length, at + 1 + Math.floor(random() * 120));
        appendFileSync(file, lines.slice(at, next).join("\n") + "\n");
        await expectSame(file, cacheDir, `seed ${seed}: lines ${at + 1}-${next} appended`, true);
        at = next;
      }
    }
  });

  it("does not resume what did not only grow, and is still right", async () => {
    const dir = tempDir("looplens-resume-");
    const cacheDir = join(dir, "cache");
    const file = join(dir, "events.jsonl");
    const lines = eventLines(5);
    writeFileSync(file, lines.slice(0, 40).join("\n") + "\n");
    await expectSame(file, cacheDir, "first 40 lines", false);
    // A byte of the old part rewritten, then lines appended: the prefix hash tells.
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace('"tool_call"', '"tool_call" ') + lines.slice(40, 50).join("\n") + "\n");
    await expectSame(file, cacheDir, "prefix rewritten and grown", false);
    appendFileSync(file, lines.slice(50, 60).join("\n") + "\n");
    await expectSame(file, cacheDir, "grown again after the rewrite", true);
    // Another config: the entry's configs do not hold.
    const config = join(dir, "looplens.json");
    writeFileSync(config, JSON.stringify({ warningThreshold: 3, criticalThreshold: 5 }));
    appendFileSync(file, lines.slice(60, 70).join("\n") + "\n");
    await expectSame(file, cacheDir, "grown under another config", false, config);
    // A line left cut off keeps no point; the completed line is read in full.
    appendFileSync(file, lines[70]!.slice(0, 20));
    await expectSame(file, cacheDir, "a cut-off last line", false);
    appendFileSync(file, lines[70]!.slice(20) + "\n" + lines.slice(71, 80).join("\n") + "\n");
    await expectSame(file, cacheDir, "the cut-off line completed", false);
    // Truncated then grown past its old size: not the same prefix.
    const size = readFileSync(file).length;
    truncateSync(file, size - 30);
    appendFileSync(file, "\n" + lines.slice(80, 90).join("\n") + "\n");
    await expectSame(file, cacheDir, "truncated and grown", false);
  });

  it("reads the file in full when the appended lines go on with a run ended as final (ReadAgain)", async () => {
    const dir = tempDir("looplens-resume-");
    const cacheDir = join(dir, "cache");
    const file = join(dir, "events.jsonl");
    const call = (id: string) => JSON.stringify({ type: "tool_call", run: "r1", id, tool: "read", args: { path: "a" } });
    const result = (id: string) => JSON.stringify({ type: "tool_result", run: "r1", id, tool: "read", result: "same" });
    writeFileSync(file, [call("c1"), result("c1"), JSON.stringify({ type: "run_end", run: "r1" })].join("\n") + "\n");
    await expectSame(file, cacheDir, "a run ended", false);
    const more: string[] = [];
    for (let i = 2; i < 12; i++) more.push(call(`c${i}`), result(`c${i}`));
    appendFileSync(file, more.join("\n") + "\n");
    await expectSame(file, cacheDir, "the ended run goes on", false);
  });

  it("reads the file in full when the appended lines change what its first lines decided (its format, whether events name runs)", async () => {
    const dir = tempDir("looplens-resume-");
    const cacheDir = join(dir, "cache");
    const noRuns = join(dir, "no-runs.jsonl");
    const pair = (run: string | undefined, id: string) => [
      JSON.stringify({ type: "tool_call", ...(run && { run }), id, tool: "read", args: { path: "a" } }),
      JSON.stringify({ type: "tool_result", ...(run && { run }), id, tool: "read", result: "same" }),
    ];
    // Events without run ids are one run, the file's, unless one of the first 1,000 lines names a run.
    writeFileSync(noRuns, [...pair(undefined, "c1"), ...pair(undefined, "c2")].join("\n") + "\n");
    await expectSame(noRuns, cacheDir, "events without run ids", false);
    const named: string[] = [];
    for (let i = 3; i < 15; i++) named.push(...pair("r1", `c${i}`));
    appendFileSync(noRuns, named.join("\n") + "\n");
    await expectSame(noRuns, cacheDir, "a run id among the first lines", false);
    // The format is sniffed from the first few lines: an appended session entry among them makes it a transcript.
    const sniffed = join(dir, "sniffed.jsonl");
    writeFileSync(sniffed, pair("r1", "c1").join("\n") + "\n");
    await expectSame(sniffed, cacheDir, "two canonical lines", false);
    appendFileSync(sniffed, JSON.stringify({ type: "message", id: "m1", parentId: null, message: { role: "user", content: "hi" } }) + "\n" + named.join("\n") + "\n");
    await expectSame(sniffed, cacheDir, "a session entry among the first lines", false);
  });
});
