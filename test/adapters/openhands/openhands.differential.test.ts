/**
 * Random sessions written as OpenHands V0 trajectories, V1 event streams, evaluation output and
 * canonical events: analysing the OpenHands files must give exactly the findings (and runs) of the
 * canonical files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzePaths, comparable } from "../../helpers/inProcess.js";
import { prng } from "../../helpers/randomSessions.js";
import { evalCanonicalText, evalOutput } from "./evalWriters.js";
import { canonicalText, v0Trajectory, v1Jsonl } from "./openhandsWriters.js";
import { randomSession } from "./randomOpenHandsSessions.js";

describe("OpenHands files and canonical events of the same random sessions", () => {
  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: V0 trajectories and V1 streams give exactly the canonical findings`, async () => {
      const random = prng(seed);
      const sessions = Array.from({ length: 20 }, (_, i) => randomSession(random, i));
      const root = mkdtempSync(join(tmpdir(), `looplens-oh-diff-${seed}-`));
      for (const dir of ["v0", "v1", "c0", "c1"]) mkdirSync(join(root, dir));
      const v0: string[] = [];
      const v1: string[] = [];
      for (const session of sessions) {
        v0.push(join(root, "v0", `${session.id}.json`));
        writeFileSync(v0.at(-1)!, v0Trajectory(session));
        v1.push(join(root, "v1", `${session.id}.jsonl`));
        writeFileSync(v1.at(-1)!, v1Jsonl(session));
        writeFileSync(join(root, "c0", `${session.id}.jsonl`), canonicalText(session, "v0"));
        writeFileSync(join(root, "c1", `${session.id}.jsonl`), canonicalText(session, "v1"));
      }
      for (const [files, canonical] of [[v0, "c0"], [v1, "c1"]] as const) {
        const fromOpenHands = await analyzePaths(files);
        const expected = comparable(await analyzePaths([join(root, canonical)]));
        expect(comparable(fromOpenHands)).toEqual(expected);
        expect(new Set(expected.findings.map((f) => f.split(" ")[5])).size).toBeGreaterThanOrEqual(3);
        const { read, used, ignored, skipped } = fromOpenHands.lines;
        expect(read).toBe(used + ignored + skipped);
        expect(skipped).toBe(0);
        expect(fromOpenHands.files.every((f) => f.format === "openhands")).toBe(true);
      }
      rmSync(root, { recursive: true, force: true });
    });
  }

  for (const seed of [22, 23]) {
    it(`seed ${seed}: an evaluation output.jsonl gives the canonical findings, one run per instance`, async () => {
      const random = prng(seed);
      const sessions = Array.from({ length: 20 }, (_, i) => randomSession(random, i));
      const root = mkdtempSync(join(tmpdir(), `looplens-oh-eval-diff-${seed}-`));
      try {
        writeFileSync(join(root, "output.jsonl"), evalOutput(sessions.map((session) => ({ session }))));
        writeFileSync(join(root, "canonical.jsonl"), evalCanonicalText(sessions));
        const fromEval = await analyzePaths([join(root, "output.jsonl")]);
        const expected = comparable(await analyzePaths([join(root, "canonical.jsonl")]));
        expect(comparable(fromEval)).toEqual(expected);
        expect(fromEval.runs.map((r) => r.run)).toEqual(sessions.map((s) => `${s.id}#1`));
        expect(new Set(expected.findings.map((f) => f.split(" ")[5])).size).toBeGreaterThanOrEqual(3);
        expect(fromEval.lines).toEqual({ read: 20, used: 20, ignored: 0, skipped: 0 });
        expect(fromEval.files).toEqual([{ file: join(root, "output.jsonl"), format: "openhands-eval" }]);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
