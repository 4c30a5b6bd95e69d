/**
 * The production digest: 64-bit xxhash (xxhash-wasm) of a text's UTF-16 code units. Pure
 * computation; the WebAssembly module is instantiated once per process (per worker thread) by the
 * command and passed down.
 *
 * Why UTF-16 and not xxhash-wasm's own string API (UTF-8): a JavaScript string is UTF-16 already,
 * so writing it into a buffer is a copy, while UTF-8 encoding was 8% of analyze's instructions
 * (callgrind, 17 MB of events). Only equality of digests matters, and equal strings have equal code
 * units. Long texts are hashed in slices by the streaming hasher: WebAssembly memory grows to the
 * largest input it is given and never shrinks, so one 100 MB string must not reach it whole.
 */
import xxhash from "xxhash-wasm";
import type { Digest } from "./hashing.js";

/** Characters hashed in one call; longer texts are streamed in slices of this size. */
const SLICE = 1 << 18;

export async function loadXxhashDigest(): Promise<Digest> {
  const { h64Raw, create64 } = await xxhash();
  const scratch = Buffer.allocUnsafe(SLICE * 2);
  const hex = (hash: bigint) => hash.toString(16).padStart(16, "0");
  return (text: string) => {
    if (text.length <= SLICE) return hex(h64Raw(scratch.subarray(0, scratch.write(text, 0, "utf16le"))));
    const hasher = create64();
    for (let start = 0; start < text.length; start += SLICE) {
      hasher.update(scratch.subarray(0, scratch.write(text.slice(start, start + SLICE), 0, "utf16le")));
    }
    return hex(hasher.digest());
  };
}
