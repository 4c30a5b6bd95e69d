/**
 * Why a file that no input format recognises cannot be used (inputs.md, "Bad input"): it is reported
 * once, with the reason, instead of as thousands of bad lines — like ripgrep passing over a binary
 * file. Compressions other than gzip and zstd are named so the user knows to decompress first.
 */
import { open } from "node:fs/promises";
import { isPlainObject } from "../core/plainObject.js";

const MAGIC: ReadonlyArray<{ readonly bytes: readonly number[]; readonly what: string }> = [
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: "compressed with xz, which looplens does not read (decompress it first: xz -d)" },
  { bytes: [0x42, 0x5a, 0x68], what: "compressed with bzip2, which looplens does not read (decompress it first: bunzip2)" },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: "a zip archive (extract it first)" },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: "a 7z archive (extract it first)" },
  { bytes: [0x04, 0x22, 0x4d, 0x18], what: "compressed with lz4, which looplens does not read (decompress it first)" },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], what: "a SQLite database (a folder scan reads only *.sqlite files as transcript stores: name the file to read it as one)" },
];

async function headOf(file: string): Promise<Buffer | undefined> {
  if (file === "-" || file.includes("#")) return undefined;
  try {
    const handle = await open(file, "r");
    try {
      const buffer = Buffer.alloc(16);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** The reason, from the file's first bytes and its first meaningful lines (parsed JSON or text). */
export async function unusableReason(file: string, samples: readonly unknown[]): Promise<string> {
  const head = await headOf(file);
  if (head) {
    for (const { bytes, what } of MAGIC) {
      if (head.length >= bytes.length && bytes.every((byte, i) => head[i] === byte)) return `${what}; skipped`;
    }
  }
  const text = samples.filter((sample): sample is string => typeof sample === "string");
  // eslint-disable-next-line no-control-regex
  if (text.some((line) => /[\u0000-\u0008\u000e-\u001a\ufffd]/.test(line))) return "binary file (not text); skipped";
  if (samples.some(isPlainObject)) return "not a transcript: JSON lines of no format looplens reads (use --input-format to force one); skipped";
  return "not a transcript: text of no format looplens reads (use --input-format to force one); skipped";
}
