/**
 * What a run cost (core/runCost.ts): spent, on flagged calls, after the first stop, and per pattern,
 * checked exactly against a naive reference over random runs, fed to the tally in random orders
 * that keep its contract.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { costPatternKey, runCost, RunCostTally, type CostFinding, type CostTurn, type RunCost } from "../../src/core/runCost.js";
import { addUsage, EMPTY_SUM, type Usage, type UsageSum } from "../../src/core/usage.js";
import { usageArbitrary } from "../helpers/usageArbitrary.js";

interface GeneratedRun {
  readonly turns: readonly CostTurn[];
  readonly findings: readonly CostFinding[];
  readonly stop: number | null;
}

/** The definitions of cost.md §2, as plainly as they can be written: whole lists, in turn order. */
function reference(run: GeneratedRun): Omit<RunCost, "unplaced"> {
  const turnOf = (call: number) => run.turns.findIndex((t) => t.calls.includes(call));
  const sum = (pick: (index: number) => boolean): UsageSum =>
    run.turns.reduce<UsageSum>((s, t, i) => (pick(i) ? addUsage(s, t.usage) : s), EMPTY_SUM);
  const stopTurn = run.stop === null ? Infinity : turnOf(run.stop);
  const flaggedBy = (i: number, pattern?: string) =>
    run.findings.some((f) => turnOf(f.call) === i && (pattern === undefined || f.pattern === pattern));
  const patterns = [...new Set(run.findings.map((f) => f.pattern))];
  return {
    spent: sum(() => true),
    onFlagged: sum((i) => flaggedBy(i)),
    afterStop: sum((i) => i > stopTurn),
    patterns: patterns.map((pattern) => ({ pattern, onFlagged: sum((i) => flaggedBy(i, pattern)), afterStop: sum((i) => i > stopTurn && flaggedBy(i, pattern)) })),
  };
}

/** Turns with 0–3 calls each; call ordinals numbered in order, or interleaved between neighbours (Claude Code's streamed ids). */
const runArbitrary: fc.Arbitrary<GeneratedRun> = fc
  .record({
    shape: fc.array(fc.record({ usage: fc.option(usageArbitrary, { nil: undefined }), calls: fc.nat({ max: 3 }) }), { maxLength: 25 }),
    swaps: fc.array(fc.nat(), { maxLength: 6 }),
    flags: fc.array(fc.record({ pick: fc.nat(), pattern: fc.constantFrom("a", "b", "c") }), { maxLength: 30 }),
    stopPick: fc.option(fc.nat(), { nil: null }),
  })
  .map(({ shape, swaps, flags, stopPick }) => {
    let next = 1;
    const calls = shape.map((t) => Array.from({ length: t.calls }, () => next++));
    // Swap a call with one of the next turn's: turns whose calls interleave.
    for (const s of swaps) {
      const i = s % Math.max(1, calls.length - 1);
      const a = calls[i];
      const b = calls[i + 1];
      if (a?.length && b?.length) [a[a.length - 1], b[0]] = [b[0]!, a[a.length - 1]!];
    }
    const all = calls.flat();
    const findings = all.length === 0 ? [] : flags.map((f) => ({ call: all[f.pick % all.length]!, pattern: f.pattern }));
    const stop = stopPick === null || all.length === 0 ? null : all[stopPick % all.length]!;
    return { turns: shape.map((t, i) => ({ usage: t.usage, calls: calls[i]! })), findings, stop };
  });

/**
 * The tally fed as replay would, within its contract: turns in order; each call's findings (and the
 * stop) just before its turn (Codex: usage after the calls), just after it, or up to two turns
 * later (an abort at a late result); its answer after them, possibly later still or never.
 */
