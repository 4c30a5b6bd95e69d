/**
 * Splicing a JSON or NDJSON document (outputSplice.ts): the runs of units left unread come from the
 * kept document, the others from the fresh one, and the result is the document written whole, byte
 * for byte; counts that do not add up are refused.
 */
import { describe, expect, it } from "vitest";
import { itemsSection, linesSection, runsSection, splicedPieces, type SpliceFormat, type SplicedDocument } from "../../../src/pipeline/cache/outputSplice.js";
import { prng } from "../../helpers/randomSessions.js";

/**
 * A document laid out as reporters/json.ts writes it: head, runs, then a tail with an array of
 * objects of its own. `total`: the runs its summary counts (a fresh document counts the unread ones too).
 */
function documentOf(runs: readonly object[], tag: string, total = runs.length): string {
  const diagnostics = [{ file: `${tag}.jsonl`, line: 3, reason: "bad line\n    {not a run}" }];
  return `${JSON.stringify({ version: tag, summary: { runs: total, nested: [{ a: 1 }] }, runs, diagnostics }, null, 2)}\n`;
}

/** A run with text that looks like layout when unescaped, and findings (objects nested in arrays). */
function run(unit: number, index: number, version: string): object {
  return { run: `u${unit}-r${index}`, prompt: `line\n    {\n  ]`, version, findings: index % 2 === 0 ? [{ level: "warning", detail: { n: index } }] : [] };
}

/** An NDJSON document: one line per item. */
const linesOf = (items: readonly object[]) => items.map((item) => `${JSON.stringify(item)}\n`).join("");

function parsed(text: string, items: number, format: SpliceFormat = "json"): SplicedDocument {
  const doc = Buffer.from(text);
  const section = itemsSection(format, doc, items);
  if (section === undefined) throw new Error("no items section");
  return { doc, section };
}

describe("a spliced JSON document", () => {
  it("is the document written whole, over random units, growths and empty units", () => {
    const random = prng(38);
    for (let round = 0; round < 200; round++) {
      const units = Array.from({ length: 1 + Math.floor(random() * 6) }, () => Math.floor(random() * 4));
      // Each unit is analysed again (fresh, maybe with more or fewer runs) or left unread.
      const fresh = units.map(() => random() < 0.4);
      const now = units.map((runs, u) => (fresh[u] ? Math.floor(random() * 5) : runs));
      const keptRuns = units.flatMap((runs, u) => Array.from({ length: runs }, (_, i) => run(u, i, "old")));
      const freshRuns = now.flatMap((runs, u) => (fresh[u] ? Array.from({ length: runs }, (_, i) => run(u, i, "new")) : []));
      const whole = now.flatMap((runs, u) => Array.from({ length: runs }, (_, i) => run(u, i, fresh[u] ? "new" : "old")));
      const kept = parsed(documentOf(keptRuns, "old"), keptRuns.length);
      const made = parsed(documentOf(freshRuns, "new", whole.length), freshRuns.length);
      const shares = now.map((items, u) => ({ items, unread: !fresh[u] }));
      const pieces = splicedPieces("json", made, kept, units, shares);
      expect(pieces, `round ${round}`).toBeDefined();
      expect(Buffer.concat(pieces!).toString(), `round ${round}: units ${units.join(",")}, fresh ${fresh.join(",")}`).toBe(documentOf(whole, "new"));
      // The same units' items as NDJSON lines.
      const lines = splicedPieces("ndjson", parsed(linesOf(freshRuns), freshRuns.length, "ndjson"), parsed(linesOf(keptRuns), keptRuns.length, "ndjson"), units, shares);
      expect(Buffer.concat(lines!).toString(), `round ${round} (ndjson)`).toBe(linesOf(whole));
    }
  });

  it("joins the runs of adjacent unread units into one piece", () => {
    const kept = parsed(documentOf([run(0, 0, "old"), run(1, 0, "old"), run(2, 0, "old")], "old"), 3);
    const made = parsed(documentOf([run(3, 0, "new")], "new"), 1);
    const shares = [0, 1, 2].map(() => ({ items: 1, unread: true })).concat({ items: 1, unread: false });
    // The head, the three kept runs, a comma, the fresh run, the closing and the tail.
    expect(splicedPieces("json", made, kept, [1, 1, 1, 0], shares)).toHaveLength(6);
  });

  it("is refused when the counts do not add up", () => {
    const kept = parsed(documentOf([run(0, 0, "old"), run(1, 0, "old")], "old"), 2);
    const made = parsed(documentOf([run(1, 0, "new")], "new"), 1);
    // An unread unit whose entry counts other runs than the kept output wrote.
    expect(splicedPieces("json", made, kept, [1, 1], [{ items: 2, unread: true }, { items: 1, unread: false }])).toBeUndefined();
    // Fresh runs the units do not account for (live runs, written after the replayed ones).
    expect(splicedPieces("json", made, kept, [1, 1], [{ items: 1, unread: true }, { items: 0, unread: false }])).toBeUndefined();
    // Another number of units.
    expect(splicedPieces("json", made, kept, [2], [{ items: 2, unread: true }])).toBeUndefined();
  });

  it("finds a document's runs only where their count is what was kept", () => {
    const text = documentOf([run(0, 0, "old"), run(0, 1, "old")], "old");
    expect(runsSection(Buffer.from(text), 2)?.starts).toHaveLength(2);
    expect(runsSection(Buffer.from(text), 3)).toBeUndefined();
    expect(runsSection(Buffer.from(documentOf([], "old")), 0)?.starts).toEqual([]);
    expect(runsSection(Buffer.from("{}\n"), 0)).toBeUndefined();
    expect(linesSection(Buffer.from("a\nb\n"), 2)?.starts).toEqual([0, 2]);
    expect(linesSection(Buffer.from("a\nb\n"), 1)).toBeUndefined();
    expect(linesSection(Buffer.from("a\nb"), 2), "a cut-off last line").toBeUndefined();
    expect(linesSection(Buffer.alloc(0), 0)?.starts).toEqual([]);
  });
});
