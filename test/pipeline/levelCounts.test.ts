import { describe, expect, it } from "vitest";
import type { FindingLevel } from "../../src/core/findings.js";
import { addRunLevels, countRun, levelsOf, noRunLevels } from "../../src/pipeline/levelCounts.js";

const findings = (...levels: FindingLevel[]) => levels.map((level) => ({ level }));

describe("level counts", () => {
  it("count a run once under each level it reaches, and every finding", () => {
    const counts = noRunLevels();
    countRun(counts, findings("warning", "warning", "critical"));
    countRun(counts, findings("abort"));
    countRun(counts, findings());
    expect(counts).toEqual({ runsWith: { warning: 1, critical: 1, abort: 1 }, findings: { warning: 2, critical: 1, abort: 1, total: 4 } });
  });

  it("add up without changing either side", () => {
    const a = noRunLevels();
    countRun(a, findings("warning", "critical"));
    const b = noRunLevels();
    countRun(b, findings("critical", "critical", "abort"));
    const before = structuredClone(a);
    expect(addRunLevels(a, b)).toEqual({ runsWith: { warning: 1, critical: 2, abort: 1 }, findings: { warning: 1, critical: 3, abort: 1, total: 5 } });
    expect(a).toEqual(before);
  });

  it("count findings of a list by level", () => {
    expect(levelsOf(findings("abort", "warning", "abort"))).toEqual({ warning: 1, critical: 0, abort: 2, total: 3 });
  });
});
