/**
 * Random sessions written as Claude Code transcripts and as canonical events: analysing the folder
 * of transcripts must give exactly the findings and runs of the canonical files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzePaths, comparable } from "../../helpers/inProcess.js";
import { claudeCanonicalText, claudeTranscriptText, randomClaudeSessions } from "./randomClaudeSessions.js";
import { tempDir } from "../../helpers/tempDir.js";

describe("Claude Code transcripts and canonical events of the same random sessions", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: the transcripts give exactly the canonical findings and runs`, async () => {
      const sessions = randomClaudeSessions(seed, 25);
      const root = tempDir(`looplens-cc-diff-${seed}-`);
      const projects = join(root, "projects", "-home-dev-proj");
      const canonical = join(root, "canonical");
      mkdirSync(projects, { recursive: true });
      mkdirSync(canonical);
      for (const session of sessions) {
        writeFileSync(join(projects, `${session.id}.jsonl`), claudeTranscriptText(session));
        writeFileSync(join(canonical, `${session.id}.jsonl`), claudeCanonicalText(session));
      }
      const fromTranscripts = await analyzePaths([join(root, "projects")]);
      const fromEvents = await analyzePaths([canonical]);
      const expected = comparable(fromEvents);
      expect(comparable(fromTranscripts)).toEqual(expected);
      // Worth comparing: loops of several kinds were found, and every run was counted.
      expect(new Set(expected.findings.map((f) => f.split(" ")[5])).size).toBeGreaterThanOrEqual(3);
      expect(expected.runs.length).toBe(sessions.reduce((sum, s) => sum + s.runs.length, 0));
      const { read, used, ignored, skipped } = fromTranscripts.lines;
      expect(read).toBe(used + ignored + skipped);
      expect(skipped).toBe(0);
      expect(fromEvents.lines.skipped).toBe(0);
    });
  }
});
