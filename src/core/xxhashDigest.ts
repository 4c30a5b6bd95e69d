/**
 * The production digest: 64-bit xxhash (xxhash-wasm) of the stable serialization. Pure computation;
 * the WebAssembly module is instantiated once per process by the caller and passed down.
 */
import xxhash from "xxhash-wasm";
import type { Digest } from "./hashing.js";

export async function loadXxhashDigest(): Promise<Digest> {
  const { h64ToString } = await xxhash();
  return (text: string) => h64ToString(text);
}
