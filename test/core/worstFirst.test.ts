/** One "worst first" order (core/worstFirst.ts): level, then earlier first stop, then more findings, then input order. */
import { describe, expect, it } from "vitest";
import type { FindingLevel } from "../../src/core/findings.js";
import { worstFirst, worstOf } from "../../src/core/worstFirst.js";

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
});

describe("worstOf", () => {
  it("is worstFirst sliced, for every limit, on runs with ties (input order breaks them)", () => {
    const levels: FindingLevel[] = ["warning", "critical", "abort"];
    // A deterministic mix with many equal ranks.
    const runs = Array.from({ length: 60 }, (_, i) => {
      const findings: Array<[FindingLevel, number | null]> = [];
      for (let k = 0; k < i % 4; k++) findings.push([levels[(i * 7 + k) % 3]!, ((i * 5 + k) % 6) + 1]);
      return run(`r${i}`, ...findings);
    });
    for (const limit of [0, 1, 2, 5, 17, 59, 60, 100]) {
      expect(worstOf(runs, limit).map((r) => r.name), `limit ${limit}`).toEqual(worstFirst(runs).slice(0, limit).map((r) => r.name));
    }
    // Read one at a time: a generator works as well as an array.
    function* oneByOne() {
      yield* runs;
    }
    expect(worstOf(oneByOne(), 5).map((r) => r.name)).toEqual(worstFirst(runs).slice(0, 5).map((r) => r.name));
  });
});