function feedInOrder(run: GeneratedRun, delays: readonly number[], openTurns: number, spans = false): RunCost {
  const tally = new RunCostTally(openTurns);
  const at = new Map<number, Array<() => void>>();
  const schedule = (step: number, action: () => void) => at.set(step, [...(at.get(step) ?? []), action]);
  let k = 0;
  run.turns.forEach((turn, i) => {
    for (const call of turn.calls) {
      const delay = delays[k++ % Math.max(1, delays.length)] ?? 0;
      // Step 2i: before turn i is fed; 2i+1: after it.
      const step = 2 * i + Math.min(delay, 5);
      for (const f of run.findings) if (f.call === call) schedule(step, () => tally.finding(f.call, f.pattern));
      if (call === run.stop) schedule(step, () => tally.stop(call));
      if (delay < 5) schedule(step + (delay % 2), () => tally.answered(call));
    }
  });
  const steps = 2 * run.turns.length + 8;
  for (let step = 0; step < steps; step++) {
    for (const action of at.get(step) ?? []) action();
    if (step % 2 === 0 && step / 2 < run.turns.length) feedTurn(tally, run.turns[step / 2]!, spans);
  }
  return tally.finish();
}

/** A turn fed as a span of calls (`turnOfSpan`, what replay feeds when no turn holds a call) when its calls are one, else as a list. */
function feedTurn(tally: RunCostTally, turn: CostTurn, spans: boolean): void {
  const first = turn.calls[0] ?? 1;
  const last = first + turn.calls.length - 1;
  if (spans && turn.calls.every((call, i) => call === first + i)) tally.turnOfSpan(turn.usage, first, last);
  else tally.turn(turn.usage, turn.calls);
}

