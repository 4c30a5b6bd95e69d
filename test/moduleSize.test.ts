/**
 * No module of src grows past 330 lines (issue 35): past that a file holds more than one concept,
 * and is split by concept (not cut in half) before it grows further.
 */
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { sourcesUnder } from "./helpers/sourceFiles.js";

const MOST_LINES = 330;

/** Lines as an editor numbers them: `wc -l`'s count, and a last line without its newline. */
function lineCount(text: string): number {
  return text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("module size", () => {
  it(`no source file is over ${MOST_LINES} lines`, () => {
    const src = resolve("src");
    const sources = sourcesUnder(src);
    expect(sources.length).toBeGreaterThan(100);
    const over = sources
      .map((file) => ({ file: relative(src, file), lines: lineCount(readFileSync(file, "utf8")) }))
      .filter(({ lines }) => lines > MOST_LINES);
    expect(over).toEqual([]);
  });

  it("counts lines as an editor numbers them", () => {
    expect([lineCount(""), lineCount("a\n"), lineCount("a\nb"), lineCount("a\nb\n")]).toEqual([0, 1, 2, 2]);
  });
});
