/**
 * What the detectors measure over a run's records (detection.md "The rolling detectors"): unknown
 * streak, no-progress streak, ping-pong count and its no-progress evidence, recent count.
 */
import { describe, expect, it } from "vitest";
import { measure } from "../../src/core/detectors.js";
import { CONFIGURABLE_VERDICTS } from "../../src/core/profiles/configurable.js";
import type { CallRecord } from "../../src/core/history.js";

/** A record `tool:args`, answered with `result` (omit for a pending call), maybe an unknown-tool failure. */
function rec(signature: string, result?: string, unknownTool?: string): CallRecord {
  const tool = signature.split(":")[0]!;
  return {
    tool,
    argsHash: signature,
    run: "r",
    ...(result !== undefined ? { resultHash: result } : {}),
    ...(unknownTool !== undefined ? { unknownTool } : {}),
  };
}
const times = (n: number, make: (i: number) => CallRecord) => Array.from({ length: n }, (_, i) => make(i));
const probe = (history: CallRecord[], signature: string) => measure(history, { tool: signature.split(":")[0]!, argsHash: signature, knownPoll: false }, CONFIGURABLE_VERDICTS);

describe("unknown streak", () => {
  const fail = (name = "browser") => rec("browser:a", "error:x", name);

  it("counts the newest consecutive records of the tool failing with one unknown-tool name", () => {
    const signals = probe(times(4, () => fail()), "browser:b");
    expect([signals.unknownStreak, signals.unknownTool]).toEqual([4, "browser"]);
  });

  it("counts across different arguments of the same tool", () => {
    expect(probe([rec("browser:a", "e", "browser"), rec("browser:b", "e", "browser")], "browser:c").unknownStreak).toBe(2);
  });

  it("stops at a different unknown-tool name", () => {
    expect(probe([fail(), fail(), fail("other"), fail(), fail()], "browser:a").unknownStreak).toBe(2);
  });

  it("stops at a record of another tool or one that did not fail that way", () => {
    expect(probe([fail(), fail(), rec("read:x", "ok"), fail()], "browser:a").unknownStreak).toBe(1);
    expect(probe([fail(), fail(), rec("browser:a", "ok"), fail()], "browser:a").unknownStreak).toBe(1);
  });

  it("is broken by a pending record (no outcome yet)", () => {
    expect(probe([fail(), fail(), fail(), rec("browser:a")], "browser:a").unknownStreak).toBe(0);
  });

  it("is the incoming tool's: another tool's failures do not count", () => {
    expect(probe(times(5, () => fail()), "read:x").unknownStreak).toBe(0);
  });
});

describe("no-progress streak", () => {
  it("counts how many of the newest answered same-signature records share the newest one's result", () => {
    expect(probe([rec("read:a", "1"), rec("read:a", "2"), rec("read:a", "2"), rec("read:a", "2")], "read:a").noProgress).toBe(3);
  });

  it("skips other signatures and unanswered records", () => {
    const history = [rec("read:a", "2"), rec("read:b", "9"), rec("read:a"), rec("write:a", "2"), rec("read:a", "2"), rec("read:a")];
    expect(probe(history, "read:a").noProgress).toBe(2);
  });

  it("is 0 with no answered record of the signature, 1 after one", () => {
    expect(probe([rec("read:a"), rec("read:b", "1")], "read:a").noProgress).toBe(0);
    expect(probe([rec("read:a", "1"), rec("read:b", "1")], "read:a").noProgress).toBe(1);
  });
});

describe("ping-pong", () => {
  const alternate = (n: number, result = (side: string, _i: number): string | undefined => `${side}-result`) =>
    times(n, (i) => {
      const side = i % 2 === 0 ? "read:A" : "read:B";
      return rec(side, result(side, i));
    });

  it("counts the alternating tail plus the incoming call when the probe is the other side", () => {
    // A,B,A,B: L = B, O = A; the probe A continues the alternation.
    expect(probe(alternate(4), "read:A").pingPong).toBe(5);
    expect(probe(alternate(5), "read:B").pingPong).toBe(6);
  });

  it("is 0 when the probe repeats the newest side or is a third signature", () => {
    expect(probe(alternate(4), "read:B").pingPong).toBe(0);
    expect(probe(alternate(4), "read:C").pingPong).toBe(0);
  });

  it("needs a tail of at least two and an O at all", () => {
    expect(probe([rec("read:A", "1")], "read:B").pingPong).toBe(0);
    expect(probe([rec("read:A", "1"), rec("read:A", "1")], "read:B").pingPong).toBe(0);
    expect(probe([rec("read:A", "1"), rec("read:B", "1")], "read:A").pingPong).toBe(3);
  });

  it("O is the newest earlier record whose signature differs, and the tail stops where the alternation breaks", () => {
    // A,A,B: L = B, O = A, tail = B,A (2) → 3.
    expect(probe([rec("read:A", "1"), rec("read:A", "1"), rec("read:B", "2")], "read:A").pingPong).toBe(3);
    // C,B,A,B,A: L = A, O = B, tail = A,B,A,B (4) → 5; the C before does not count.
    const history = [rec("read:C", "c"), ...alternate(4).map((r) => ({ ...r, argsHash: r.argsHash === "read:A" ? "read:B" : "read:A" }))];
    expect(probe(history, "read:B").pingPong).toBe(5);
  });

  it("alternates on signatures: one tool with two argument sets, or two tools", () => {
    const twoTools = times(6, (i) => (i % 2 === 0 ? rec("read:x", "1") : rec("write:x", "2")));
    expect(measure(twoTools, { tool: "read", argsHash: "read:x", knownPoll: false }, CONFIGURABLE_VERDICTS).pingPong).toBe(7);
  });

  it("has no-progress evidence only if every tail record is answered and each side is stable", () => {
    expect(probe(alternate(6), "read:A").pingPongNoProgress).toBe(true);
    // One side's result changes.
    expect(probe(alternate(6, (side, i) => (side === "read:A" ? `a${i}` : "b")), "read:A").pingPongNoProgress).toBe(false);
    expect(probe(alternate(6, (side, i) => (side === "read:B" && i === 5 ? "b2" : side)), "read:A").pingPongNoProgress).toBe(false);
    // A pending record in the tail.
    expect(probe(alternate(6, (side, i) => (i === 2 ? undefined : side)), "read:A").pingPongNoProgress).toBe(false);
  });

  it("ignores results before the tail", () => {
    const history = [rec("read:A", "different"), rec("read:C", "c"), ...alternate(4)];
    const signals = probe(history, "read:A");
    expect([signals.pingPong, signals.pingPongNoProgress]).toEqual([5, true]);
  });
});

describe("recent count", () => {
  it("counts every record with the signature, answered or not, whatever the result", () => {
    const history = [rec("read:a", "1"), rec("read:a"), rec("read:b", "1"), rec("read:a", "2"), rec("write:a", "1")];
    expect(probe(history, "read:a").recentCount).toBe(3);
  });
});

describe("known poll", () => {
  it("is passed through from the call", () => {
    expect(measure([], { tool: "process", argsHash: "process:x", knownPoll: true }, CONFIGURABLE_VERDICTS).knownPoll).toBe(true);
    expect(measure([], { tool: "process", argsHash: "process:x", knownPoll: false }, CONFIGURABLE_VERDICTS).knownPoll).toBe(false);
  });
});
