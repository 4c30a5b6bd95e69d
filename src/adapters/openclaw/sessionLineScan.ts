/**
 * What the first pass over a session transcript needs from a line — its entry type, `id`,
 * `parentId`, and whether a message is the user's — read straight from the line's bytes, without
 * decoding or parsing it. Decoding and parsing every line was half of the time of analysing a
 * transcript (bench: 620 of ~1900 ms on 67 MB), and the second pass parses every line anyway.
 *
 * Only lines written the way OpenClaw writes them are read this way: `{"type":…,"id":…,"parentId":…,`
 * with plain ASCII keys and ids before any nested value, and a message's `role` as its first key.
 * Anything else (escapes, non-ASCII ids, numbers as ids, custom entries, keys in another order) gives
 * `undefined`, and the caller parses the line. What a prefix cannot show — the rest of the line may
 * not be JSON, a key may come again further on — is checked when the second pass has the parsed line
 * (`SessionScan.confirm`).
 */
import { afterBom, latin1Text } from "../io/decoding.js";
import { BACKSLASH, CLOSE_OBJECT, COLON, COMMA, isDigit, isWhitespace, NULL_BYTES, OPEN_ARRAY, OPEN_OBJECT, QUOTE, Words, ZERO } from "../io/byteWords.js";

/** The facts of a line read from its bytes. */
export type ScannedLine =
  | { readonly kind: "header" }
  | {
      readonly kind: "entry";
      readonly id: string | undefined;
      /** `null`: a root; `undefined`: the line has no `parentId`; else the parent's id. */
      readonly parent: string | null | undefined;
      /** A message entry whose message has the role `user` (it starts a run). */
      readonly user: boolean;
    };

const HEADER: ScannedLine = { kind: "header" };

const KEYS = new Words(["type", "id", "parentId", "message", "role", "timestamp"] as const);
const TIMESTAMP_KEY = Buffer.from('"timestamp"');
const enum Time {
  Absent,
  Unreadable,
  Text,
  Number,
}
const TYPES = new Words(["session", "custom", "message"] as const);
const ROLES = new Words(["user"] as const);

/** Reads one line at a time; a scanner is reused for every line of a pass. */
export class SessionLineScanner {
  private bytes: Buffer = Buffer.alloc(0);
  private at = 0;
  private end = 0;
  /** The entry's `timestamp` as the last `scan` met it (see `entryTimestamp`): its kind and span (numbers: no allocation a line). */
  private time: Time = Time.Absent;
  private timeFrom = 0;
  private timeTo = 0;

  /** The line's facts, or `undefined` when the line has to be parsed to know them. */
  scan(bytes: Buffer, start: number, end: number): ScannedLine | undefined {
    this.bytes = bytes;
    this.at = afterBom(bytes, start, end);
    this.end = end;
    this.time = Time.Absent;
    this.skipWhitespace();
    if (!this.take(OPEN_OBJECT)) return undefined;
    let type: string | undefined;
    let id: string | undefined;
    let parent: string | null | undefined;
    let sawParent = false;
    const entry = (user: boolean): ScannedLine | undefined =>
      type !== undefined && id !== undefined && sawParent ? { kind: "entry", id, parent, user } : undefined;
    for (;;) {
      this.skipWhitespace();
      const key = this.word(KEYS);
      if (key === undefined || !this.colon()) return undefined;
      switch (key) {
        case "type":
          type = this.word(TYPES);
          // Custom entries name runs from their `data`: they are always parsed (there are few).
          if (type === undefined || type === "" || type === "custom") return undefined;
          if (type === "session") return HEADER;
          break;
        case "id":
          id = this.idString();
          if (id === undefined) return undefined;
          break;
        case "parentId":
          sawParent = true;
          parent = this.literal(NULL_BYTES) ? null : this.idString();
          if (parent === undefined) return undefined;
          break;
        case "timestamp":
          // As any other key's value (below): nested, it ends the scan.
          if (this.atNested()) return type === "message" ? undefined : entry(false);
          if (!this.readTimestamp()) return undefined;
          break;
        case "message": {
          if (type !== "message") return type !== undefined && this.atNested() ? entry(false) : undefined;
          const role = this.firstRole();
          return role === undefined ? undefined : entry(role === "user");
        }
        default:
          // A nested value ends the scan: what is needed must have come before it.
          if (this.atNested()) return type === "message" ? undefined : entry(false);
          if (!this.skipScalar()) return undefined;
      }
      this.skipWhitespace();
      if (this.take(COMMA)) continue;
      if (!this.take(CLOSE_OBJECT)) return undefined;
      this.skipWhitespace();
      // The whole line was seen, so a key not met is absent. A message entry without its message is
      // a bad line: left to the parse, which says why.
      if (this.at !== this.end || type === undefined || type === "message") return undefined;
      return { kind: "entry", id, parent: sawParent ? parent : undefined, user: false };
    }
  }

