/** The detector metadata table: one row per detector the verdict tables can emit, read by help and live findings. */
import { describe, expect, it } from "vitest";
import { DETECTORS, DETECTOR_NAMES, detectorHelp } from "../../src/core/detectorInfo.js";
import { VERDICT_TABLE } from "../../src/core/detectors.js";
import { liveThresholdName } from "../../src/core/liveRuns.js";
import { NEWEST_VERDICT_TABLE } from "../../src/core/profiles/newest/verdicts.js";

describe("detector metadata", () => {
  it("has a row for every detector of either generation's verdict table (and the guard's abort), and no other", () => {
    const emitted = new Set<string>([...VERDICT_TABLE, ...NEWEST_VERDICT_TABLE].map((rule) => rule.detector));
    emitted.add("compaction_loop_persisted");
    expect(new Set<string>(DETECTOR_NAMES)).toEqual(emitted);
  });

  it("names the thresholds the verdict table uses", () => {
    for (const rule of VERDICT_TABLE) {
      const info = DETECTORS.find((d) => d.name === rule.detector)!;
      expect(rule.level === "warning" ? info.warning : info.stop).toBe(rule.threshold);
    }
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
