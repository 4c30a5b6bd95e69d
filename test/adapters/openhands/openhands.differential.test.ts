/**
 * Random sessions written as OpenHands V0 trajectories, V1 event streams and canonical events:
 * analysing the OpenHands files must give exactly the findings (and runs) of the canonical files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzePaths, comparable } from "../../helpers/inProcess.js";
import { prng } from "../../helpers/randomSessions.js";
import { canonicalText, v0Trajectory, v1Jsonl, type AbstractSession, type CallSpec, type Step } from "./openhandsWriters.js";
import { tempDir } from "../../helpers/tempDir.js";

const PATTERNS: ReadonlyArray<Omit<CallSpec, "outcome"> & { outcomes: ReadonlyArray<CallSpec["outcome"]> }> = [
  { tool: "execute_bash", args: { command: "npm test" }, outcomes: [{ kind: "error", text: "1 failed" }, { kind: "result", text: "ok", details: { command: "npm test" } }] },
  { tool: "execute_bash", args: { command: "ls" }, outcomes: [{ kind: "result", text: "a b", details: { command: "ls" } }] },
  { tool: "str_replace_editor", args: { command: "view", path: "/w/a.md" }, outcomes: [{ kind: "result", text: "alpha", details: { path: "/w/a.md" } }, { kind: "error", text: "File not found" }] },
  { tool: "str_replace_editor", args: { command: "view", path: "/w/b.md" }, outcomes: [{ kind: "result", text: "beta", details: { path: "/w/b.md" } }] },
  { tool: "process", args: { action: "poll", sessionId: "p1" }, outcomes: [{ kind: "result", text: "running", details: { status: "running" } }] },
];

function randomSession(random: () => number, index: number): AbstractSession {
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)]!;
  const call = (pattern: (typeof PATTERNS)[number]): CallSpec => ({
    tool: pattern.tool,
    args: pattern.args,
    outcome: random() < 0.04 ? undefined : random() < 0.85 ? pattern.outcomes[0] : pick(pattern.outcomes),
  });
  const runs = Array.from({ length: int(1, 3) }, () => {
    const favourite = random() < 0.25 ? [PATTERNS[2]!, PATTERNS[3]!] : [pick(PATTERNS)];
    let turn = 0;
    return Array.from({ length: int(4, 30) }, (): Step => {
      const roll = random();
      if (roll < 0.06) return { kind: "compaction" };
      if (roll < 0.1) return { kind: "noise" };
      if (roll < 0.16) return { kind: "unknownTool", tool: "browser", args: { url: "https://x.test" } };
      const size = random() < 0.25 ? int(2, 3) : 1;
      const calls = Array.from({ length: size }, () => call(random() < 0.85 ? favourite[turn++ % favourite.length]! : pick(PATTERNS)));
      return { kind: "calls", calls, reversedResults: size > 1 && random() < 0.5 };
    });
  });
  return { id: `oh-${index}-${int(1000, 9999)}`, runs };
}

describe("OpenHands files and canonical events of the same random sessions", () => {
  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: V0 trajectories and V1 streams give exactly the canonical findings`, async () => {
      const random = prng(seed);
      const sessions = Array.from({ length: 20 }, (_, i) => randomSession(random, i));
      const root = tempDir(`looplens-oh-diff-${seed}-`);
      for (const dir of ["v0", "v1", "c0", "c1"]) mkdirSync(join(root, dir));
      const v0: string[] = [];
      const v1: string[] = [];
      for (const session of sessions) {
        v0.push(join(root, "v0", `${session.id}.json`));
        writeFileSync(v0.at(-1)!, v0Trajectory(session));
        v1.push(join(root, "v1", `${session.id}.jsonl`));
        writeFileSync(v1.at(-1)!, v1Jsonl(session));
        writeFileSync(join(root, "c0", `${session.id}.jsonl`), canonicalText(session, "v0"));
        writeFileSync(join(root, "c1", `${session.id}.jsonl`), canonicalText(session, "v1"));
      }
      for (const [files, canonical] of [[v0, "c0"], [v1, "c1"]] as const) {
        const fromOpenHands = await analyzePaths(files);
        const expected = comparable(await analyzePaths([join(root, canonical)]));
        expect(comparable(fromOpenHands)).toEqual(expected);
        expect(new Set(expected.findings.map((f) => f.split(" ")[5])).size).toBeGreaterThanOrEqual(3);
        const { read, used, ignored, skipped } = fromOpenHands.lines;
        expect(read).toBe(used + ignored + skipped);
        expect(skipped).toBe(0);
        expect(fromOpenHands.files.every((f) => f.format === "openhands")).toBe(true);
      }
    });
  }
});
