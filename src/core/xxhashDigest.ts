/**
 * The production digest: 64-bit xxhash (xxhash-wasm) of a text's UTF-8 bytes. Pure computation;
 * the WebAssembly module is instantiated once per process (per worker thread) by the command and
 * passed down.
 *
 * What is digested is almost always a byte string (see byteText.ts), whose bytes are written as
 * they are (latin1): cheaper than the UTF-16 copy this used before, and equal to the UTF-8 of the
 * text it stands for, which is what a text-form string is encoded to. Long texts are hashed in
 * slices by the streaming hasher: WebAssembly memory grows to the largest input it is given and
 * never shrinks, so one 100 MB string must not reach it whole.
 */
import xxhash from "xxhash-wasm";
import type { StringForm } from "./byteText.js";
import type { Digest } from "./hashing.js";

/** Chars hashed in one call; longer texts are streamed in slices of this size. */
const SLICE = 1 << 18;

export async function loadXxhashDigest(): Promise<Digest> {
  const { h64Raw, create64 } = await xxhash();
  const scratch = Buffer.allocUnsafe(SLICE * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
  const hex = (hash: bigint) => hash.toString(16).padStart(16, "0");
  const bytesOf = (text: string, form: StringForm) => scratch.subarray(0, scratch.write(text, 0, form === "bytes" ? "latin1" : "utf8"));
  return (text: string, form: StringForm) => {
    if (text.length <= SLICE) return hex(h64Raw(bytesOf(text, form)));
    const hasher = create64();
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + SLICE, text.length);
      // A surrogate pair cut in two would be encoded as two replacement chars.
      if (form === "text" && end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      hasher.update(bytesOf(text.slice(start, end), form));
      start = end;
    }
    return hex(hasher.digest());
  };
}
