/** Snapshot rendering (stable, diff-friendly) and the unified line diff that check prints. */
import { describe, expect, it } from "vitest";
import { diffLines, unifiedHunks } from "../../src/reporters/lineDiff.js";
import { renderSnapshot } from "../../src/reporters/snapshot.js";

describe("renderSnapshot", () => {
  const snapshot = {
    looplensSnapshot: 1,
    config: { warningThreshold: 10, criticalThreshold: 20, enabled: null, a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 },
    lines: { read: 3, used: 3, ignored: 0, skipped: 0 },
    runs: [{ run: "r1", calls: 3, firstStop: { kind: "block", call: 3 } }],
    findings: [{ call: 1, threshold: { name: "warningThreshold", value: 10 } }, { call: 2 }],
    other: [{ a: 1 }],
  };

  it("pretty-prints with runs, findings and short flat objects on one line each", () => {
    expect(renderSnapshot(snapshot)).toBe(
      [
        "{",
        '  "looplensSnapshot": 1,',
        '  "config": {',
        '    "warningThreshold": 10,',
        '    "criticalThreshold": 20,',
        '    "enabled": null,',
        '    "a": 1,',
        '    "b": 2,',
        '    "c": 3,',
        '    "d": 4,',
        '    "e": 5,',
        '    "f": 6',
        "  },",
        '  "lines": {"read":3,"used":3,"ignored":0,"skipped":0},',
        '  "runs": [',
        '    {"run":"r1","calls":3,"firstStop":{"kind":"block","call":3}}',
        "  ],",
        '  "findings": [',
        '    {"call":1,"threshold":{"name":"warningThreshold","value":10}},',
        '    {"call":2}',
        "  ],",
        '  "other": [',
        '    {"a":1}',
        "  ]",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("round-trips: rendering the parsed text gives the same text", () => {
    const text = renderSnapshot(snapshot);
    expect(JSON.parse(text)).toEqual(snapshot);
    expect(renderSnapshot(JSON.parse(text))).toBe(text);
  });

  it("empty arrays and objects stay compact", () => {
    expect(renderSnapshot({ runs: [], config: {} })).toBe('{\n  "runs": [],\n  "config": {}\n}\n');
  });
});

describe("unified line diff", () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

  it("equal texts give no hunks", () => {
    expect(unifiedHunks(diffLines(lines(5), lines(5)))).toEqual([]);
  });

  it("a changed line shows with three lines of context and both positions", () => {
    const after = lines(10);
    after[4] = "line five";
    expect(unifiedHunks(diffLines(lines(10), after))).toEqual([
      "@@ -2,7 +2,7 @@",
      " line 2",
      " line 3",
      " line 4",
      "-line 5",
      "+line five",
      " line 6",
      " line 7",
      " line 8",
    ]);
  });

  it("insertions and deletions far apart make separate hunks with shifted positions", () => {
    const before = lines(20);
    const after = [...before.slice(0, 2), "new", ...before.slice(2, 15), ...before.slice(16)];
    expect(unifiedHunks(diffLines(before, after))).toEqual([
      "@@ -1,5 +1,6 @@",
      " line 1",
      " line 2",
      "+new",
      " line 3",
      " line 4",
      " line 5",
      "@@ -13,7 +14,6 @@",
      " line 13",
      " line 14",
      " line 15",
      "-line 16",
      " line 17",
      " line 18",
      " line 19",
    ]);
  });

  it("keeps every common line (longest common subsequence) when lines move around", () => {
    const ops = diffLines(["a", "b", "c", "d"], ["b", "a", "c", "x", "d"]);
    expect(ops.filter((op) => op.kind === " ").map((op) => op.text)).toEqual(["b", "c", "d"]);
    expect(ops.map((op) => `${op.kind}${op.text}`)).toEqual(["-a", " b", "+a", " c", "+x", " d"]);
  });

  it("shows a rewrite past the edit bound as replaced whole, not line by line", () => {
    const side = (name: string) => Array.from({ length: 300 }, (_, i) => `${name} ${i}`);
    const before = [...side("a"), "same", ...side("b")];
    const after = [...side("c"), "same", ...side("d")];
    const ops = diffLines(before, after);
    expect(ops.map((op) => op.kind).join("")).toBe("-".repeat(before.length) + "+".repeat(after.length));
    expect(ops.map((op) => op.text)).toEqual([...before, ...after]);
    // Under the bound, the line they share is kept.
    expect(diffLines(before.slice(250, 350), after.slice(250, 350)).filter((op) => op.kind === " ").map((op) => op.text)).toEqual(["same"]);
  });

  it("from and to nothing", () => {
    // As diff -u writes it: an empty side starts at the line before (0).
    expect(unifiedHunks(diffLines([], ["a"]))).toEqual(["@@ -0,0 +1,1 @@", "+a"]);
    expect(unifiedHunks(diffLines(["a"], []))).toEqual(["@@ -1,1 +0,0 @@", "-a"]);
  });
});
