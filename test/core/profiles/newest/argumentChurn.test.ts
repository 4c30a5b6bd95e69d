/**
 * Argument churn (generations.md §6), translated from OpenClaw's churn tests: no-progress churn over
 * stable variants and write-mutation churn on one target; warning only, in its verdict slot.
 */
import { describe, expect, it } from "vitest";
import { call, failure, result, textResult, type EventLine } from "../../../helpers/events.js";
import { newestFindings, replayNewest } from "../../../helpers/newestReplay.js";
import { range } from "../../../helpers/replay.js";

const churnRows = (lines: EventLine[]) => newestFindings(lines).filter((row) => row[2] === "argument_churn").map(([, n, , level, count]) => [n, level, count]);

/** Calls `read` cycling through `variants` arguments; every call fails with the same error. */
function cyclingErrors(n: number, variants: string[], error = "ENOENT: no such file"): EventLine[] {
  return range(1, n).flatMap((i) => {
    const path = variants[(i - 1) % variants.length]!;
    return [call("r", `c${i}`, "read", { path }), failure("r", `c${i}`, "read", error)];
  });
}

describe("no-progress churn", () => {
  it("three variants of repeated errors warn once the tally reaches 10", () => {
    expect(churnRows(cyclingErrors(11, ["a", "b", "c"]))[0]).toEqual([11, "warning", 10]);
  });

  it("keeps repeated stable errors eligible for churn, and never blocks", () => {
    const rows = churnRows(cyclingErrors(24, ["a", "b", "c"]));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row[1] === "warning")).toBe(true);
  });

  it("does not treat generic stable successes as churn", () => {
    const lines = range(1, 15).flatMap((i) => {
      const path = ["a", "b", "c"][(i - 1) % 3]!;
      return [call("r", `c${i}`, "read", { path }), result("r", `c${i}`, "read", textResult("same"))];
    });
    expect(churnRows(lines)).toEqual([]);
  });

  it("needs one shared outcome across variants", () => {
    const lines = range(1, 15).flatMap((i) => {
      const path = ["a", "b", "c"][(i - 1) % 3]!;
      return [call("r", `c${i}`, "read", { path }), failure("r", `c${i}`, "read", `ENOENT ${path}`)];
    });
    expect(churnRows(lines)).toEqual([]);
  });

  it("a singleton variant in the tail prevents churn", () => {
    const lines = [...cyclingErrors(6, ["a", "b", "c"]), call("r", "odd", "read", { path: "z" }), failure("r", "odd", "read", "ENOENT: no such file"), ...cyclingErrors(6, ["a", "b", "c"]).map((l) => ({ ...l, id: `y${String(l.id)}` }))];
    expect(churnRows(lines)).toEqual([]);
  });

  it("a novel probe does not continue churn", () => {
    const lines = [...cyclingErrors(12, ["a", "b", "c"]), call("r", "new", "read", { path: "brand-new" })];
    expect(churnRows(lines).find((row) => row[0] === 13)).toBeUndefined();
  });

  it("another tool in the tail stops the walk", () => {
    const lines = [...cyclingErrors(9, ["a", "b", "c"]), call("r", "x", "exec", { command: "ls" }), failure("r", "x", "exec", "ENOENT: no such file"), ...cyclingErrors(3, ["a", "b", "c"]).map((l) => ({ ...l, id: `y${String(l.id)}` }))];
    expect(churnRows(lines)).toEqual([]);
  });

  it("says the call remains allowed", () => {
    const finding = [...replayNewest(cyclingErrors(11, ["a", "b", "c"]))[0]!.findings].find((f) => f.detector === "argument_churn");
    expect(finding?.message).toContain("remains allowed");
    expect(finding?.threshold).toEqual({ name: "warningThreshold", value: 10 });
  });
});

describe("write-mutation churn", () => {
  const write = (i: number, body: string, path = "notes.md", id = `w${i}`): EventLine[] => [
    call("r", id, "write", { path, content: body }),
    result("r", id, "write", textResult("wrote", { changed: true, path })),
  ];

  it("ten distinct bodies to one target, then an eleventh, warn", () => {
    const lines = range(1, 11).flatMap((i) => write(i, `v${i}`));
    expect(churnRows(lines)).toEqual([[11, "warning", 10]]);
  });

  it("a verifying read resets it", () => {
    const lines = [...range(1, 6).flatMap((i) => write(i, `v${i}`)), call("r", "rd", "read", { path: "notes.md" }), result("r", "rd", "read", textResult("x")), ...range(7, 12).flatMap((i) => write(i, `v${i}`))];
    expect(churnRows(lines)).toEqual([]);
  });

  it("writing a body already in the streak is not churn", () => {
    const lines = [...range(1, 10).flatMap((i) => write(i, `v${i}`)), ...write(11, "v3")];
    expect(churnRows(lines)).toEqual([]);
  });

  it("a repeated variant starts a new streak", () => {
    // v1..v5, v1 again, then five more new bodies: only the variants since the repeat count.
    const lines = [...range(1, 5).flatMap((i) => write(i, `v${i}`)), ...write(6, "v1"), ...range(7, 12).flatMap((i) => write(i, `n${i}`))];
    expect(churnRows(lines)).toEqual([]);
  });

  it("another target stops the walk", () => {
    const lines = [...range(1, 5).flatMap((i) => write(i, `v${i}`)), ...write(6, "x", "other.md"), ...range(7, 12).flatMap((i) => write(i, `v${i}`))];
    expect(churnRows(lines)).toEqual([]);
  });

  it("no-op writes do not count as mutations", () => {
    const noop = (i: number): EventLine[] => [call("r", `n${i}`, "write", { path: "notes.md", content: `v${i}` }), result("r", `n${i}`, "write", textResult("same", { changed: false }))];
    const lines = range(1, 11).flatMap(noop);
    expect(churnRows(lines).length).toBe(0);
  });
});
