/** Parsing JSON lines from their bytes (jsonBytes.ts): latin1 where that is exact, text otherwise. */
import { describe, expect, it } from "vitest";
import { parseObjectLine } from "../../../src/adapters/adapter.js";
import fc from "fast-check";
import { hasNonAsciiEscape, parseJsonIn, parseObjectBytes, valueAsText } from "../../../src/adapters/io/jsonBytes.js";
import { fromBytes, toBytes, type ByteString } from "../../../src/core/byteText.js";

function parse(bytes: Buffer, terminated = true) {
  const padded = Buffer.concat([Buffer.from("xx"), bytes, Buffer.from("yy")]);
  return parseObjectBytes(padded, 2, padded.length - 2, terminated);
}
const line = (text: string) => Buffer.from(text, "utf8");

describe("parseObjectBytes", () => {
  it("parses ASCII lines exactly: their strings are byte strings too unless an escape makes a char above U+007F", () => {
    expect(parse(line('{"a":"x\\u00e9\\n"}'))).toEqual({ kind: "object", value: { a: "xé\n" }, form: "text" });
    expect(parse(line('{"a":"x\\u001b\\n"}'))).toEqual({ kind: "object", value: { a: "x\u001b\n" }, form: "bytes" });
  });

  it("leaves the strings of valid UTF-8 lines without non-ASCII escapes as byte strings", () => {
    const parsed = parse(line('{"ключ":"naïve 🚀 \\\\u00e9 \\u001b[0m"}'));
    expect(parsed.kind === "object" && parsed.form).toBe("bytes");
    // A "bytes" line's strings are byte strings: the test asserts what the compiler cannot see inside `unknown`.
    const value = (parsed as { value: Record<string, ByteString> }).value;
    const [[key, text]] = Object.entries(value) as [[ByteString, ByteString]];
    expect(fromBytes(key)).toBe("ключ");
    expect(fromBytes(text)).toBe("naïve 🚀 \\u00e9 \u001b[0m");
  });

  it("parses as text what a latin1 parse would get wrong: escapes above U+007F, invalid UTF-8", () => {
    expect(parse(line('{"a":"é\\u00e9"}'))).toEqual({ kind: "object", value: { a: "éé" }, form: "text" });
    expect(parse(line('{"a":"é\\ud83d\\ude80"}'))).toEqual({ kind: "object", value: { a: "é🚀" }, form: "text" });
    const invalid = Buffer.concat([line('{"a":"é'), Buffer.from([0xff]), line('"}')]);
    expect(parse(invalid)).toEqual({ kind: "object", value: { a: "é\uFFFD" }, form: "text", notice: "invalid UTF-8 (replaced by U+FFFD)" });
  });

  it("says what parseObjectLine says of blank and bad lines, a BOM removed", () => {
    for (const text of ["", " \u00a0\u3000 ", "{", "[1]", '{"a":1} x', "nul\u0000l", "é"]) {
      expect(parse(line(text))).toEqual(parseObjectLine(text, true));
      expect(parse(line(text), false)).toEqual(parseObjectLine(text, false));
    }
    expect(parse(line('\uFEFF{"a":"é"}'))).toMatchObject({ kind: "object", form: "bytes" });
  });
});

describe("escapes that decide the form", () => {
  it("tells an escape from an escaped backslash before a u", () => {
    const form = (json: string) => (parse(line(json)) as { form?: string }).form;
    expect(form('{"a":"é \\\\u00e9"}')).toBe("bytes"); // backslash, then the text u00e9
    expect(form('{"a":"é \\\\\\u00e9"}')).toBe("text"); // backslash, then an escape of é
    expect(form('{"a":"é \\u007f \\u0000"}')).toBe("bytes"); // escapes below U+0080 are ASCII either way
    expect(form('{"a":"é \\u0080"}')).toBe("text");
    expect(form('{"a":"é \\uD83D\\uDE80"}')).toBe("text");
    expect(form('{"\\u00e9":"é"}')).toBe("text");
  });
});

