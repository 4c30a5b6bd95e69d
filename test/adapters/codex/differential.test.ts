/**
 * Random Codex sessions written as rollouts and as canonical events: analysing the folder of
 * rollouts must give exactly the findings (and runs) of the canonical files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzePaths, comparable } from "../../helpers/inProcess.js";
import { randomRollouts, rolloutCanonicalText, rolloutText } from "./randomRollouts.js";
import { tempDir } from "../../helpers/tempDir.js";

describe("Codex rollouts and canonical events of the same random sessions", () => {
  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: the rollouts folder gives exactly the canonical findings`, async () => {
      const sessions = randomRollouts(seed, 30);
      const root = tempDir(`looplens-codex-diff-${seed}-`);
      const rollouts = join(root, "sessions", "2026", "01", "02");
      const canonical = join(root, "canonical");
      mkdirSync(rollouts, { recursive: true });
      mkdirSync(canonical);
      for (const session of sessions) {
        writeFileSync(join(rollouts, `rollout-2026-01-02T03-04-05-${session.id}.jsonl`), rolloutText(session));
        writeFileSync(join(canonical, `${session.id}.jsonl`), rolloutCanonicalText(session));
      }
      const fromRollouts = await analyzePaths([rollouts]);
      const fromEvents = await analyzePaths([canonical]);
      const expected = comparable(fromEvents);
      expect(comparable(fromRollouts)).toEqual(expected);
      // Worth comparing: loops of several kinds were found, in both styles and in sub-agents.
      expect(new Set(expected.findings.map((f) => f.split(" ")[5])).size).toBeGreaterThanOrEqual(3);
      expect(expected.runs.some((r) => r.includes(" codex/"))).toBe(true);
      const { read, used, ignored, skipped } = fromRollouts.lines;
      expect(read).toBe(used + ignored + skipped);
      expect(skipped).toBe(0);
      expect(fromEvents.lines.skipped).toBe(0);
    });
  }
});
