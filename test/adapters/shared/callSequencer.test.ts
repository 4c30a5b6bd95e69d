/**
 * The call sequencer (inputs.md §2): the calls of one model response are replayed one after another,
 * each followed by its own result, whatever order the results were written in.
 */
import { describe, expect, it } from "vitest";
import { CallSequencer, type SequencedCall, type SequencedResult } from "../../../src/adapters/shared/callSequencer.js";

function sequencer() {
  const out: string[] = [];
  const s = new CallSequencer({ call: (c) => void out.push(`call ${c.id}`), result: (r) => void out.push(`result ${r.id}`) });
  const call = (group: string, id: string) => s.call(group, { line: 1, id, tool: "read", args: {}, form: "text" } satisfies SequencedCall);
  const result = (id: string) => s.result({ line: 2, id, tool: "read", outcome: { result: {} }, form: "text" } satisfies SequencedResult);
  return { out, s, call, result };
}

describe("call sequencer", () => {
  it("all calls first, results in reverse: each call is followed by its own result", () => {
    const { out, s, call, result } = sequencer();
    call("m1", "a");
    call("m1", "b");
    call("m1", "c");
    expect(result("c")).toBe(true);
    expect(result("b")).toBe(true);
    expect(result("a")).toBe(true);
    s.flush();
    expect(out).toEqual(["call a", "result a", "call b", "result b", "call c", "result c"]);
  });

  it("a later call of the same response after the earlier results (one line per call) is shown, not lost", () => {
    const { out, s, call, result } = sequencer();
    call("m1", "a");
    expect(result("a")).toBe(true);
    call("m1", "b"); // the same response, written after a's result
    expect(result("b")).toBe(true);
    call("m1", "c");
    s.flush();
    expect(out).toEqual(["call a", "result a", "call b", "result b", "call c"]);
  });

  it("a result that answers no call of the group is left to the caller", () => {
    const { out, call, result } = sequencer();
    call("m1", "a");
    expect(result("zz")).toBe(false);
    expect(out).toEqual(["call a"]);
  });
});