  /**
   * In file order only run markers are facts (sessionTree.ts): false when the line's beginning shows
   * an entry that cannot be one — a message whose role is not `user`, or an entry of a type other
   * than `message` and `custom` — else true, and the line is parsed. Reads no id: a line passed over
   * costs a few comparisons and no allocation.
   */
  mayBeMarker(bytes: Buffer, start: number, end: number): boolean {
    this.bytes = bytes;
    this.at = afterBom(bytes, start, end);
    this.end = end;
    this.skipWhitespace();
    if (!this.take(OPEN_OBJECT)) return true;
    let type: string | undefined;
    for (;;) {
      this.skipWhitespace();
      const key = this.word(KEYS);
      if (key === undefined || !this.colon()) return true;
      if (key === "type") {
        type = this.word(TYPES);
        if (type === undefined || type === "" || type === "custom") return true;
        if (type !== "message") return false;
      } else if (key === "message") {
        if (type !== "message") return true;
        const role = this.firstRole();
        return role === undefined || role === "user";
      } else if (this.atNested() || !this.skipScalar()) {
        return true;
      }
      this.skipWhitespace();
      if (!this.take(COMMA)) return true;
    }
  }

  /**
   * The entry's `timestamp` of the line the last `scan` read, as a parse gives it: a plain string, a
   * whole number, `undefined` when the beginning had none, "unreadable" when it is written otherwise.
   */
  entryTimestamp(): string | number | undefined | "unreadable" {
    if (this.time === Time.Absent) return undefined;
    if (this.time === Time.Unreadable) return "unreadable";
    const text = latin1Text(this.bytes, this.timeFrom, this.timeTo);
    return this.time === Time.Text ? text : Number(text);
  }

  /**
   * The `timestamp` a line written as OpenClaw writes a message entry ends with — the message's last
   * key, a whole number (epoch ms): `…,"timestamp":1776216724064}}` — read backwards from the end;
   * undefined when the line does not end so. What precedes is not seen (the two braces may close
   * another object than the message): the second pass parses the line and checks the copy key.
   */
  messageTimestampAtEnd(bytes: Buffer, start: number, end: number): number | undefined {
    let at = end;
    const back = () => {
      while (at > start && isWhitespace(bytes[at - 1])) at--;
    };
    for (let brace = 0; brace < 2; brace++) {
      back();
      if (bytes[at - 1] !== CLOSE_OBJECT || at <= start) return undefined;
      at--;
    }
    back();
    const digitsEnd = at;
    while (at > start && isDigit(bytes[at - 1])) at--;
    const digitsStart = at;
    // JSON writes no leading zero; a number with a sign, fraction or exponent is left to the parse.
    if (digitsStart === digitsEnd || (bytes[digitsStart] === ZERO && digitsEnd - digitsStart > 1)) return undefined;
    back();
    if (bytes[at - 1] !== COLON) return undefined;
    at--;
    back();
    const keyStart = at - TIMESTAMP_KEY.length;
    if (keyStart < start || !bytes.subarray(keyStart, at).equals(TIMESTAMP_KEY)) return undefined;
    at = keyStart;
    back();
    if (bytes[at - 1] !== COMMA) return undefined;
    return Number(latin1Text(bytes, digitsStart, digitsEnd));
  }

