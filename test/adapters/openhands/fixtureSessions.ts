/** The scenarios of the project's OpenHands fixtures (fixtures/agents/openhands/, in both versions; fixtures/agents/openhands-eval/). */
import type { InstanceSpec } from "./evalWriters.js";
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

const passingTests: CallSpec = { tool: "execute_bash", args: { command: "pytest tests/test_app.py" }, outcome: { kind: "result", text: "3 passed", details: { command: "pytest tests/test_app.py" } } };

/**
 * An evaluation's output.jsonl: an instance whose agent runs the failing tests twelve times, six of
 * them after the harness's "please continue" (its second user message: still the one run); a
 * healthy instance; one that failed before its agent acted (an error, an empty history).
 */
export const EVAL_FIXTURE: readonly InstanceSpec[] = [
  { session: { id: "django__django-11099", runs: [repeat(6, failingTests), repeat(6, failingTests)] } },
  { session: { id: "astropy__astropy-12907", runs: [[{ kind: "calls", calls: [viewA], reversedResults: false }, { kind: "noise" }, { kind: "calls", calls: [viewB], reversedResults: false }, { kind: "calls", calls: [passingTests], reversedResults: false }]] } },
  { session: { id: "sympy__sympy-20590", runs: [] }, error: "RuntimeError: Agent reached maximum retries: the runtime container did not start" },
];
