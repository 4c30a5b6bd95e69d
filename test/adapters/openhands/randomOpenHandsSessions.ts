/** Random agent sessions over a few tool patterns (loops, ping-pong, unknown tools, compactions, parallel calls), for the differential tests. */
import type { AbstractSession, CallSpec, Step } from "./openhandsWriters.js";

const PATTERNS: ReadonlyArray<Omit<CallSpec, "outcome"> & { outcomes: ReadonlyArray<CallSpec["outcome"]> }> = [
  { tool: "execute_bash", args: { command: "npm test" }, outcomes: [{ kind: "error", text: "1 failed" }, { kind: "result", text: "ok", details: { command: "npm test" } }] },
  { tool: "execute_bash", args: { command: "ls" }, outcomes: [{ kind: "result", text: "a b", details: { command: "ls" } }] },
  { tool: "str_replace_editor", args: { command: "view", path: "/w/a.md" }, outcomes: [{ kind: "result", text: "alpha", details: { path: "/w/a.md" } }, { kind: "error", text: "File not found" }] },
  { tool: "str_replace_editor", args: { command: "view", path: "/w/b.md" }, outcomes: [{ kind: "result", text: "beta", details: { path: "/w/b.md" } }] },
  { tool: "process", args: { action: "poll", sessionId: "p1" }, outcomes: [{ kind: "result", text: "running", details: { status: "running" } }] },
];

export function randomSession(random: () => number, index: number): AbstractSession {
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
