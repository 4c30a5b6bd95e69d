/**
 * The production digest: 64-bit xxhash (xxhash-wasm) of the stable serialization. Pure computation;
 * the WebAssembly module is instantiated once per process (per worker thread) by the command and
 * passed down.
 *
 * xxhash-wasm copies a string into WebAssembly memory as UTF-8 and that memory never shrinks: one
 * 100 MB string would keep ~300 MB resident for the rest of the run. Texts above STREAM_ABOVE
 * characters are therefore fed to the streaming hasher in slices (never splitting a surrogate pair,
 * so the bytes and the digest are exactly those of the whole text).
 */
import xxhash from "xxhash-wasm";
import type { Digest } from "./hashing.js";

const STREAM_ABOVE = 1 << 20;
const SLICE = 1 << 18;

export async function loadXxhashDigest(): Promise<Digest> {
  const { h64ToString, create64 } = await xxhash();
  return (text: string) => {
    if (text.length <= STREAM_ABOVE) return h64ToString(text);
    const hasher = create64();
    for (let start = 0; start < text.length; ) {
      let end = Math.min(text.length, start + SLICE);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
      hasher.update(text.slice(start, end));
      start = end;
    }
    return hasher.digest().toString(16).padStart(16, "0");
  };
}
