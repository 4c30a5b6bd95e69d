/** Reading a file's head for fork tags (shared/forkHeads.ts): which lines a tagger is handed. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { forkTagOf, type ForkTagger } from "../../../src/adapters/shared/forkHeads.js";

const dir = mkdtempSync(join(tmpdir(), "looplens-fork-heads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The lengths of the lines a tagger that never decides is handed, and whether it saw the head's end. */
function linesSeen(content: string): { lengths: number[]; ended: boolean } {
  const path = join(dir, "head.jsonl");
  writeFileSync(path, content);
  const seen = { lengths: [] as number[], ended: false };
  const tagger: ForkTagger = () => (line) => {
    if (line === undefined) seen.ended = true;
    else seen.lengths.push(line.text.length);
    return undefined;
  };
  expect(forkTagOf(path, [tagger])).toBeUndefined();
  return seen;
}

describe("a file's head", () => {
  it("is its lines up to 1 MB, the line that crosses it read to its end", () => {
    const long = 600_000;
    expect(linesSeen(`${"a".repeat(long)}\n${"b".repeat(long)}\n${"c".repeat(10)}\n`)).toEqual({ lengths: [long, long], ended: true });
    // Ending on the limit, or with the file: no line more, none cut.
    expect(linesSeen(`${"a".repeat((1 << 20) - 1)}\nnext\n`)).toEqual({ lengths: [(1 << 20) - 1], ended: true });
    expect(linesSeen(`short\n${"b".repeat(1_500_000)}`)).toEqual({ lengths: [5, 1_500_000], ended: true });
  });

  it("is at most 64 non-blank lines", () => {
    expect(linesSeen("{}\n\n".repeat(100)).lengths).toHaveLength(64);
  });
});
