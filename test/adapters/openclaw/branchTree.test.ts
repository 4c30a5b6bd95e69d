/**
 * The first pass's tree (branchTree.ts, sessionTree.ts) against a plain model of the format's
 * rules (inputs.md §2 and the decisions in sessionTree.ts): an id → latest line map of every entry,
 * parents resolved as lines are read, the branch walked back from the last entry. Random transcripts
 * with branches back, roots, missing, dangling and malformed parents and repeated ids; the tree is
 * built both ways (every id kept, and the two passes that keep only the ids linked back to).
 */
import { describe, expect, it } from "vitest";
import { textSource } from "../../../src/adapters/io/sources.js";
import { scanSession } from "../../../src/adapters/openclaw/sessionTree.js";
import { prng } from "../../helpers/randomSessions.js";

interface Entry {
  readonly line: number;
  readonly id: string | undefined;
  readonly parent: unknown; // undefined: no parentId key
  readonly user: boolean;
}

function randomTranscript(seed: number): { text: string; entries: Entry[]; lines: number } {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const out = ['{"type":"session","version":3,"id":"s"}'];
  const entries: Entry[] = [];
  const ids: string[] = [];
  const count = 20 + Math.floor(random() * 200);
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.03) {
      out.push(roll < 0.015 ? "" : "{not json");
      continue;
    }
    // Ids mostly fresh, sometimes repeated, sometimes missing.
    const id = random() < 0.05 ? undefined : random() < 0.05 && ids.length ? pick(ids) : `e${i}`;
    const previous = entries.at(-1)?.id;
    const p = random();
    const parent =
      p < 0.6 ? (previous ?? null) : p < 0.75 && ids.length ? pick(ids) : p < 0.8 ? null : p < 0.85 ? undefined : p < 0.9 ? `ghost${i}` : p < 0.93 ? 7 : p < 0.96 ? "  " : previous;
    const user = random() < 0.15;
    const entry: Record<string, unknown> = { type: "message" };
    if (id !== undefined) entry.id = id;
    if (parent !== undefined) entry.parentId = parent;
    entry.message = { role: user ? "user" : "assistant", content: [] };
    out.push(JSON.stringify(entry));
    entries.push({ line: out.length, id, parent, user });
    if (id !== undefined) ids.push(id);
  }
  return { text: out.join("\n") + "\n", entries, lines: out.length };
}

/** The rules, plainly: which lines the active branch holds, and its dangling links. */
function model(entries: readonly Entry[]): { onBranch: Set<number>; dangling: Array<[number, string]> } {
  const lineOfId = new Map<string, number>();
  const parentOf = new Map<number, number>();
  const danglingAt = new Map<number, string>();
  let last = 0;
  const idText = (v: unknown) => (typeof v === "number" ? String(v) : typeof v === "string" && v.trim() !== "" ? v : undefined);
  for (const e of entries) {
    let parent: number;
    if (e.parent === undefined) parent = last;
    else if (e.parent === null) parent = 0;
    else {
      const pid = idText(e.parent);
      const found = pid === undefined ? undefined : lineOfId.get(pid);
      if (found !== undefined) parent = found;
      else {
        danglingAt.set(e.line, pid ?? JSON.stringify(e.parent));
        parent = last;
      }
    }
    parentOf.set(e.line, parent);
    const id = idText(e.id);
    if (id !== undefined) lineOfId.set(id, e.line);
    last = e.line;
  }
  const onBranch = new Set<number>();
  for (let line = last; line !== 0; line = parentOf.get(line)!) onBranch.add(line);
  return { onBranch, dangling: [...danglingAt].filter(([line]) => onBranch.has(line)) };
}

describe("session branch tree", () => {
  it("matches the plain model on random transcripts, keeping every id or only the ids linked back to", async () => {
    for (let seed = 1; seed <= 150; seed++) {
      const { text, entries, lines } = randomTranscript(seed);
      const expected = model(entries);
      for (const allIdsLimit of [undefined, 3, 0]) {
        for (const fromBytes of [true, false]) {
          const scan = await scanSession(textSource("t.jsonl", text), { activeBranch: true, fromBytes, allIdsLimit });
          const onBranch = entries.filter((e) => scan.replayed(e.line)).map((e) => e.line);
          expect(onBranch, `seed ${seed}, limit ${allIdsLimit}`).toEqual([...expected.onBranch].sort((a, b) => a - b));
          expect(scan.dangling.map((d) => d.line)).toEqual(expected.dangling.map(([line]) => line));
          expect(lines).toBeGreaterThan(0);
        }
      }
    }
  });
});