describe("runCost", () => {
  it("equals the naive reference exactly on random runs", () => {
    fc.assert(
      fc.property(runArbitrary, (run) => {
        const cost = runCost(run.turns, run.findings, run.stop);
        expect(cost).toEqual({ ...reference(run), unplaced: 0 });
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same when fed incrementally, findings and answers before, with or after their turns", () => {
    fc.assert(
      fc.property(runArbitrary, fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 4, max: 8 }), (run, delays, openTurns) => {
        // Patterns come in the order of their first finding, which here is the order fed, not the list's.
        const byName = (cost: Omit<RunCost, "unplaced">) => ({ ...cost, patterns: [...cost.patterns].sort((a, b) => a.pattern.localeCompare(b.pattern)) });
        expect(byName(feedInOrder(run, delays, openTurns))).toEqual({ ...byName(reference(run)), unplaced: 0 });
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same with turns whose calls are a span fed as spans (settled as fed when their calls were answered)", () => {
    fc.assert(
      fc.property(runArbitrary, fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 4, max: 8 }), (run, delays, openTurns) => {
        expect(feedInOrder(run, delays, openTurns, true)).toEqual(feedInOrder(run, delays, openTurns));
        expect(feedInOrder(run, delays, openTurns, true).spent).toEqual(reference(run).spent);
      }),
      { numRuns: 300 },
    );
  });

  it("counts a turn once however many of its calls are flagged, and never counts the stop's own turn after it", () => {
    const u = (total: number): Usage => ({ total });
    const turns: CostTurn[] = [
      { usage: u(1), calls: [1, 2] },
      { usage: u(10), calls: [3, 4, 5] },
      { usage: u(100), calls: [6] },
      { usage: u(1000), calls: [] },
    ];
    const findings = [3, 4, 5].map((call) => ({ call, pattern: "poll" })).concat([{ call: 4, pattern: "other" }]);
    const cost = runCost(turns, findings, 4);
    expect(cost.spent.total).toBe(1111);
    expect(cost.onFlagged).toMatchObject({ turns: 1, total: 10 });
    // The turn that made call 4 is not after the stop; the final answer (no calls) is.
    expect(cost.afterStop).toMatchObject({ turns: 2, total: 1100 });
    expect(cost.patterns.map((p) => [p.pattern, p.onFlagged.total, p.afterStop.turns])).toEqual([
      ["poll", 10, 0],
      ["other", 10, 0],
    ]);
  });

  it("reports nothing after the stop for a run that was never stopped", () => {
    const cost = runCost([{ usage: { total: 5 }, calls: [1] }], [{ call: 1, pattern: "p" }], null);
    expect(cost.afterStop).toEqual(EMPTY_SUM);
    expect(cost.onFlagged.total).toBe(5);
  });
});

describe("RunCostTally", () => {
  it("holds only open turns: a long run whose calls are answered keeps a few", () => {
    const tally = new RunCostTally();
    let most = 0;
    for (let call = 1; call <= 50_000; call++) {
      tally.finding(call, "p");
      tally.turn({ total: 1 }, [call]);
      tally.answered(call);
      most = Math.max(most, tally.held);
    }
    expect(most).toBeLessThanOrEqual(1);
    expect(tally.finish().onFlagged.turns).toBe(50_000);
  });

  it("settles a turn fed after its calls were answered as it is fed, with nothing held for it", () => {
    const tally = new RunCostTally();
    // Calls 1 and 2 were answered before the tally was made (replay makes it at a run's first turn).
    tally.answeredBefore(2);
    tally.turn({ total: 1 }, [1, 2]);
    expect(tally.held).toBe(0);
    for (let call = 3; call <= 1000; call++) {
      tally.answered(call);
      tally.turn({ total: 1 }, [call]);
      expect(tally.held).toBe(0);
    }
    // An answer past a call not answered yet is remembered until the gap closes.
    tally.answered(1002);
    tally.turn({ total: 1 }, [1002]);
    expect(tally.held).toBe(1);
    tally.answered(1001);
    expect(tally.held).toBe(0);
    tally.turn({ total: 1 }, [1001]);
    expect(tally.held).toBe(0);
    expect(tally.finish().spent).toMatchObject({ turns: 1001, total: 1001 });
  });

  it("settles a span of answered calls as it is fed, after the stop's turn when the stop is in it", () => {
    const tally = new RunCostTally();
    tally.answeredBefore(4);
    tally.stop(3);
    tally.turnOfSpan({ total: 1 }, 1, 2);
    tally.turnOfSpan({ total: 10 }, 3, 4);
    expect(tally.held).toBe(0);
    // A final answer (no calls), then a turn whose calls were not answered yet: held until they are.
    tally.turnOfSpan({ total: 100 }, 5, 4);
    tally.turnOfSpan({ total: 1000 }, 5, 6);
    expect(tally.held).toBe(1);
    tally.answered(5);
    tally.answered(6);
    expect(tally.held).toBe(0);
    expect(tally.finish()).toMatchObject({ spent: { turns: 4, total: 1111 }, afterStop: { turns: 2, total: 1100 }, unplaced: 0 });
  });

  it("settles the oldest turn past its limit of open turns, and counts a finding that came later as unplaced", () => {
    const tally = new RunCostTally(2);
    for (let call = 1; call <= 10; call++) tally.turn({ total: call }, [call]);
    expect(tally.held).toBeLessThanOrEqual(3);
    tally.finding(1, "late");
    tally.finding(10, "in time");
    tally.stop(2);
    const cost = tally.finish();
    expect(cost.onFlagged.total).toBe(10);
    expect(cost.unplaced).toBe(2);
    expect(cost.afterStop).toEqual(EMPTY_SUM);
  });

  it("holds nothing for answers that come after their turn was settled", () => {
    const tally = new RunCostTally(2);
    for (let call = 1; call <= 100; call++) tally.turn({ total: 1 }, [call]);
    for (let call = 1; call <= 97; call++) tally.answered(call);
    expect(tally.held).toBeLessThanOrEqual(3);
  });

  it("counts findings of calls no turn made as unplaced", () => {
    const tally = new RunCostTally();
    tally.turn({ total: 3 }, [1]);
    tally.finding(7, "p");
    expect(tally.finish()).toMatchObject({ unplaced: 1, onFlagged: EMPTY_SUM });
  });
});

describe("costPatternKey", () => {
  it("keys by detector, tool and arguments, and a ping-pong by its detector alone", () => {
    const key = (detector: "generic_repeat" | "ping_pong", tool: string, argsHash: string) => costPatternKey({ detector, tool, argsHash });
    expect(key("generic_repeat", "read", "h1")).not.toBe(key("generic_repeat", "read", "h2"));
    expect(key("generic_repeat", "read", "h1")).not.toBe(key("generic_repeat", "exec", "h1"));
    expect(key("ping_pong", "read", "h1")).toBe(key("ping_pong", "exec", "h2"));
    // No separator join: a tool name holding the separator cannot collide.
    expect(key("generic_repeat", 'a","b', "c")).not.toBe(key("generic_repeat", "a", 'b","c'));
  });
});
