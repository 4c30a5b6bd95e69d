/** Compressed input, recognised by its first bytes (gzip, zstd) and decompressed as it streams. */
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { Decompress } from "fzstd";
import { DecompressionError } from "./lineSource.js";

export type Compression = "gzip" | "zstd" | "none";

export function compressionOf(head: Uint8Array): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return "zstd";
  return "none";
}

const isZlibError = (error: unknown): boolean => String((error as { code?: unknown })?.code ?? "").startsWith("Z_");

async function* gunzipChunks(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  const input = Readable.from(chunks, { objectMode: false });
  const gunzip = createGunzip();
  // pipe() does not forward errors: a read error would be left unhandled and crash the process.
  input.on("error", (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    // A read error of the file is not the data's fault: it stays an error (see readReporting).
    if (!isZlibError(error)) throw error;
    throw new DecompressionError(`gzip data ends early or is corrupt (${(error as Error).message}); read up to here`);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

export async function* countingBytes(chunks: AsyncIterable<Buffer> | Iterable<Buffer>, onBytes: ((bytes: number) => void) | undefined): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    onBytes?.(chunk.length);
    yield chunk;
  }
}

/** Streams zstd through fzstd's `Decompress`; small input chunks keep the output queue short. */
async function* zstdChunks(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  const out: Buffer[] = [];
  // In streaming mode fzstd allocates every decoded block afresh, so a view (no copy) is safe.
  const decoder = new Decompress((data) => void out.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength)));
  const fail = (error: unknown) =>
    new DecompressionError(`zstd data ends early or is corrupt (${(error as Error)?.message ?? error}); read up to here`);
  for await (const chunk of chunks) {
    try {
      decoder.push(chunk);
    } catch (error) {
      yield* out.splice(0);
      throw fail(error);
    }
    yield* out.splice(0);
  }
  try {
    decoder.push(new Uint8Array(0), true);
  } catch (error) {
    yield* out.splice(0);
    throw fail(error);
  }
  yield* out.splice(0);
}

export function decompressedChunks(compression: Exclude<Compression, "none">, chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
  return compression === "gzip" ? gunzipChunks(chunks) : zstdChunks(chunks);
}
