/** Grouping files into fork families (shared/forkFamilies.ts), from the tags their first lines give. */
import { describe, expect, it } from "vitest";
import { forkFamilies } from "../../../src/adapters/shared/forkFamilies.js";

describe("forkFamilies", () => {
  it("groups files sharing a key, parents before their forks, and leaves the rest in input order", () => {
    const files = ["a", "fork-of-c", "b", "c", "fork-of-fork", "d"];
    const tags = [
      { keys: ["x:a"], self: "x:a" },
      { keys: ["x:f", "x:c"], self: "x:f", parent: "x:c" },
      undefined,
      { keys: ["x:c"], self: "x:c" },
      { keys: ["x:g", "x:f"], self: "x:g", parent: "x:f" },
      { keys: ["y:root"] },
    ];
    expect(forkFamilies(files, tags)).toEqual({ families: [["c", "fork-of-c", "fork-of-fork"]], rest: ["a", "b", "d"] });
  });

  it("files with one key and no parent link keep the input order; a cycle does not loop", () => {
    expect(forkFamilies(["p", "q"], [{ keys: ["k"] }, { keys: ["k"] }]).families).toEqual([["p", "q"]]);
    const cycle = forkFamilies(["p", "q"], [{ keys: ["p", "q"], self: "p", parent: "q" }, { keys: ["q", "p"], self: "q", parent: "p" }]);
    expect(cycle.families[0]!.sort()).toEqual(["p", "q"]);
  });

  it("a weak key joins a file that has no keys of its own to the files with that weak key, and no two files with keys", () => {
    const files = ["strong-a", "strong-b", "weak-only", "other"];
    const tags = [{ keys: ["k:a"], weak: "w" }, { keys: ["k:b"], weak: "w" }, { keys: [], weak: "w" }, { keys: [], weak: "v" }];
    expect(forkFamilies(files, tags)).toEqual({ families: [["strong-a", "weak-only"]], rest: ["strong-b", "other"] });
    expect(forkFamilies(["p", "q"], [{ keys: ["k:p"], weak: "w" }, { keys: ["k:q"], weak: "w" }]).families).toEqual([]);
    expect(forkFamilies(["p", "q"], [{ keys: [], weak: "w" }, { keys: [], weak: "w" }]).families).toEqual([["p", "q"]]);
  });

  it("joins a file to the one its parent link names, with no key shared, and reads the parent first", () => {
    const tags = [{ keys: ["k:q"], self: "s:q", parent: "s:p" }, { keys: ["k:p"], self: "s:p" }, { keys: ["k:r"], self: "s:r", parent: "s:gone" }];
    expect(forkFamilies(["q", "p", "r"], tags)).toEqual({ families: [["p", "q"]], rest: ["r"] });
  });
});
