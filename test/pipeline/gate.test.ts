/**
 * What `--fail-on` and `--max-warnings` judge (src/pipeline/gate.ts), and the closing lines written
 * from it (src/reporters/failureLines.ts): counted one run at a time, a block a critical verdict.
 */
import { describe, expect, it } from "vitest";
import type { FindingLevel } from "../../src/core/findings.js";
import { GateTally } from "../../src/pipeline/gate.js";
import { failureLines } from "../../src/reporters/failureLines.js";
import type { FailOnWord } from "../../src/reporters/model.js";

const run = (...levels: FindingLevel[]) => ({ findings: levels.map((level) => ({ level })) });
/** Three runs: two warnings; a warning and a block; an abort. */
const RUNS = [run("warning", "warning"), run("warning", "critical"), run("abort"), run()];

function judged(asked: { failOn?: FailOnWord; maxWarnings?: number }) {
  const tally = new GateTally(asked);
  const perRun = RUNS.map((r) => tally.add(r));
  return { perRun, gate: tally.finish() };
}

describe("the --fail-on tally", () => {
  it("counts findings at or above the level, and the runs that have one", () => {
    expect(judged({ failOn: "warning" })).toMatchObject({ perRun: [2, 2, 1, 0], gate: { floor: "warning", failing: { findings: 5, runs: 3 }, warnings: 3 } });
    expect(judged({ failOn: "abort" })).toMatchObject({ perRun: [0, 0, 1, 0], gate: { floor: "abort", failing: { findings: 1, runs: 1 } } });
  });

  it("takes block and critical as one level", () => {
    expect(judged({ failOn: "block" }).gate).toEqual({ ...judged({ failOn: "critical" }).gate, failOn: "block" });
    expect(judged({ failOn: "block" }).gate.failing).toEqual({ findings: 2, runs: 2 });
  });

  it("judges from a warning up when no level is asked (a junit case fails on one)", () => {
    expect(judged({}).gate).toEqual({ floor: "warning", failing: { findings: 5, runs: 3 }, warnings: 3 });
  });
});

describe("the closing lines", () => {
  it("say why the exit status is 1, and nothing when the findings pass", () => {
    expect(failureLines(judged({ failOn: "block" }).gate)).toEqual(["✖ 2 findings at or above block in 2 runs"]);
    expect(failureLines(judged({ maxWarnings: 2 }).gate)).toEqual(["✖ 3 warnings, more than --max-warnings 2"]);
    expect(failureLines(judged({ maxWarnings: 3 }).gate)).toEqual([]);
    // No gate asked: nothing to fail, whatever the findings.
    expect(failureLines(judged({}).gate)).toEqual([]);
    const none = new GateTally({ failOn: "warning" });
    none.add(run());
    expect(failureLines(none.finish())).toEqual([]);
  });
});
