/**
 * JSON read on its bytes, for passes that look at a few ASCII tokens of each line without decoding
 * it (openclaw/sessionLineScan.ts): the bytes of JSON's punctuation, and words matched in place.
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const NULL_BYTES = [0x6e, 0x75, 0x6c, 0x6c];

export const isWhitespace = (c: number | undefined) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;

/** Words a string is matched against on its bytes, without making a string of it. */
export class Words<W extends string> {
  private readonly bytes: Buffer[];

  constructor(readonly words: readonly W[]) {
    this.bytes = words.map((word) => Buffer.from(word));
  }

  /** The word `bytes[from, to)` spells, else "other" ("" for an empty string). */
  match(bytes: Buffer, from: number, to: number): W | "other" | "" {
    if (to === from) return "";
    for (let k = 0; k < this.bytes.length; k++) {
      const known = this.bytes[k]!;
      if (known.length !== to - from) continue;
      let same = true;
      for (let j = 0; j < known.length && same; j++) same = bytes[from + j] === known[j];
      if (same) return this.words[k]!;
    }
    return "other";
  }
}

export const ZERO = 0x30;
const NINE = 0x39;
export const isDigit = (c: number | undefined) => c !== undefined && c >= ZERO && c <= NINE;
