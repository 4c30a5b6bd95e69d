/** `looplens config --format table` fitted to the width: the `why` column becomes numbered notes when it does not fit. */
import { describe, expect, it } from "vitest";
import { resolveNewestConfig } from "../../src/core/profiles/newest/config.js";
import { configReportTable, type ConfigReport } from "../../src/reporters/configReport.js";

const { config, sources, notices } = resolveNewestConfig([{ origin: "looplens", source: "looplens", values: { enabled: true } }]);
const report: ConfigReport = { version: "9.9.9", effective: config, sources, notices, file: null, agent: null, override: null, agentsWithOverrides: [], usesLooplensDefault: true, profile: "newest" };

describe("the config table", () => {
  it("keeps the why column where it fits", () => {
    const text = configReportTable(report, false, 160);
    expect(text).toMatch(/\n warningThreshold +10 +fixed +the newest build's thresholds are fixed \(numeric tuning was retired, OpenClaw #111382\)\n/);
  });

  it("numbers the reasons under the table where it does not, every line within the width", () => {
    for (const width of [80, 60]) {
      const text = configReportTable(report, false, width);
      expect(text).toMatch(/\n warningThreshold +10 +fixed +\(1\)\n/);
      expect(text).toMatch(/\n detectors\.pingPong +true +fixed +\(2\)\n/);
      expect(text).toContain("\n  (1) the newest build's thresholds are fixed");
      for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(width);
    }
  });
});