describe("parseJsonIn (a JSON text held in a string of a parsed line)", () => {
  it("parses a byte string to byte strings while no escape makes a char above U+007F", () => {
    expect(parseJsonIn("bytes", toBytes('{"a":"naïve 🚀 \\\\u00e9 \\u001b"}'))).toEqual({ value: { a: toBytes("naïve 🚀 \\u00e9 \u001b") }, form: "bytes" });
  });

  it("decodes and parses as text when an escape makes a char above U+007F, even among raw bytes", () => {
    expect(parseJsonIn("bytes", toBytes('{"a":"naïve \\u00e9"}'))).toEqual({ value: { a: "naïve é" }, form: "text" });
    expect(parseJsonIn("bytes", toBytes('{"a":"🚀 \\ud83d\\ude80 \\ud800"}'))).toEqual({ value: { a: "🚀 🚀 \ud800" }, form: "text" });
    expect(parseJsonIn("text", '{"a":"\\u00e9"}')).toEqual({ value: { a: "é" }, form: "text" });
  });

  it("is undefined for what is not JSON, in either form", () => {
    expect(parseJsonIn("bytes", toBytes("naïve {"))).toBeUndefined();
    expect(parseJsonIn("text", "naïve {")).toBeUndefined();
    expect(parseJsonIn("bytes", "*** Begin Patch\n*** End Patch")).toBeUndefined();
    expect(parseJsonIn("text", "nope")).toBeUndefined();
    expect(parseJsonIn("text", "  ")).toBeUndefined();
    expect(parseJsonIn("bytes", " \n\t-12")).toEqual({ value: -12, form: "bytes" });
    expect(parseJsonIn("bytes", "true")).toEqual({ value: true, form: "bytes" });
    expect(parseJsonIn("text", '"x"')).toEqual({ value: "x", form: "text" });
  });

  it("valueAsText gives the text of a value of byte strings", () => {
    const bytes = parseJsonIn("bytes", toBytes('{"id":"dév","n":[1,"🚀"]}'))!;
    expect(bytes.form).toBe("bytes");
    expect(valueAsText("bytes", bytes.value)).toEqual({ id: "dév", n: [1, "🚀"] });
  });
});

describe("hasNonAsciiEscape", () => {
  /** The definition, one escape at a time: a `\u` after an even run of backslashes, then not four hex digits below 0x80. */
  function reference(json: string): boolean {
    for (let i = 0; i < json.length; i++) {
      if (json[i] !== "\\") continue;
      if (json[i + 1] !== "u") {
        i++; // an escape of one char (`\"`, `\\`, `\n`…): the next char is taken with it
        continue;
      }
      const hex = json.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex) || parseInt(hex, 16) >= 0x80) return true;
      i += 5;
    }
    return false;
  }

  it("says what the definition says, on strings made of backslashes, u, hex digits and quotes", () => {
    const alphabet = fc.constantFrom("\\", "\\", "u", "0", "0", "7", "8", "f", "F", "g", '"', "a", "é");
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 24 }), (chars) => {
      const json = chars.join("");
      expect(hasNonAsciiEscape(json)).toBe(reference(json));
    }), { numRuns: 20_000 });
  });

  it("finds escapes above U+007F and malformed ones, not escaped backslashes before a u", () => {
    const cases: Array<[string, boolean]> = [
      ["\\u0041", false],
      ["\\u007f", false],
      ["\\u0080", true],
      ["\\u00E9", true],
      ["\\ud83d", true],
      ["\\\\u00e9", false],
      ["\\\\\\u00e9", true],
      ['\\"\\u00', true],
      ["x\\u007", true],
      ["\\u00zz", true],
    ];
    for (const [json, expected] of cases) expect(hasNonAsciiEscape(json), json).toBe(expected);
  });
});
