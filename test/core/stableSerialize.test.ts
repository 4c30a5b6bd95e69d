/** The JavaScript fine points of hashing: numbers, undefined vs null, lone surrogates, key order, depth. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stableSerialize } from "../../src/core/stableSerialize.js";
import { hashing } from "../helpers/replay.js";

const argsHash = (args: unknown) => hashing.argsHash("tool", args, "text");

/** `depth` objects nested under key `k`, around `leaf`. */
function nest(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown = (inner) => ({ k: inner })): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

describe("numbers", () => {
  it("1 and 1.0 are one number, as are -0 and 0", () => {
    expect(argsHash(JSON.parse('{"n":1.0}'))).toBe(argsHash({ n: 1 }));
    expect(argsHash(JSON.parse('{"n":-0}'))).toBe(argsHash({ n: 0 }));
    expect(argsHash({ n: 1e21 })).toBe(argsHash(JSON.parse('{"n":1000000000000000000000}')));
    expect(argsHash({ n: 1 })).not.toBe(argsHash({ n: "1" }));
  });
});

describe("undefined and null", () => {
  it("absent args differ from null args", () => {
    expect(argsHash(undefined)).not.toBe(argsHash(null));
    expect(argsHash(undefined)).not.toBe(argsHash("~"));
  });

  it("an undefined value differs from null", () => {
    expect(stableSerialize({ a: undefined }, undefined, undefined, "text")).not.toBe(stableSerialize({ a: null }, undefined, undefined, "text"));
    expect(stableSerialize([undefined], undefined, undefined, "text")).not.toBe(stableSerialize([null], undefined, undefined, "text"));
  });
});

describe("lone surrogates", () => {
  it("are dropped from strings and keys", () => {
    expect(argsHash({ s: "a\uD800b" })).toBe(argsHash({ s: "ab" }));
    expect(argsHash({ s: "\uDC00ab" })).toBe(argsHash({ s: "ab" }));
    expect(argsHash({ ["k\uDBFF"]: 1 })).toBe(argsHash({ k: 1 }));
  });

  it("keep well-formed pairs", () => {
    expect(argsHash({ s: "\uD83D\uDE00" })).not.toBe(argsHash({ s: "" }));
    expect(argsHash({ s: "\uD83D\uDE00" })).toBe(argsHash({ s: "😀" }));
  });
});

describe("key order", () => {
  it("is irrelevant at every depth (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), (value, seed) => {
        expect(stableSerialize(reorderKeys(value, seed), undefined, undefined, "text")).toBe(stableSerialize(value, undefined, undefined, "text"));
      }),
      { numRuns: 200 },
    );
  });

  it("sorts keys by UTF-16 code units, like Array.prototype.sort", () => {
    expect(stableSerialize({ b: 1, a: 2, B: 3, "10": 4, "9": 5 }, undefined, undefined, "text")).toBe('{"10":4,"9":5,"B":3,"a":2,"b":1}');
  });
});

/** The same value with every object's keys inserted in a different order. */
function reorderKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v) => reorderKeys(v, seed));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  const rotated = entries.length ? entries.map((_, i) => entries[(i + Math.abs(seed)) % entries.length]!) : entries;
  if (seed % 2) rotated.reverse();
  return Object.fromEntries(rotated.map(([k, v]) => [k, reorderKeys(v, seed)]));
}

describe("deep nesting", () => {
  it("50 000 nested objects or arrays hash without throwing, deterministically", () => {
    const objects = argsHash(nest(50_000, 1));
    expect(objects).toBe(argsHash(nest(50_000, 1)));
    expect(objects).not.toBe(argsHash(nest(49_999, 1)));
    const arrays = (leaf: number) => argsHash(nest(50_000, leaf, (inner) => [inner]));
    expect(arrays(1)).not.toBe(arrays(2));
  });

  it("deep values serialize exactly as shallow ones would (the explicit-stack path matches)", () => {
    const inner = { z: [1, "two", null, { y: "\uD800x", b: [true] }], a: {} };
    const depth = 5_000;
    const expected = '{"k":'.repeat(depth) + stableSerialize(inner, undefined, undefined, "text") + "}".repeat(depth);
    expect(stableSerialize(nest(depth, inner), undefined, undefined, "text")).toBe(expected);
  });

  it("deep results hash too, and a send's volatile keys are dropped even deep down", () => {
    const details = (id: string) => nest(10_000, { messageId: id, ok: true });
    const hash = (id: string) =>
      hashing.outcomeHash("message", { action: "send" }, { kind: "result", value: { details: details(id) } }, "text").resultHash;
    expect(hash("m-1")).toBe(hash("m-2"));
    const error = (leaf: string) => hashing.outcomeHash("read", {}, { kind: "error", value: nest(10_000, leaf) }, "text").resultHash;
    expect(error("a")).not.toBe(error("b"));
  });
});
