/** The detector metadata table: one row per detector the verdict tables can emit, read by help and live findings. */
import { describe, expect, it } from "vitest";
import { DETECTORS, DETECTOR_NAMES, detectorHelp } from "../../src/core/detectorInfo.js";
import { VERDICT_TABLE } from "../../src/core/detectors.js";
import { liveThresholdName } from "../../src/core/liveRuns.js";
import { PROFILES } from "../../src/core/profiles/index.js";

describe("detector metadata", () => {
  it("has a row for every detector of either generation's verdict table (and the guard's abort), and no other", () => {
    const emitted = new Set<string>(VERDICT_TABLE.map((rule) => rule.detector));
    emitted.add("compaction_loop_persisted");
    expect(new Set<string>(DETECTOR_NAMES)).toEqual(emitted);
  });

  it("gives each generation's verdict rows their thresholds", () => {
    for (const profile of Object.values(PROFILES)) {
      for (const row of profile.verdicts.rows) {
        const info = DETECTORS.find((d) => d.name === row.detector)!;
        expect(row.threshold, `${profile.name} ${row.detector}/${row.level}`).toBe(row.level === "warning" ? info.warning : info.stop);
      }
    }
    expect(PROFILES.configurable.verdicts.rows.find((row) => row.detector === "generic_repeat" && row.level === "critical")?.threshold).toBe("criticalThreshold");
  });

  it("gives live findings the threshold their level crosses", () => {
    expect(liveThresholdName("unknown_tool_repeat", "critical")).toBe("unknownToolThreshold");
    expect(liveThresholdName("compaction_loop_persisted", "abort")).toBe("postCompactionGuard.windowSize");
    expect(liveThresholdName("ping_pong", "warning")).toBe("warningThreshold");
  });

  it("is listed in the help, every line within 80 columns", () => {
    const help = detectorHelp();
    for (const name of DETECTOR_NAMES) expect(help).toContain(`  ${name} (`);
    for (const line of help.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
  });
});
