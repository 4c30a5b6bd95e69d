/**
 * Random sessions written as Gemini CLI recordings and as canonical events: analysing the folder
 * of recordings must give exactly the findings (and runs) of the canonical files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzePaths, comparable } from "../../helpers/inProcess.js";
import { geminiCanonicalText, randomGeminiSessions, recordingPath, recordingText } from "./randomGemini.js";
import { tempDir } from "../../helpers/tempDir.js";

describe("Gemini CLI recordings and canonical events of the same random sessions", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: the recordings give exactly the canonical findings and runs`, async () => {
      const sessions = randomGeminiSessions(seed, 30);
      const root = tempDir(`looplens-gemini-diff-${seed}-`);
      const chats = join(root, "tmp", "proj", "chats");
      const canonical = join(root, "canonical");
      mkdirSync(canonical, { recursive: true });
      const recordings: string[] = [];
      for (const session of sessions) {
        const path = join(chats, recordingPath(session));
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, recordingText(session));
        recordings.push(path);
        writeFileSync(join(canonical, `${session.id}.jsonl`), geminiCanonicalText(session));
      }
      // Given as files: a folder scan does not pick up the legacy `.json` until it is wired (see the report).
      const fromRecordings = await analyzePaths(recordings);
      const fromEvents = await analyzePaths([canonical]);
      const expected = comparable(fromEvents);
      expect(comparable(fromRecordings)).toEqual(expected);
      expect(new Set(expected.findings.map((f) => f.split(" ")[5])).size).toBeGreaterThanOrEqual(3);
      expect(sessions.some((s) => s.legacy) && sessions.some((s) => s.subAgentOf)).toBe(true);

      const { read, used, ignored, skipped } = fromRecordings.lines;
      expect(read).toBe(used + ignored + skipped);
      expect(skipped).toBe(0);
      expect(fromRecordings.files.every((f) => f.format === "gemini-cli")).toBe(true);
    });
  }
});
