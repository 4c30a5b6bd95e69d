/** One "worst first" order (core/worstFirst.ts): level, then earlier first stop, then more findings, then input order. */
import { describe, expect, it } from "vitest";
import type { FindingLevel } from "../../src/core/findings.js";
import { worstFirst } from "../../src/core/worstFirst.js";

const run = (name: string, ...findings: Array<[FindingLevel, number | null]>) => ({ name, findings: findings.map(([level, call]) => ({ level, call })) });

describe("worstFirst", () => {
  it("ranks by the highest level, then the earlier first stop, then more findings, then input order", () => {
    const runs = [
      run("quiet"),
      run("warned", ["warning", 3]),
      run("blocked late", ["critical", 9]),
      run("blocked early", ["warning", 2], ["critical", 4]),
      // A block, then an abort: ranked with the aborts (its highest level), by its first stop.
      run("blocked then aborted", ["critical", 6], ["abort", 8]),
      run("aborted", ["abort", 7]),
      run("blocked early, more findings", ["warning", 3], ["critical", 4], ["critical", 5]),
      run("warned twice", ["warning", 1], ["warning", 2]),
      run("quiet too"),
      // A live run's finding may have no call: its stop ranks after every numbered one.
      run("blocked live", ["critical", null]),
    ];
    expect(worstFirst(runs).map((r) => r.name)).toEqual([
      "blocked then aborted",
      "aborted",
      "blocked early, more findings",
      "blocked early",
      "blocked late",
      "blocked live",
      "warned twice",
      "warned",
      "quiet",
      "quiet too",
    ]);
  });

  it("lets the caller order what the rank leaves tied, before input order", () => {
    const runs = [run("a"), run("b"), run("c", ["warning", 1])];
    expect(worstFirst(runs, (x, y) => Number(y.name === "b") - Number(x.name === "b")).map((r) => r.name)).toEqual(["c", "b", "a"]);
  });
});
