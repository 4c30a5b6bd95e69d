/** Findings read back from a spill file share their equal values again (pipeline/sharedValues.ts). */
import { describe, expect, it } from "vitest";
import type { ReplayedFinding } from "../../src/core/findings.js";
import { SharedValues } from "../../src/pipeline/sharedValues.js";

const finding = (call: number, threshold: ReplayedFinding["threshold"], preview?: ReplayedFinding["preview"]): ReplayedFinding => ({
  run: "r",
  agent: null,
  session: "s",
  file: "f.jsonl",
  line: call * 2,
  call,
  tool: "read",
  detector: "generic_repeat",
  level: "critical",
  count: call - 1,
  threshold,
  afterStop: call > 21,
  message: `called ${call - 1} times`,
  argsHash: "read:1",
  ...(preview && { preview }),
});

describe("SharedValues", () => {
  it("makes equal thresholds and previews one object, and keeps unequal ones apart (a null result is not \"null\")", () => {
    // As JSON.parse hands them: every object its own.
    const parsed = JSON.parse(
      JSON.stringify([
        finding(21, { name: "criticalThreshold", value: 20 }, { args: "path=/a", result: null, error: false }),
        finding(22, { name: "criticalThreshold", value: 20 }, { args: "path=/a", result: null, error: false }),
        finding(23, { name: "criticalThreshold", value: 20 }, { args: "path=/a", result: "null", error: false }),
        finding(24, { name: "warningThreshold", value: 20 }),
      ]),
    ) as ReplayedFinding[];
    const before = JSON.stringify(parsed);
    const shared = new SharedValues().findings(parsed);
    expect(JSON.stringify(shared)).toBe(before);
    expect(shared[1]!.threshold).toBe(shared[0]!.threshold);
    expect(shared[2]!.threshold).toBe(shared[0]!.threshold);
    expect(shared[3]!.threshold).not.toBe(shared[0]!.threshold);
    expect(shared[1]!.preview).toBe(shared[0]!.preview);
    expect(shared[2]!.preview).not.toBe(shared[0]!.preview);
    expect(shared[2]!.preview!.result).toBe("null");
    expect(shared[0]!.preview!.result).toBeNull();
    expect(shared[3]!.preview).toBeUndefined();
  });
});
