/** The analysis lane (pipeline/watch/analysisLane.ts): one job at a time, each unit debounced by its cost. */
import { describe, expect, it } from "vitest";
import { AnalysisLane, COST_FACTOR, SETTLE_MS } from "../../src/pipeline/watch/analysisLane.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lane whose job waits `ms` (when each run started and ended); `spent`: the lane's cost clock. */
function waitingLane(ms: number, spent?: () => number) {
  const starts: number[] = [];
  const ends: number[] = [];
  const job = async () => {
    starts.push(performance.now());
    await sleep(ms);
    ends.push(performance.now());
  };
  const lane = new AnalysisLane(
    job,
    (_key, error) => {
      throw error;
    },
    undefined,
    spent,
  );
  return { lane, starts, ends };
}

describe("analysis lane", () => {
  it("a burst of touches is one run; a unit that cost T is not run again before COST_FACTOR·T after it", async () => {
    // The job's 40 ms of waiting counted as its cost (the lane reads CPU time: see the next test).
    const { lane, starts, ends } = waitingLane(40, () => performance.now());
    for (let i = 0; i < 20; i++) lane.touch("a");
    await lane.idle();
    expect(starts).toHaveLength(1);
    lane.touch("a");
    await lane.idle();
    expect(starts).toHaveLength(2);
    const cost = ends[0]! - starts[0]!;
    expect(starts[1]! - ends[0]!).toBeGreaterThanOrEqual(COST_FACTOR * cost - 5);
  });

  it("a job that tells its next one is cheap (a full read that kept a resume point) does not space it", async () => {
    const starts: number[] = [];
    const ends: number[] = [];
    const lane = new AnalysisLane(
      async () => {
        starts.push(performance.now());
        await sleep(60);
        ends.push(performance.now());
        return { cheapNext: starts.length === 1 };
      },
      (_key, error) => {
        throw error;
      },
      undefined,
      () => performance.now(),
    );
    for (let run = 0; run < 3; run++) {
      lane.touch("a", 0);
      await lane.idle();
    }
    // The first job's 60 ms would space the second by COST_FACTOR × 60; the second's cost spaces the third.
    expect(starts[1]! - ends[0]!).toBeLessThan(COST_FACTOR * 60 - 60);
    expect(starts[2]! - ends[1]!).toBeGreaterThanOrEqual(COST_FACTOR * 60 - 5);
  });

  it("a job's cost is its CPU time: one that mostly waits (a loaded machine, a slow disk) does not hold its unit back", async () => {
    const { lane, starts, ends } = waitingLane(200);
    lane.touch("a", 0);
    await lane.idle();
    lane.touch("a", 0);
    await lane.idle();
    // Spaced by its wall time, the second run would wait COST_FACTOR × 200 ms.
    expect(starts[1]! - ends[0]!).toBeLessThan(COST_FACTOR * 100);
  });

  it("runs one job at a time; a unit touched while it runs runs again after", async () => {
    let running = 0;
    let most = 0;
    const runs: string[] = [];
    const lane = new AnalysisLane(
      async (key) => {
        running++;
        most = Math.max(most, running);
        runs.push(key);
        await sleep(5);
        running--;
      },
      () => undefined,
    );
    lane.touch("a", 0);
    lane.touch("b", 0);
    await sleep(SETTLE_MS);
    lane.touch("a");
    await lane.idle();
    expect(most).toBe(1);
    expect(runs.filter((key) => key === "a")).toHaveLength(2);
    expect(runs).toContain("b");
  });

  it("a job that throws is reported and the lane goes on; a forgotten unit does not run", async () => {
    const errors: string[] = [];
    const runs: string[] = [];
    const lane = new AnalysisLane(
      async (key) => {
        runs.push(key);
        if (key === "bad") throw new Error("boom");
      },
      (key, error) => errors.push(`${key}: ${(error as Error).message}`),
    );
    lane.runSoon("bad");
    lane.runSoon("good");
    lane.touch("gone");
    lane.forget("gone");
    await lane.idle();
    expect(errors).toEqual(["bad: boom"]);
    expect(runs).toEqual(["bad", "good"]);
  });
});
