/** Fitting text and tables to a width: display widths, word wrapping, and the table shrinks. */
import fc from "fast-check";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { columnsOf, fitColumns, renderColumns, tableWidth } from "../../src/reporters/tableParts.js";
import { clipToWidth, displayWidth, elideMiddle, fitToWidth, narrowWidth, wrapWords } from "../../src/reporters/textFit.js";

describe("display width", () => {
  it("counts colour codes as nothing and wide characters as two columns", () => {
    expect(displayWidth("\u001b[33mwarn\u001b[39m")).toBe(4);
    expect(displayWidth("読み込み")).toBe(8);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("11–20 ⏹ …")).toBe(9);
  });

  it("counts an emoji, a skin-toned one and a ZWJ family as the two columns a terminal gives them", () => {
    // The hand-kept ranges this replaced said 1 for the first three, 4 and 6 for the last two.
    for (const emoji of ["🚀", "✅", "⚡", "👍🏽", "👨‍👩‍👧‍👦"]) expect(displayWidth(emoji), emoji).toBe(2);
    expect(displayWidth("ok ✅ done")).toBe(10);
    expect(displayWidth("\u001b[32m👨‍👩‍👧‍👦\u001b[39m family")).toBe(9);
  });

  it("clips between grapheme clusters, never inside an emoji sequence", () => {
    expect(clipToWidth("👨‍👩‍👧‍👦👨‍👩‍👧‍👦 x", 4)).toBe("👨‍👩‍👧‍👦…");
    expect(clipToWidth("a👍🏽b", 3)).toBe("a…");
    expect(clipToWidth("\u001b[1mca\u0301fe\u0301 au lait\u001b[22m", 5)).toBe("ca\u0301fe\u0301…");
  });

  it("clips to a width with a mark, never past it", () => {
    expect(clipToWidth("command_status", 8)).toBe("command…");
    expect(clipToWidth("読み込み", 5)).toBe("読み…");
    expect(clipToWidth("short", 8)).toBe("short");
  });
});

/** Every code point the narrow shortcut accepts (NARROW in textFit.ts). */
const NARROW_POINTS = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, i) => 0xa0 + i).filter((c) => c !== 0xad),
  ...Array.from({ length: 0x2028 - 0x2010 }, (_, i) => 0x2010 + i),
].map((c) => String.fromCodePoint(c));

describe("the narrow-text shortcut", () => {
  it("is taken by the text reports are made of", () => {
    for (const text of ["11–20 /state/s-1.jsonl:22 read generic_repeat warning ×2 10", "looplens 0.1.0 — rolling detectors on", "run r · agent main", "ends “quoted” …", ""]) {
      expect(narrowWidth(text), text).toBe(text.length);
    }
  });

  it("is not taken where string-width must look", () => {
    for (const text of ["読み", "e\u0301", "soft\u00adhyphen", "zero\u200bwidth", "🚀", "⏹", "tab\there"]) expect(narrowWidth(text), text).toBeUndefined();
  });

  it("agrees with string-width on every code point it accepts, each its own grapheme cluster", () => {
    const clusters = [...new Intl.Segmenter().segment(NARROW_POINTS.join(""))].map((s) => s.segment);
    expect(clusters).toEqual(NARROW_POINTS);
    for (const char of NARROW_POINTS) expect([char, narrowWidth(char), stringWidth(char)]).toEqual([char, 1, 1]);
  });

  it("agrees with string-width on any text of those code points", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...NARROW_POINTS), { maxLength: 40 }), (chars) => {
        const text = chars.join("");
        expect(narrowWidth(text)).toBe(stringWidth(text));
        expect(displayWidth(text)).toBe(stringWidth(text));
        const cut = clipToWidth(text, 7);
        expect(displayWidth(cut)).toBeLessThanOrEqual(7);
      }),
      { numRuns: 500 },
    );
  });

  it("elides the middle of narrow text as a walk of its grapheme clusters does", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...NARROW_POINTS), { maxLength: 60 }), fc.integer({ min: 0, max: 64 }), (chars, width) => {
        const text = chars.join("");
        expect(elideMiddle(text, width)).toBe(elidedByClusters(text, width));
      }),
      { numRuns: 1000 },
    );
  });
});

