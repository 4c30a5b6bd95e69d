/** How results are linked to calls (inputs.md §1: "`id` links a result to its call"). */
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../src/core/events.js";
import { createHashing } from "../src/core/hashing.js";
import { EventPreparer } from "../src/core/prepare.js";

const at = (line: number) => ({ file: "f.jsonl", line, run: "r1" });

describe("result linking", () => {
  it("does not give a duplicate result (its id already answered) to an id-less call of the same tool", () => {
    const preparer = new EventPreparer(createHashing((text) => text));
    const events: LoopEvent[] = [
      { type: "tool_call", ...at(1), tool: "read", args: { path: "a" } },
      { type: "tool_call", ...at(2), id: "c2", tool: "read", args: { path: "b" } },
      { type: "tool_result", ...at(3), tool: "read", result: "b" }, // no id: the newest pending read, c2
      { type: "tool_result", ...at(4), id: "c2", tool: "read", result: "b" }, // c2 again: a duplicate
    ];
    const dispositions = events.map((event) => preparer.prepare(event));
    const third = dispositions[2]!;
    expect(third.used && third.prepared.type === "outcome" && third.prepared.call).toBe(2);
    expect(dispositions[3]).toEqual({ used: false, reason: 'result (id "c2") answers a call that already has a result; not replayed' });
  });
});
