/** The scenarios of the project's OpenHands fixtures (fixtures/agents/openhands/), in both versions. */
import type { AbstractSession, CallSpec, Step } from "./openhandsWriters.js";

const repeat = (n: number, call: CallSpec): Step[] => Array.from({ length: n }, () => ({ kind: "calls", calls: [call], reversedResults: false }));
const failingTests: CallSpec = { tool: "execute_bash", args: { command: "npm test" }, outcome: { kind: "error", text: "1 failed" } };
const viewA: CallSpec = { tool: "str_replace_editor", args: { command: "view", path: "/w/a.md" }, outcome: { kind: "result", text: "alpha", details: { path: "/w/a.md" } } };
const viewB: CallSpec = { tool: "str_replace_editor", args: { command: "view", path: "/w/b.md" }, outcome: { kind: "result", text: "beta", details: { path: "/w/b.md" } } };

/** Run 1: a loop of failing tests; run 2: ping-pong; run 3: an unknown tool; run 4: compaction then the same call; run 5: parallel calls; run 6: no calls. */
export const FIXTURE_SESSION: AbstractSession = {
  id: "fixture",
  runs: [
    repeat(12, failingTests),
    Array.from({ length: 12 }, (_, i): Step => ({ kind: "calls", calls: [i % 2 ? viewB : viewA], reversedResults: false })),
    Array.from({ length: 12 }, (): Step => ({ kind: "unknownTool", tool: "browser", args: { url: "https://x.test" } })),
    [...repeat(3, failingTests), { kind: "compaction" }, ...repeat(3, failingTests)],
    [{ kind: "calls", calls: [viewA, viewB, failingTests], reversedResults: true }, { kind: "calls", calls: [viewA, viewB], reversedResults: false }],
    [{ kind: "noise" }],
  ],
};