/** elideMiddle as it measures text that is not narrow: cluster by cluster, the end first. */
function elidedByClusters(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  if (width <= 1) return "…";
  const chars = [...new Intl.Segmenter().segment(text)].map(({ segment }) => segment);
  const room = width - 1;
  let used = 0;
  let tail = "";
  for (let i = chars.length - 1; i >= 0 && used + stringWidth(chars[i]!) <= Math.ceil((room * 2) / 3); i--) {
    tail = chars[i]! + tail;
    used += stringWidth(chars[i]!);
  }
  let head = "";
  for (const char of chars) {
    if (used + stringWidth(char) > room) break;
    head += char;
    used += stringWidth(char);
  }
  return `${head}…${tail}`;
}

describe("word wrapping", () => {
  const text = "command_status(commandId=build-42) returned \"status: running\" unchanged 10–19 times; warns at 10";

  it("breaks only at spaces, every line within the width, the words in order", () => {
    for (const width of [80, 60, 41]) {
      const lines = wrapWords(text, width, "      ");
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(lines.map((line) => line.trim()).join(" ")).toBe(text);
    }
  });

  it("clips a word longer than a whole line instead of splitting it, or keeps it whole on a line of its own", () => {
    expect(wrapWords(`see ${"x".repeat(50)} here`, 20, "  ")).toEqual(["  see", `  ${"x".repeat(17)}…`, "  here"]);
    expect(wrapWords(`see ${"x".repeat(50)} here`, 20, "  ", "  ", true)).toEqual(["  see", `  ${"x".repeat(50)}`, "  here"]);
  });

  it("fitToWidth leaves short lines alone and indents continuations under the line's own indent", () => {
    const out = fitToWidth(`short\n  ${"word ".repeat(20).trim()}`, 30).split("\n");
    expect(out[0]).toBe("short");
    expect(out[1]!.startsWith("  word")).toBe(true);
    expect(out.slice(2).every((line) => line.startsWith("    word"))).toBe(true);
    expect(out.every((line) => line.length <= 30)).toBe(true);
  });
});

describe("fitted tables", () => {
  const columns = columnsOf(
    ["call", "tool", "detector", "threshold"],
    [
      ["11–20", "command_status", "known_poll_no_progress", "warningThreshold=10"],
      ["21", "read", "generic_repeat", "criticalThreshold=20"],
    ],
  );
  const shrinks = [
    { kind: "replace", key: "threshold", head: "limit", cells: ["10", "20"] },
    { kind: "clip", key: "tool", min: 6 },
    { kind: "drop", key: "detector" },
  ] as const;

  it("applies no shrink when the table fits", () => {
    const fitted = fitColumns(columns, 100, shrinks);
    expect(fitted.applied).toEqual([]);
    expect(renderColumns(fitted.columns, false)[1]!.trimEnd()).toBe(" 11–20 command_status known_poll_no_progress warningThreshold=10");
  });

  it("applies shrinks in order, only as many as needed", () => {
    const fitted = fitColumns(columns, 46, shrinks);
    expect(fitted.applied.map((s) => s.kind)).toEqual(["replace", "clip"]);
    expect(tableWidth(fitted.columns)).toBe(46);
    expect(renderColumns(fitted.columns, false).map((line) => line.trimEnd())).toEqual([
      " call  tool       detector               limit",
      " 11–20 command_s… known_poll_no_progress 10",
      " 21    read       generic_repeat         20",
    ]);
  });

  it("gives a clipped column back the room a later shrink freed", () => {
    const fitted = fitColumns(columns, 40, shrinks);
    expect(fitted.applied.map((s) => s.kind)).toEqual(["replace", "clip", "drop"]);
    // Dropping the detector left room for the whole tool name again.
    expect(renderColumns(fitted.columns, false)[1]!.trimEnd()).toBe(" 11–20 command_status 10");
  });

  it("puts the lines a row asks for under it", () => {
    const lines = renderColumns(columnsOf(["a"], [["x"], ["y"]]), false, (row) => [`  under ${row}`]);
    expect(lines).toEqual([" a", " x", "  under 0", " y", "  under 1"]);
  });
});
