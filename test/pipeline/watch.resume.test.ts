/**
 * A watched file that only grew goes on from where the follower's last analysis stopped
 * (followedPoint.ts, unitFollower.ts): over random append histories of canonical event files (cut in
 * the middle of lines, of runs, between a call and its result), every analysis equals a full one of
 * the file's complete lines, the findings yielded over the file's life are `analyze`'s on the final
 * file, and each growth is checked to have resumed. A truncation, a rewrite of the first bytes, and a
 * truncation followed by other bytes between two looks (which the lineage cannot see) read in full.
 */
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { createConfigResolver } from "../../src/pipeline/configResolution.js";
import type { ReplayedFinding, ReplayedRun } from "../../src/core/findings.js";
import { analyzeFile } from "../../src/pipeline/analysis.js";
import { resumedUnits } from "../../src/pipeline/cache/resumeUnit.js";
import { FileLineages } from "../../src/pipeline/watch/fileLineage.js";
import { FindingLedger } from "../../src/pipeline/watch/findingLedger.js";
import { UnitFollower, type RunDigest } from "../../src/pipeline/watch/unitFollower.js";
import { eventLines } from "../helpers/eventLines.js";
import { prng } from "../helpers/randomSessions.js";
import { tempDir } from "../helpers/tempDir.js";

async function followerOf(file: string) {
  const resolver = await createConfigResolver({});
  const digest = await loadXxhashDigest();
  const configFor = (agent: string | null) => resolver.effectiveFor(agent).config;
  const follower = new UnitFollower([file], { digest, configFor, options: {}, ledger: new FindingLedger(), lineages: new FileLineages() });
  /** The findings yielded since the file's last rewrite (a rewrite's earlier findings stand, its new content's are new). */
  let yielded: ReplayedFinding[] = [];
  /** Analyses the file as it is now; `resumes`: whether it must have gone on from the last point. */
  const analyse = async (why: string, resumes: boolean) => {
    const before = resumedUnits();
    const news = await follower.analyse(true);
    expect(news.unreadable, why).toBeUndefined();
    if (news.lineageChanges.some((change) => change.kind === "rewritten")) yielded = [];
    yielded.push(...news.findings);
    expect(resumedUnits() - before, `${why}: resumed`).toBe(resumes ? 1 : 0);
    // The analysis is a full one's of the file's complete lines, run for run.
    const full = await analyzeFile(file, digest, configFor, { completeLines: true });
    expect({ runs: follower.runCount, withFindings: follower.runsWithFindings }, why).toEqual({ runs: full.runs.length, withFindings: full.runs.filter((run) => run.findings.length > 0).map(digestOf) });
  };
  /** The findings yielded are `analyze`'s on the file (ended with its newline). */
  const expectAnalyzes = async (why: string) => {
    const final = await analyzeFile(file, digest, configFor, {});
    expect(yielded.map(described).sort(), why).toEqual(final.runs.flatMap((run) => Array.from(run.findings, described)).sort());
  };
  return { analyse, expectAnalyzes };
}

const described = (finding: ReplayedFinding) => JSON.stringify(finding);

function digestOf(run: ReplayedRun): RunDigest {
  return { run: run.run, agent: run.agent, session: run.session, file: run.file, calls: run.calls, findings: Array.from(run.findings, ({ level, call }) => ({ level, call })) };
}

describe("watch resumes a grown file from its last analysis", () => {
  it("random appends cut anywhere: resumed every time, the output analyze's", async () => {
    for (let seed = 1; seed <= 3; seed++) {
      const random = prng(seed * 7);
      const file = join(tempDir("looplens-watchres-"), "events.jsonl");
      const text = eventLines(seed).join("\n") + "\n";
      // The first write holds a few complete lines (an analysis that read none keeps no point).
      let at = text.indexOf("\n", text.indexOf("\n") + 1) + 1 + Math.floor(random() * 400);
      writeFileSync(file, text.slice(0, at));
      const { analyse, expectAnalyzes } = await followerOf(file);
      await analyse(`seed ${seed}: first ${at} bytes`, false);
      while (at < text.length) {
        // Mostly small appends (a line or part of one), some large ones.
        const size = random() < 0.8 ? 1 + Math.floor(random() * 300) : Math.floor(random() * 20_000);
        const next = Math.min(text.length, at + size);
        appendFileSync(file, text.slice(at, next));
        await analyse(`seed ${seed}: bytes ${at}-${next} appended`, true);
        at = next;
      }
      await expectAnalyzes(`seed ${seed}`);
    }
  });

  it("a truncation, a rewrite, and other bytes put in past the first 4 KB are read in full, and resumed after", async () => {
    const random = prng(5);
    const file = join(tempDir("looplens-watchres-"), "events.jsonl");
    const text = eventLines(5).join("\n") + "\n";
    // Other sessions' lines (a run's events after its run end would make any resume a full read: canonicalEvents.ts).
    const other = eventLines(6).join("\n") + "\n";
    const third = eventLines(7).join("\n") + "\n";
    const lineEnd = (from: number) => text.indexOf("\n", from) + 1;
    writeFileSync(file, text.slice(0, lineEnd(20_000) + 17));
    const { analyse, expectAnalyzes } = await followerOf(file);
    await analyse("first part", false);
    appendFileSync(file, text.slice(lineEnd(20_000) + 17, 30_000));
    await analyse("grown", true);
    // Truncated in the middle of a line: the lineage's new generation, read in full.
    truncateSync(file, 12_345);
    await analyse("truncated", false);
    appendFileSync(file, text.slice(12_345, 25_000));
    await analyse("grown after the truncation", true);
    // Truncated and grown again with other bytes between two looks: the lineage sees growth with the
    // same first 4 KB; the bytes before the point's end tell.
    truncateSync(file, lineEnd(10_000));
    appendFileSync(file, other.slice(0, 20_000));
    await analyse("truncated and grown with other bytes", false);
    appendFileSync(file, other.slice(20_000, 22_000 + Math.floor(random() * 1000)));
    await analyse("grown after that", true);
    // The first bytes rewritten, the file longer: a new generation, read in full.
    const now = readFileSync(file, "utf8");
    writeFileSync(file, now.replace('"tool_call"', '"tool_call" ') + third.slice(0, 1000));
    await analyse("rewritten", false);
    appendFileSync(file, third.slice(1000, 20_000));
    await analyse("grown after the rewrite", true);
    appendFileSync(file, "\n");
    await expectAnalyzes("after the rewrite");
  });
});
