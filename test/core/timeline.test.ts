/**
 * Per-call timelines (core/timeline.ts): collected by replay only when asked, in the smallest form
 * the HTML report draws (a tool index per call, the calls made before each compaction).
 */
import { describe, expect, it } from "vitest";
import { createHashing } from "../../src/core/hashing.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { Replayer } from "../../src/core/replay.js";
import { call, repeat, result, textResult, type EventLine } from "../helpers/events.js";
import { configWith, identityDigest, toLoopEvents } from "../helpers/replay.js";

function replay(lines: readonly EventLine[], timelines: boolean) {
  const preparer = new EventPreparer(createHashing(identityDigest));
  const replayer = new Replayer(() => configWith(), undefined, { timelines });
  for (const event of toLoopEvents(lines)) {
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared);
  }
  return replayer.finish();
}

const session: EventLine[] = [
  { type: "run_start", run: "r1" },
  call("r1", "a", "read", { path: "x" }),
  result("r1", "a", "read", textResult("x")),
  call("r1", "b", "exec", { cmd: "make" }),
  result("r1", "b", "exec", textResult("ok")),
  { type: "compaction", run: "r1" },
  call("r1", "c", "read", { path: "y" }),
  call("r2", "d", "web_search", { q: "z" }),
  { type: "compaction", run: "r1" },
  call("r1", "e", "exec", { cmd: "make" }),
];

describe("run timelines", () => {
  it("record each call's tool as an index into the run's tools, and the calls before each compaction", () => {
    const [r1, r2] = replay(session, true);
    expect(r1!.timeline).toEqual({ tools: ["read", "exec"], callTools: [0, 1, 0, 1], compactionsAfter: [2, 3] });
    expect(r2!.timeline).toEqual({ tools: ["web_search"], callTools: [0], compactionsAfter: [] });
    expect(r1!.timeline!.callTools.length).toBe(r1!.calls);
  });

  it("are not collected unless asked for: runs carry no timeline field at all", () => {
    for (const run of replay(session, false)) expect(Object.keys(run)).not.toContain("timeline");
  });

  it("go on when a run resumes after its end, with the tools it had", () => {
    const lines = [...repeat(2, "r1", "read", { p: 1 }, textResult("same")), { type: "run_end", run: "r1" }, call("r1", "z", "exec", {}), call("r1", "y", "read", { p: 2 })];
    const [run] = replay(lines, true);
    expect(run!.calls).toBe(4);
    expect(run!.timeline).toEqual({ tools: ["read", "exec"], callTools: [0, 0, 1, 0], compactionsAfter: [] });
  });

  it("do not change what replay finds", () => {
    const loop = repeat(25, "r1", "exec", { cmd: "make" }, textResult("failed"));
    const strip = (runs: ReturnType<typeof replay>) => runs.map(({ timeline: _timeline, ...run }) => run);
    expect(strip(replay(loop, true))).toEqual(strip(replay(loop, false)));
    expect(replay(loop, true)[0]!.findings.length).toBeGreaterThan(0);
  });
});
