/**
 * Byte strings (byteText.ts): adapters hand hashing arguments and results parsed from latin1-decoded
 * lines, whose strings hold UTF-8 bytes. Every hash must come out exactly as for the same value parsed
 * as text — including the rules that trim, test for blank text or read error messages.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { fromBytes, NON_ASCII_SPACE_BYTES, toBytes, trimBytes, type ByteString } from "../../src/core/byteText.js";
import { createHashing, errorBytes, type Hashing, type Outcome } from "../../src/core/hashing.js";
import { stableSerialize } from "../../src/core/stableSerialize.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { ASCII_SPACES, NON_ASCII_SPACES } from "../helpers/whiteSpace.js";

/** Every whitespace char `trim()` removes, and a few it keeps. */
const SPACES = [...ASCII_SPACES, ...NON_ASCII_SPACES];
const NOT_SPACES = ["\u0085", "\u180e", "\u200b", "\u001f", "à", "Ġ", "\u00c2", "x"];

/** A value as a latin1 parse of its JSON would give it: every string and key as its UTF-8 bytes. */
function asBytes(value: unknown): unknown {
  if (typeof value === "string") return toBytes(value);
  if (Array.isArray(value)) return value.map(asBytes);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) Object.defineProperty(out, toBytes(key), { value: asBytes(inner), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

// No lone surrogates: a line is parsed as latin1 only when it has no \u escape above U+007F, so a
// byte string never stands for a text that had one.
const unit = fc.constantFrom(...SPACES, ...NOT_SPACES, "é", "🚀", "日", "a", '"', "\\");
const text = fc.array(unit, { maxLength: 12 }).map((units) => units.join(""));
const longish = fc.tuple(text, fc.integer({ min: 0, max: 300 })).map(([t, n]) => t + "ü".repeat(n) + t);
const leaf = fc.oneof(text, longish, fc.constantFrom(null, 0, 1.5, true, false), fc.constant(undefined));
const json = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(fc.oneof(text, fc.constantFrom("status", "text", "step")), tie("node"), { maxKeys: 3 })),
})).node;

let hashing: Hashing;
beforeAll(async () => {
  hashing = createHashing(await loadXxhashDigest());
});

describe("trimBytes", () => {
  it("removes exactly what trim() removes", () => {
    for (const space of SPACES) expect(trimBytes(toBytes(`${space}a${space}`))).toBe("a");
    for (const kept of NOT_SPACES) expect(trimBytes(toBytes(`${kept}a${kept}`))).toBe(toBytes(`${kept}a${kept}`));
    fc.assert(fc.property(text, (t) => trimBytes(toBytes(t)) === toBytes(t.trim())), { numRuns: 2000 });
  });

  it("knows the UTF-8 of exactly the chars \\s matches, on every char of the BMP", () => {
    // Astral chars are never white space; lone surrogates have no UTF-8.
    const space = /^\s$/;
    const spaceInBytes = new RegExp(String.raw`^(?:[\t-\r ]|${NON_ASCII_SPACE_BYTES})$`);
    const disagreeing: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      if (space.test(char) !== spaceInBytes.test(toBytes(char))) disagreeing.push(code.toString(16));
    }
    expect(disagreeing).toEqual([]);
  });

  it("round-trips through fromBytes", () => {
    fc.assert(fc.property(text, (t) => fromBytes(toBytes(t)) === t));
  });
});

describe("the ByteString brand", () => {
  it("is a type only: a byte string is the plain string at run time", () => {
    const bytes: ByteString = toBytes("é");
    expect(typeof bytes).toBe("string");
    expect(bytes).toBe("\u00c3\u00a9");
  });

  // The @ts-expect-error lines are the test of the brand: `tsc -p tsconfig.test.json` fails when one is not an error.
  it("makes a plain text where a byte string is required a compile error", async () => {
    const digest = await loadXxhashDigest();
    // @ts-expect-error a text is not a byte string
    expect(fromBytes("plain")).toBe("plain");
    // @ts-expect-error the digest's "bytes" form takes a ByteString
    expect(digest("plain", "bytes")).toBe(digest(toBytes("plain"), "bytes"));
    // @ts-expect-error trimBytes takes a ByteString
    expect(trimBytes(" plain ")).toBe("plain");
    // What produces bytes is typed so: serializations and error texts feed the "bytes" digest as they are.
    const serialized: ByteString = stableSerialize({ k: "é" }, undefined, undefined, "text");
    expect(digest(serialized, "bytes")).toBe(digest(stableSerialize({ k: toBytes("é") }, undefined, undefined, "bytes"), "bytes"));
    expect(fromBytes(errorBytes({ message: "é" }, "text"))).toBe("é");
  });
});

describe("hashes of byte strings", () => {
  it("argument hashes equal those of the same text values, for every tool rule", () => {
    fc.assert(
      fc.property(fc.constantFrom("read", "update_plan", "exec"), json, (tool, args) => {
        expect(hashing.argsHash(tool, asBytes(args), "bytes")).toBe(hashing.argsHash(tool, args, "text"));
      }),
      { numRuns: 800 },
    );
  });

  it("update_plan tells blank steps apart in both forms", () => {
    const plan = (step: string) => ({ plan: [{ step, status: "pending" }], explanation: step });
    for (const space of SPACES) {
      expect(hashing.argsHash("update_plan", asBytes(plan(space)), "bytes")).toBe(hashing.argsHash("update_plan", plan(""), "text"));
    }
    expect(hashing.argsHash("update_plan", asBytes(plan("à")), "bytes")).not.toBe(hashing.argsHash("update_plan", plan(""), "text"));
  });

  it("outcome hashes equal those of the same text values, for every result rule and errors", () => {
    const details = fc.record(
      { status: fc.constantFrom("running", "completed", "failed", "approval-pending", "other"), aggregated: text, tail: text, exitCode: fc.constantFrom(0, 1, null), reason: text },
      { requiredKeys: ["status"] },
    );
    const content = fc.array(fc.record({ type: fc.constantFrom("text", "image"), text: fc.oneof(text, longish) }), { maxLength: 3 });
    const outcome: fc.Arbitrary<Outcome> = fc.oneof(
      fc.record({ content, details: fc.oneof(details, json) }).map((value) => ({ kind: "result", value }) as const),
      fc.oneof(text, fc.record({ message: text, name: text }), json).map((value) => ({ kind: "error", value }) as const),
    );
    const args = fc.constantFrom(undefined, { action: "poll" }, { action: "log" }, { action: "send" });
    fc.assert(
      fc.property(fc.constantFrom("exec", "process", "message", "update_plan", "read"), args, outcome, (tool, callArgs, o) => {
        const asByteOutcome = { kind: o.kind, value: asBytes(o.value) } as Outcome;
        expect(hashing.outcomeHash(tool, callArgs, asByteOutcome, "bytes")).toEqual(hashing.outcomeHash(tool, callArgs, o, "text"));
      }),
      { numRuns: 1500 },
    );
  });

  it("reads the unknown tool out of an error in either form", () => {
    const error = { kind: "error", value: "Unknown tool:\u00a0Wérkzeug_x" } as const;
    const asText = hashing.outcomeHash("t", undefined, error, "text");
    expect(hashing.outcomeHash("t", undefined, { kind: "error", value: toBytes(error.value) }, "bytes")).toEqual(asText);
  });
});
