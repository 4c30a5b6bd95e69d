/**
 * GridReplay replays one event stream under several configs at once, and its replayers share equal
 * histories (core/history.ts `HistorySharing`). Whatever the configs, each config's runs must be the
 * runs a replayer of that config alone makes: the same findings, stops and guard windows.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type ResolvedConfig } from "../../src/core/config.js";
import type { ReplayedRun } from "../../src/core/findings.js";
import type { PreparedEvent } from "../../src/core/prepare.js";
import { Replayer } from "../../src/core/replay.js";
import { GridReplay } from "../../src/pipeline/sweepReplay.js";
// Small thresholds and windows, so that configs warn, block and diverge within a few calls.
import { smallConfig as configArb } from "../hostile/arbitraries.js";

/** What happens next in the stream; turned into prepared events by `eventsOf`. */
type Step =
  | { readonly kind: "call"; readonly run: number; readonly tool: number; readonly args: number }
  | { readonly kind: "outcome"; readonly run: number; readonly result: number; readonly unknown: boolean; readonly veto: boolean; readonly byId: boolean }
  | { readonly kind: "compaction"; readonly run: number }
  | { readonly kind: "end"; readonly run: number; readonly final: boolean }
  /** The same call answered the same way, again and again (a loop, where the configs part). */
  | { readonly kind: "loop"; readonly run: number; readonly tool: number; readonly args: number; readonly result: number; readonly times: number };

const run = fc.integer({ min: 0, max: 4 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("call" as const), run, tool: fc.integer({ min: 0, max: 2 }), args: fc.integer({ min: 0, max: 2 }) }) },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("outcome" as const), run, result: fc.integer({ min: 0, max: 3 }), unknown: fc.boolean(), veto: fc.boolean(), byId: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("compaction" as const), run }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("end" as const), run, final: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("loop" as const),
      run,
      tool: fc.integer({ min: 0, max: 2 }),
      args: fc.integer({ min: 0, max: 2 }),
      result: fc.integer({ min: 0, max: 3 }),
      times: fc.integer({ min: 2, max: 9 }),
    }),
  },
);

const TOOLS = ["read", "exec", "process"];

/**
 * Five runs over two sessions and one run without a session (runs of a session share its history
 * slots), each outcome answering its run's newest call.
 */
function eventsOf(given: readonly Step[]): PreparedEvent[] {
  const steps = given.flatMap((step): Step[] =>
    step.kind !== "loop"
      ? [step]
      : Array.from({ length: step.times }, (): Step[] => [
          { kind: "call", run: step.run, tool: step.tool, args: step.args },
          { kind: "outcome", run: step.run, result: step.result, unknown: false, veto: false, byId: true },
        ]).flat(),
  );
  const calls = new Map<number, { tool: string; argsHash: string; callId: string; call: number }>();
  const counts = new Map<number, number>();
  const located = (r: number, line: number) => ({ run: `r${r}`, file: "grid.jsonl", line, ...(r < 4 ? { session: `s${r % 2}` } : {}) });
  return steps.flatMap((step, i): PreparedEvent[] => {
    const at = located(step.run, i + 1);
    switch (step.kind) {
      case "call": {
        const call = (counts.get(step.run) ?? 0) + 1;
        counts.set(step.run, call);
        const tool = TOOLS[step.tool]!;
        const made = { tool, argsHash: `${tool}:${step.args}`, callId: `c${i}`, call };
        calls.set(step.run, made);
        return [{ ...at, type: "call", tool, argsHash: made.argsHash, knownPoll: tool === "process", callId: made.callId, call }];
      }
      case "outcome": {
        const made = calls.get(step.run);
        if (!made) return [];
        const resultHash = step.veto ? undefined : step.result === 3 ? "" : `h${step.result}`;
        const unknownTool = step.unknown && !step.veto ? made.tool : undefined;
        return [{ ...at, type: "outcome", tool: made.tool, argsHash: made.argsHash, callId: step.byId ? made.callId : undefined, call: made.call, resultHash, unknownTool, veto: step.veto }];
      }
      case "compaction":
        return [{ ...at, type: "compaction" }];
      case "end":
        return [{ ...at, type: "run_end", ...(step.final ? { final: true as const } : {}) }];
      case "loop":
        throw new Error("loops are unrolled above");
    }
  });
}

function alone(config: ResolvedConfig, events: readonly PreparedEvent[]): ReplayedRun[] {
  const runs: ReplayedRun[] = [];
  const replayer = new Replayer(() => config, undefined, { onSettled: (settled) => runs.push(settled) });
  for (const event of events) replayer.push(event);
  return [...runs, ...replayer.finish()];
}

function together(configs: readonly ResolvedConfig[], events: readonly PreparedEvent[]): ReplayedRun[][] {
  const byConfig: ReplayedRun[][] = configs.map(() => []);
  const grid = new GridReplay(
    configs.map((config) => ({ configFor: () => config })),
    (reports) => reports.forEach((report, i) => byConfig[i]!.push(report)),
  );
  for (const event of events) grid.push(event);
  grid.finish();
  return byConfig;
}

describe("GridReplay", () => {
  it("gives each config the runs it gives alone, whatever the configs share", () => {
    // Configs often differ only in one threshold (as a sweep's do), so that they share and then part.
    const gridArb = configArb.chain((base) =>
      fc.array(
        fc.oneof(
          configArb,
          fc.integer({ min: 1, max: 6 }).map((criticalThreshold) => ({ ...base, criticalThreshold })),
          fc.integer({ min: 1, max: 4 }).map((warningThreshold) => ({ ...base, warningThreshold })),
          fc.integer({ min: 1, max: 4 }).map((unknownToolThreshold) => ({ ...base, unknownToolThreshold })),
        ),
        { minLength: 2, maxLength: 6 },
      ),
    );
    fc.assert(
      fc.property(gridArb, fc.array(stepArb, { minLength: 1, maxLength: 120 }), (configs, steps) => {
        const events = eventsOf(steps);
        const swept = together(configs, events);
        configs.forEach((config, i) => expect(swept[i]).toEqual(alone(config, events)));
      }),
      { numRuns: 400 },
    );
  });

  it("parts configs at the first call one blocks and another lets through", () => {
    const base: ResolvedConfig = { ...DEFAULT_CONFIG, enabled: true, warningThreshold: 2, criticalThreshold: 3 };
    const looser = { ...base, criticalThreshold: 5 };
    const steps: Step[] = Array.from({ length: 8 }, (): Step[] => [
      { kind: "call", run: 0, tool: 0, args: 0 },
      { kind: "outcome", run: 0, result: 0, unknown: false, veto: false, byId: true },
    ]).flat();
    const events = eventsOf(steps);
    const [tight, loose] = together([base, looser], events);
    // The tight config blocks from the 4th call on, the loose one from the 6th; before that they
    // warn alike (from the 3rd call).
    const levels = (runs: readonly ReplayedRun[]) => [...runs[0]!.findings].map((finding) => `${finding.call}:${finding.level}:${finding.count}`);
    expect(levels(tight!).slice(0, 2)).toEqual(["3:warning:2", "4:critical:3"]);
    expect(levels(loose!).slice(0, 4)).toEqual(["3:warning:2", "4:warning:3", "5:warning:4", "6:critical:5"]);
    expect([tight, loose]).toEqual([alone(base, events), alone(looser, events)]);
  });
});
