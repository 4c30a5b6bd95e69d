/**
 * Random sessions written as OpenClaw transcripts and as canonical events: analysing the folder of
 * transcripts must give exactly the findings (and runs) of the canonical files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzePaths, comparable } from "../../helpers/inProcess.js";
import { canonicalText, randomSessions, transcriptText, transcriptTrajectoryText } from "../../helpers/randomSessions.js";
import { tempDir } from "../../helpers/tempDir.js";

describe("transcripts and canonical events of the same random sessions", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: the transcripts folder gives exactly the canonical findings`, async () => {
      const sessions = randomSessions(seed, 25);
      const root = tempDir(`looplens-diff-${seed}-`);
      const transcripts = join(root, "state");
      const canonical = join(root, "canonical");
      const activeBranch = join(root, "canonical-active-branch");
      const bundles = join(root, "trajectory-exports");
      mkdirSync(canonical);
      mkdirSync(activeBranch);
      for (const session of sessions) {
        const dir = join(transcripts, "agents", session.agent, "sessions");
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${session.id}.jsonl`), transcriptText(session));
        writeFileSync(join(canonical, `${session.id}.jsonl`), canonicalText(session));
        writeFileSync(join(activeBranch, `${session.id}.jsonl`), canonicalText(session, "active-branch"));
        const bundle = join(bundles, `openclaw-trajectory-${session.id}`);
        mkdirSync(bundle, { recursive: true });
        writeFileSync(join(bundle, "events.jsonl"), transcriptTrajectoryText(session));
      }
      const fromTranscripts = await analyzePaths([transcripts]);
      const fromEvents = await analyzePaths([canonical]);
      const expected = comparable(fromEvents);
      expect(comparable(fromTranscripts)).toEqual(expected);
      // The scenarios are worth comparing: loops of several kinds were found.
      expect(new Set(expected.findings.map((f) => f.split(" ")[5])).size).toBeGreaterThanOrEqual(4);

      // Every transcript line is accounted for; only the cut-off last lines are bad.
      const { read, used, ignored, skipped } = fromTranscripts.lines;
      expect(read).toBe(used + ignored + skipped);
      expect(skipped).toBe(sessions.filter((s) => s.cutLastLine).length);
      expect(fromEvents.lines.skipped).toBe(0);

      // --active-branch replays what the model's context held: the abandoned branches are left out.
      const expectedActive = comparable(await analyzePaths([activeBranch]));
      expect(comparable(await analyzePaths([transcripts], { activeBranch: true }))).toEqual(expectedActive);
      expect(expectedActive).not.toEqual(expected); // some session has an abandoned branch with calls

      // Bundles exported without runtime capture hold only the transcript events of the active
      // branch (no runIds, the agent from the session key): they replay to the same findings.
      const fromBundles = await analyzePaths([bundles]);
      expect(comparable(fromBundles)).toEqual(expectedActive);
      expect(fromBundles.lines.skipped).toBe(0);
    });
  }
});
