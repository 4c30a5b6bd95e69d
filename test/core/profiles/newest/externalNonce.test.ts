/** External-content nonce canonicalisation (generations.md §4.1, OpenClaw PR #130261). */
import { describe, expect, it } from "vitest";
import { canonicalizeExternalNonces } from "../../../../src/core/profiles/newest/externalNonce.js";
import { newestHashing } from "../../../helpers/newestReplay.js";

const ID = "0123456789abcdef";
const OTHER = "fedcba9876543210";
const ZERO = "0000000000000000";
const pair = (id: string, body = "page text", e = "", endId = id) =>
  `<<<EXTERNAL_UNTRUSTED_CONTENT id=${e}"${id}${e}">>>${body}<<<END_EXTERNAL_UNTRUSTED_CONTENT id=${e}"${endId}${e}">>>`;

describe("canonicalizeExternalNonces", () => {
  it("zeroes both ids of a well-formed pair", () => {
    expect(canonicalizeExternalNonces(`before ${pair(ID)} after`)).toBe(`before ${pair(ZERO)} after`);
  });

  it("zeroes the shortest pair there is (empty body, no escapes)", () => {
    const shortest = pair(ID, "");
    expect(shortest).toHaveLength(112);
    expect(canonicalizeExternalNonces(shortest)).toBe(pair(ZERO, ""));
  });

  it("leaves strings without markers untouched", () => {
    const plain = "nothing to see";
    expect(canonicalizeExternalNonces(plain)).toBe(plain);
  });

  it("handles one level of JSON encoding (one backslash before each quote)", () => {
    const encoded = JSON.stringify({ body: pair(ID) }).slice(1, -1);
    expect(canonicalizeExternalNonces(encoded)).toBe(JSON.stringify({ body: pair(ZERO) }).slice(1, -1));
  });

  it("handles two levels of encoding (three backslashes)", () => {
    const twice = JSON.stringify(JSON.stringify({ body: pair(ID) }));
    expect(canonicalizeExternalNonces(twice)).toBe(JSON.stringify(JSON.stringify({ body: pair(ZERO) })));
  });

  it("rejects a backslash run that no encoding depth produces (two)", () => {
    const text = pair(ID, "x", "\\\\");
    expect(canonicalizeExternalNonces(text)).toBe(text);
  });

  it("rejects uppercase hex, a wrong length and an empty id", () => {
    for (const id of ["0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", ""]) {
      const text = pair(id);
      expect(canonicalizeExternalNonces(text)).toBe(text);
    }
  });

  it("rejects pairs with mismatched ids", () => {
    const text = pair(ID, "x", "", OTHER);
    expect(canonicalizeExternalNonces(text)).toBe(text);
  });

  it("rejects unpaired markers", () => {
    const start = `<<<EXTERNAL_UNTRUSTED_CONTENT id="${ID}">>> no end`;
    const end = `no start <<<END_EXTERNAL_UNTRUSTED_CONTENT id="${ID}">>>`;
    expect(canonicalizeExternalNonces(start)).toBe(start);
    expect(canonicalizeExternalNonces(end)).toBe(end);
  });

  it("rejects markers without the closing >>>", () => {
    const text = `<<<EXTERNAL_UNTRUSTED_CONTENT id="${ID}"x<<<END_EXTERNAL_UNTRUSTED_CONTENT id="${ID}">>>`;
    expect(canonicalizeExternalNonces(text)).toBe(text);
  });

  it("rejects a pair with another start marker between", () => {
    const text = `<<<EXTERNAL_UNTRUSTED_CONTENT id="${ID}">>>a<<<EXTERNAL_UNTRUSTED_CONTENT b<<<END_EXTERNAL_UNTRUSTED_CONTENT id="${ID}">>>`;
    expect(canonicalizeExternalNonces(text)).toBe(text);
  });

  it("rejects an encoded pair with a quote of a shallower level inside (two fields glued)", () => {
    // One backslash per quote in the markers, but a bare quote (a field boundary) in between.
    const text = `<<<EXTERNAL_UNTRUSTED_CONTENT id=\\"${ID}\\">>>a","b":"c<<<END_EXTERNAL_UNTRUSTED_CONTENT id=\\"${ID}\\">>>`;
    expect(canonicalizeExternalNonces(text)).toBe(text);
  });

  it("accepts deeper-encoded quotes inside a pair", () => {
    const text = pair(ID, 'say \\\\\\"hi\\\\\\"', "\\");
    expect(canonicalizeExternalNonces(text)).toBe(pair(ZERO, 'say \\\\\\"hi\\\\\\"', "\\"));
  });

  it("rewrites every pair of a string independently", () => {
    expect(canonicalizeExternalNonces(`${pair(ID)} ${pair(OTHER)}`)).toBe(`${pair(ZERO)} ${pair(ZERO)}`);
  });
});

describe("in outcome hashes", () => {
  const result = (id: string) => ({ content: [{ type: "text", text: pair(id) }], details: { nested: { raw: JSON.stringify({ page: pair(id) }) } } });

  it("results differing only in the nonce hash equal, at any depth", () => {
    expect(newestHashing.outcomeHash("web_fetch", {}, { kind: "result", value: result(ID) }, "text").resultHash).toBe(
      newestHashing.outcomeHash("web_fetch", {}, { kind: "result", value: result(OTHER) }, "text").resultHash,
    );
  });

  it("a pair split across two fields is not canonicalised", () => {
    const split = (id: string) => ({ details: { a: `<<<EXTERNAL_UNTRUSTED_CONTENT id="${id}">>>x`, b: `<<<END_EXTERNAL_UNTRUSTED_CONTENT id="${id}">>>` } });
    expect(newestHashing.outcomeHash("web_fetch", {}, { kind: "result", value: split(ID) }, "text").resultHash).not.toBe(
      newestHashing.outcomeHash("web_fetch", {}, { kind: "result", value: split(OTHER) }, "text").resultHash,
    );
  });

  it("keys are canonicalised too", () => {
    const keyed = (id: string) => ({ details: { [pair(id)]: 1 } });
    expect(newestHashing.outcomeHash("t", {}, { kind: "result", value: keyed(ID) }, "text").resultHash).toBe(
      newestHashing.outcomeHash("t", {}, { kind: "result", value: keyed(OTHER) }, "text").resultHash,
    );
  });
});
