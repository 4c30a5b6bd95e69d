import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SessionLineScanner } from "../../../src/adapters/openclaw/sessionLineScan.js";
import { classifySessionLine, entryRunMarker } from "../../../src/adapters/openclaw/sessionEntries.js";

/** Asks about each line in turn, as the first pass does, with the lines in one read buffer. */
function mayBeMarkers(lines: readonly string[]): boolean[] {
  const buffer = Buffer.from(lines.join("\n"));
  const scanner = new SessionLineScanner();
  let start = 0;
  return lines.map((line) => {
    const end = start + Buffer.byteLength(line);
    const answer = scanner.mayBeMarker(buffer, start, end);
    start = end + 1;
    return answer;
  });
}

const isMarker = (line: string) => {
  const parsed = classifySessionLine(line, true);
  return parsed.kind === "entry" && entryRunMarker(1, parsed.type, parsed.value, parsed.form) !== undefined;
};

describe("SessionLineScanner.mayBeMarker", () => {
  it("passes over messages of other roles and entries of other types written as OpenClaw writes them", () => {
    const prefix = '"id":"0a1b2c3d","parentId":"9f8e7d6c","timestamp":"2026-04-16T02:00:00.000Z"';
    const lines = [
      `{"type":"message",${prefix},"message":{"role":"assistant","content":[{"type":"text","text":"the \\"user\\" said"}]}}`,
      `{"type":"message","id":"a","parentId":null,"message":{"role":"toolResult","toolCallId":"k","content":[]}}`,
      `{"type":"compaction",${prefix},"summary":"x"}`,
      `{"type":"session","version":3,"id":"s"}`,
      `{ "type" : "model_change" , "id" : "m" }`,
    ];
    expect(mayBeMarkers(lines)).toEqual([false, false, false, false, false]);
  });

  it("leaves user messages, custom entries and anything it cannot tell to the parse", () => {
    const lines = [
      '{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"go"}}',
      '{"type":"custom","customType":"openclaw:bootstrap-context:full","data":{"runId":"r"}}',
      '{"type":"message","id":"d","message":{"role":"\\u0075ser","content":"go"}}', // escape
      '{"type":"message","usage":{},"message":{"role":"assistant"}}', // nested value first
      '{"message":{"role":"assistant"},"type":"message"}', // message before type
      '{"type":"message","id":"x","message":{"content":[],"role":"user"}}', // role not first
      '{"type":"message","id":"x"}', // no message
      '["type"]',
    ];
    expect(mayBeMarkers(lines)).toEqual(lines.map(() => true));
  });

  it("never passes over a line that holds a run marker", () => {
    const text = fc.oneof(fc.constantFrom("user", "custom", "assistant", 'a"b', "\\", "é", "\u2028"), fc.string());
    const value = fc.oneof(text, fc.dictionary(fc.constantFrom("role", "runId", "type", "text"), text, { maxKeys: 3 }));
    const entry = fc.record(
      {
        type: fc.constantFrom("message", "custom", "compaction", "label"),
        id: text,
        customType: fc.constantFrom("openclaw:bootstrap-context:full", "openclaw:prompt-error", "other"),
        data: fc.record({ runId: text }),
        message: fc.record({ role: fc.constantFrom("user", "assistant", "toolResult", "custom"), content: value }, { requiredKeys: [] }),
        extra: value,
      },
      { requiredKeys: [] },
    );
    // Keys in any order, and letters spelled as escapes at times (as other writers may). A key given
    // twice can make the beginning lie: the second pass's check catches that (sessionFirstPass.test.ts).
    const line = fc
      .tuple(entry, fc.boolean())
      .map(([e, escaped]) => (escaped ? JSON.stringify(e).replace(/u/g, "\\u0075") : JSON.stringify(e)));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const answers = mayBeMarkers(lines);
        lines.forEach((text, i) => {
          if (isMarker(text)) expect(answers[i], text).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe("SessionLineScanner timestamps", () => {
  const at = (line: string) => {
    const bytes = Buffer.from(`xx${line}yy`);
    return new SessionLineScanner().messageTimestampAtEnd(bytes, 2, bytes.length - 2);
  };

  it("reads a message's timestamp from the end of a line written as OpenClaw writes it", () => {
    expect(at('{"type":"message","message":{"role":"user","content":"go","timestamp":1776216724064}}')).toBe(1776216724064);
    expect(at('{"message":{"role":"user","timestamp" : 0 } }  ')).toBe(0);
  });

  it("leaves anything else to the parse", () => {
    for (const line of [
      '{"message":{"role":"user","timestamp":"2026-01-01"}}', // a string
      '{"message":{"role":"user","timestamp":1.5}}', // not whole
      '{"message":{"role":"user","timestamp":-1}}',
      '{"message":{"role":"user","timestamp":01}}', // not JSON
      '{"message":{"role":"user","timestamp":1}}}', // three braces
      '{"message":{"role":"user","timestamp":1}', // one
      '{"message":{"timestamp":1}}', // no key before it
      '{"message":{"role":"user","time":1}}',
      '{"message":{"role":"user","x\"timestamp":1}}',
      "}}",
    ]) {
      expect(at(line), line).toBeUndefined();
    }
  });

  it("keeps the entry's timestamp the scan met, as a parse gives it", () => {
    const scanner = new SessionLineScanner();
    const entry = (line: string) => {
      const bytes = Buffer.from(line);
      scanner.scan(bytes, 0, bytes.length);
      return scanner.entryTimestamp();
    };
    expect(entry('{"type":"message","id":"a","parentId":null,"timestamp":"2026-04-15T01:32:04.243Z","message":{"role":"user"}}')).toBe("2026-04-15T01:32:04.243Z");
    expect(entry('{"type":"message","id":"a","parentId":null,"timestamp":1776,"message":{"role":"user"}}')).toBe(1776);
    expect(entry('{"type":"message","id":"a","parentId":null,"message":{"role":"user"}}')).toBeUndefined();
    expect(entry('{"type":"message","id":"a","parentId":null,"timestamp":"t\u00e9","message":{"role":"user"}}')).toBe("unreadable");
    expect(entry('{"type":"message","id":"a","parentId":null,"timestamp":1e3,"message":{"role":"user"}}')).toBe("unreadable");
  });
});