  /**
   * Passes over the scalar value of a `timestamp` key, keeping its span when it is a plain string or
   * a whole number (else it is "unreadable"); false when it is no scalar.
   */
  private readTimestamp(): boolean {
    const from = this.at;
    if (this.bytes[from] === QUOTE) {
      this.at++;
      const to = this.plainSpan(from + 1);
      if (to >= 0) return this.timeSpan(Time.Text, from + 1, to);
      this.at = from;
    } else {
      let to = from;
      while (to < this.end && isDigit(this.bytes[to])) to++;
      const next = this.bytes[to];
      const whole = to > from && !(this.bytes[from] === ZERO && to - from > 1);
      if (whole && (to === this.end || next === COMMA || next === CLOSE_OBJECT || isWhitespace(next))) {
        this.at = to;
        return this.timeSpan(Time.Number, from, to);
      }
    }
    this.time = Time.Unreadable;
    return this.skipScalar();
  }

  private timeSpan(kind: Time, from: number, to: number): true {
    this.time = kind;
    this.timeFrom = from;
    this.timeTo = to;
    return true;
  }

  private skipWhitespace(): void {
    while (this.at < this.end && isWhitespace(this.bytes[this.at])) this.at++;
  }

  private take(byte: number): boolean {
    if (this.at >= this.end || this.bytes[this.at] !== byte) return false;
    this.at++;
    return true;
  }

  private colon(): boolean {
    this.skipWhitespace();
    const ok = this.take(COLON);
    this.skipWhitespace();
    return ok;
  }

  private atNested(): boolean {
    const c = this.bytes[this.at];
    return this.at < this.end && (c === OPEN_OBJECT || c === OPEN_ARRAY);
  }

  private literal(word: readonly number[]): boolean {
    if (this.at + word.length > this.end) return false;
    for (let k = 0; k < word.length; k++) if (this.bytes[this.at + k] !== word[k]) return false;
    this.at += word.length;
    return true;
  }

  /**
   * Passes over a plain string — printable ASCII, no escapes, so its bytes are its text — and returns
   * where its bytes end (they start at `from`); -1, with nothing consumed past the quote, if it is
   * not plain.
   */
  private plainSpan(from: number): number {
    const { bytes, end } = this;
    for (let i = from; i < end; i++) {
      const c = bytes[i]!;
      if (c === QUOTE) {
        this.at = i + 1;
        return i;
      }
      if (c === BACKSLASH || c < 0x20 || c >= 0x80) return -1;
    }
    return -1;
  }

  /**
   * A plain string matched against `words` on its bytes: making a string of every key and type was
   * a tenth of the scan. Undefined when the string is not plain.
   */
  private word<W extends string>(words: Words<W>): W | "other" | "" | undefined {
    if (!this.take(QUOTE)) return undefined;
    const from = this.at;
    const to = this.plainSpan(from);
    return to < 0 ? undefined : words.match(this.bytes, from, to);
  }

  /** A plain string as text, else undefined. */
  private plainString(): string | undefined {
    if (!this.take(QUOTE)) return undefined;
    const from = this.at;
    const to = this.plainSpan(from);
    return to < 0 ? undefined : latin1Text(this.bytes, from, to);
  }

  /** An id as `idText` takes it: a plain string that is not blank. */
  private idString(): string | undefined {
    const text = this.plainString();
    return text !== undefined && text.trim() !== "" ? text : undefined;
  }

  /** `{"role":"…"` — the role of a message written with its role first ("user" or not). */
  private firstRole(): string | undefined {
    if (!this.take(OPEN_OBJECT)) return undefined;
    this.skipWhitespace();
    if (this.word(KEYS) !== "role" || !this.colon()) return undefined;
    return this.word(ROLES);
  }

  /** Passes over a string, number, `true`, `false` or `null` (leniently: the parse checks it). */
  private skipScalar(): boolean {
    const { bytes, end } = this;
    if (this.bytes[this.at] === QUOTE) {
      for (let i = this.at + 1; i < end; ) {
        const quote = bytes.indexOf(QUOTE, i);
        if (quote === -1 || quote >= end) return false;
        let slashes = 0;
        while (bytes[quote - 1 - slashes] === BACKSLASH) slashes++;
        if (slashes % 2 === 0) {
          this.at = quote + 1;
          return true;
        }
        i = quote + 1;
      }
      return false;
    }
    const from = this.at;
    while (this.at < end) {
      const c = bytes[this.at];
      if (c === COMMA || c === CLOSE_OBJECT || isWhitespace(c)) break;
      this.at++;
    }
    return this.at > from;
  }
}
