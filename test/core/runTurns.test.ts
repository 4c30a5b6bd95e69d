/**
 * A run's turns as replay meets them (core/runTurns.ts): calls carry their turn's key, the turn
 * event ends the turn with its usage, whatever came in between.
 */
import { describe, expect, it } from "vitest";
import { RunTurns, type TurnMarks } from "../../src/core/runTurns.js";

const finding = (tool: string) => ({ detector: "generic_repeat" as const, tool, argsHash: "h" });

describe("RunTurns", () => {
  it("counts each turn once, with the calls that carried its key, ended by its turn event", () => {
    const marks: TurnMarks = { after: [], tokens: [] };
    const turns = new RunTurns(marks);
    turns.call(1, "a", undefined);
    turns.call(2, "a", undefined);
    // Another response interleaved before `a` ended (Claude Code's streamed lines).
    turns.call(3, "b", undefined);
    turns.turn("a", { total: 100, cost: 1 }, 3);
    turns.finding(3, finding("x"));
    turns.stop(3);
    turns.turn("b", { total: 10 }, 3);
    // A final answer: a turn without calls.
    turns.turn("c", { total: 1, cost: 0.5 }, 3);
    const cost = turns.finish(3);
    expect(cost.spent).toEqual({ turns: 3, tokenTurns: 3, costTurns: 2, total: 111, cost: 1.5 });
    expect(cost.onFlagged).toEqual({ turns: 1, tokenTurns: 1, costTurns: 0, total: 10 });
    expect(cost.afterStop).toEqual({ turns: 1, tokenTurns: 1, costTurns: 1, total: 1, cost: 0.5 });
    expect(marks).toEqual({ after: [3, 3, 3], tokens: [100, 10, 1] });
  });

  it("takes a turn's usage from its first call that carries one when its turn event brings none", () => {
    const turns = new RunTurns();
    turns.call(1, "t1", undefined);
    turns.call(2, "t1", { total: 9 });
    turns.call(3, "t1", { total: 10 });
    // Calls without a key: a turn of their own with usage, in no turn without.
    turns.call(4, undefined, { total: 1 });
    turns.call(5, undefined, undefined);
    expect(turns.finish(5).spent).toEqual({ turns: 2, tokenTurns: 2, costTurns: 0, total: 10 });
  });

  it("ends turns never ended by an event at the run's end, and the oldest when too many are open", () => {
    const turns = new RunTurns();
    for (let call = 1; call <= 100; call++) turns.call(call, `t${call}`, { total: 1 });
    expect(turns.finish(100).spent).toMatchObject({ turns: 100, total: 100 });
  });

  it("gives a turn whose key no call carried the calls made without a key since the last turn ended", () => {
    const turns = new RunTurns();
    // Codex: a response's calls, then its token_count.
    turns.call(1, undefined, undefined);
    turns.call(2, undefined, undefined);
    turns.turn("r1", { total: 5 }, 2);
    turns.finding(2, finding("x"));
    turns.stop(2);
    // A keyed turn still open keeps its calls; the keyless one goes to the next turn event.
    turns.call(3, "k", undefined);
    turns.call(4, undefined, undefined);
    turns.turn("r2", { total: 7 }, 4);
    turns.finding(4, finding("y"));
    turns.turn("k", { total: 11 }, 4);
    turns.answered(4);
    const cost = turns.finish(4);
    expect(cost.spent).toMatchObject({ turns: 3, total: 23 });
    expect(cost.onFlagged).toMatchObject({ turns: 2, total: 12 });
    expect(cost.afterStop).toMatchObject({ turns: 2, total: 18 });
  });

  it("opens a turn again for a call whose key names a turn already ended (the calls of one key usually come together)", () => {
    const turns = new RunTurns();
    turns.call(1, "a", undefined);
    turns.call(2, "a", undefined);
    turns.turn("a", { total: 5 }, 2);
    // A late call naming `a` again: a turn of its own, ended at the run's end, where its finding is placed.
    turns.call(3, "a", undefined);
    turns.finding(3, finding("x"));
    turns.call(4, "b", undefined);
    turns.turn("b", { total: 7 }, 4);
    const cost = turns.finish(4);
    expect(cost.spent).toMatchObject({ turns: 3, tokenTurns: 2, total: 12 });
    expect(cost.onFlagged).toMatchObject({ turns: 1, tokenTurns: 0 });
    expect(cost.unplaced).toBe(0);
  });

  it("settles a turn whose calls replay counted as answered without telling it, and is told answers only while one waits", () => {
    // Replay keeps the in-order count; a finding that comes after its turn settled is unplaced,
    // which shows when each turn settled.
    const run = { answeredUpTo: 0 };
    const turns = new RunTurns(undefined, run);
    turns.call(1, undefined, undefined);
    run.answeredUpTo = 1;
    turns.turn("r1", { total: 2 }, 1);
    expect(turns.waiting).toBe(false);
    turns.finding(1, finding("late"));
    // A turn fed before its call's answer waits for it, and the answer told settles it.
    turns.call(2, undefined, undefined);
    turns.turn("r2", { total: 3 }, 2);
    expect(turns.waiting).toBe(true);
    run.answeredUpTo = turns.answered(2, run.answeredUpTo);
    expect(run.answeredUpTo).toBe(2);
    expect(turns.waiting).toBe(false);
    turns.finding(2, finding("late"));
    // Out of order: call 4 before 3; the count moves over both once 3 is told.
    turns.call(3, undefined, undefined);
    turns.call(4, undefined, undefined);
    expect(turns.answered(4, run.answeredUpTo)).toBe(2);
    expect(turns.waiting).toBe(true);
    expect(turns.answered(3, run.answeredUpTo)).toBe(4);
    run.answeredUpTo = 4;
    turns.turn("r3", { total: 5 }, 4);
    turns.finding(3, finding("late"));
    const cost = turns.finish(4);
    expect(cost.spent).toMatchObject({ turns: 3, total: 10 });
    expect(cost.onFlagged).toMatchObject({ turns: 0 });
    expect(cost.unplaced).toBe(3);
  });
});
