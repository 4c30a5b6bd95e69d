/**
 * The CI formats read runs spilled to disk (pipeline/runSpill.ts) back as they come — junit twice,
 * once to count and once to write — and print what they print holding every run.
 */
import { describe, expect, it } from "vitest";
import { runMain } from "../helpers/cli.js";

/** Every run and its findings kept on disk, as in the spill tests of analyze. */
const SPILL_ALL = { LOOPLENS_WORKERS: "0", LOOPLENS_PLAIN_RUNS_IN_MEMORY: "0", LOOPLENS_FINDINGS_IN_MEMORY: "0", LOOPLENS_LIVE_RUNS_IN_MEMORY: "1" };

describe("the CI formats with runs spilled to disk", () => {
  for (const given of [["-f", "sarif"], ["-f", "gitlab", "--verbose"], ["-f", "junit"], ["-f", "junit", "--fail-on", "block"]]) {
    it(given.join(" "), async () => {
      const args = ["analyze", "fixtures", ...given];
      const held = await runMain(args, { env: { LOOPLENS_WORKERS: "0" } });
      const spilled = await runMain(args, { env: SPILL_ALL });
      expect(held.stdout.length).toBeGreaterThan(1000);
      expect(spilled.stdout).toBe(held.stdout);
      expect(spilled.status).toBe(held.status);
    });
  }
});
