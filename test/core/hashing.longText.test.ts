/**
 * Long strings are hashed on their own inside a value's serialization (a speed-up): hash equality
 * must still be exactly the equality of the full stable serialization.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { toBytes, type ByteString } from "../../src/core/byteText.js";
import { argsForOutcome, createHashing, type Digest, type Hashing } from "../../src/core/hashing.js";
import { LONG_TEXT, stableSerialize } from "../../src/core/stableSerialize.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";

let digest: Digest;
let hashing: Hashing;
beforeAll(async () => {
  digest = await loadXxhashDigest();
  hashing = createHashing(digest);
});

// Few distinct long strings (so that equal pairs are common), some with lone surrogates.
const longText = fc
  .tuple(fc.constantFrom("a", "é", "\uD800", "🚀", '"', "\n"), fc.integer({ min: LONG_TEXT - 2, max: LONG_TEXT + 3 }), fc.constantFrom("", "x", "\uDC00"))
  .map(([unit, n, tail]) => unit.repeat(n) + tail);
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(longText, fc.constantFrom("", "a", null, 0, 1, true), fc.constant(undefined)),
  node: fc.oneof(
    { depthSize: "small" },
    tie("leaf"),
    fc.array(tie("node"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "c"), tie("node"), { maxKeys: 3 }),
  ),
})).node;

describe("long strings hashed separately", () => {
  it("two args hash equal exactly when their full serializations are equal", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const sameSerialization = stableSerialize(a, undefined, undefined, "text") === stableSerialize(b, undefined, undefined, "text");
        expect(hashing.argsHash("t", a, "text") === hashing.argsHash("t", b, "text")).toBe(sameSerialization);
      }),
      { numRuns: 400 },
    );
  });

  it("drops lone surrogates from long strings too", () => {
    const text = "z".repeat(LONG_TEXT + 10);
    expect(hashing.argsHash("t", { text: `${text}\uD800` }, "text")).toBe(hashing.argsHash("t", { text }, "text"));
    expect(hashing.argsHash("t", { text: `${text}\uFFFD` }, "text")).not.toBe(hashing.argsHash("t", { text }, "text"));
  });

  it("a digested long string never equals a short string spelling out a digest", () => {
    const long = "q".repeat(LONG_TEXT + 1);
    const spelled = stableSerialize({ v: long }, undefined, digest, "text");
    expect(spelled).not.toContain(long);
    expect(hashing.argsHash("t", { v: long }, "text")).not.toBe(hashing.argsHash("t", { v: `#${JSON.stringify(digest(toBytes(long), "bytes"))}` }, "text"));
  });
});

describe("xxhash digest", () => {
  it("hashes huge texts in slices to the digest of their whole UTF-8, in either form", async () => {
    const { default: xxhash } = await import("xxhash-wasm");
    const { h64Raw } = await xxhash();
    // 🚀 is a surrogate pair; an odd prefix puts pairs across slice ends.
    const huge = `x${"🚀".repeat(600_000)}tail`;
    expect(huge.length).toBeGreaterThan(1 << 20);
    const utf8 = Buffer.from(huge, "utf8");
    expect(digest(huge, "text")).toBe(h64Raw(utf8).toString(16).padStart(16, "0"));
    expect(digest(utf8.toString("latin1") as ByteString, "bytes")).toBe(digest(huge, "text"));
    expect(digest(`${huge}!`, "text")).not.toBe(digest(huge, "text"));
    expect(digest(huge.slice(0, -1), "text")).not.toBe(digest(huge, "text"));
  });

  it("digests a text and its byte string alike, and different texts apart", () => {
    for (const text of ["", "é", "日本語", "a🚀b", "plain"]) expect(digest(toBytes(text), "bytes")).toBe(digest(text, "text"));
    expect(digest(toBytes(""), "bytes")).toMatch(/^[0-9a-f]{16}$/);
    expect(digest("é", "text")).not.toBe(digest("e", "text"));
    // A latin1 char is not its UTF-8: "é" as text and "é" as a byte string (one byte E9) differ.
    expect(digest("é" as ByteString, "bytes")).not.toBe(digest("é", "text"));
  });
});

describe("pending calls keep only argsForOutcome", () => {
  // A send's result is hashed without its volatile ids; a non-send's with them: the kept arguments
  // must classify the call exactly as the full arguments do.
  const sendResult = { kind: "result", value: { content: [], details: { ok: true, messageId: "m-1" } } } as const;
  const otherResult = { kind: "result", value: { content: [], details: { ok: true, messageId: "m-2" } } } as const;
  const cases: Array<[string, unknown]> = [
    ["slack", { text: "hi" }],
    ["slack", { action: 7, text: "hi" }],
    ["slack", { action: { nested: true } }],
    ["message", { action: "send", to: "x" }],
    ["process", { action: "poll", sessionId: "s" }],
    ["process", { action: null }],
    ["exec", "not an object"],
  ];
  it.each(cases)("%s %j", (tool, args) => {
    const kept = argsForOutcome(args);
    for (const outcome of [sendResult, otherResult]) expect(hashing.outcomeHash(tool, kept, outcome, "text")).toEqual(hashing.outcomeHash(tool, args, outcome, "text"));
  });
});
