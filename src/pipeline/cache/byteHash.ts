/**
 * 64-bit xxhash of bytes (xxhash-wasm, as the replay digest uses), for the cache: file ends
 * (fileStamps.ts), entry bodies and key texts (entryFile.ts). One instance per thread, made on first use.
 */
import xxhash from "xxhash-wasm";

export interface ByteHasher {
  /** The hash of `bytes`, as 16 hex digits. */
  hash(bytes: Uint8Array): string;
  /** A hash over bytes handed in pieces. */
  stream(): { update(bytes: Uint8Array): void; digest(): string };
}

const hex = (hash: bigint) => hash.toString(16).padStart(16, "0");

let loaded: Promise<ByteHasher> | undefined;

export function loadByteHasher(): Promise<ByteHasher> {
  loaded ??= xxhash().then(({ h64Raw, create64 }) => ({
    hash: (bytes) => hex(h64Raw(bytes)),
    stream() {
      const hasher = create64();
      return {
        update: (bytes) => void hasher.update(bytes),
        digest: () => hex(hasher.digest()),
      };
    },
  }));
  return loaded;
}
