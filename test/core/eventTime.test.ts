/** Recorded times as ISO strings: the shortcut for strings already in that form gives what a parse and format give. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventTime, eventTimeMs, isCanonicalIso } from "../../src/core/eventTime.js";

/** The long way: parse, then format (what eventTime did for every string before the shortcut). */
function parsedAndFormatted(ts: string): string | null {
  const ms = eventTimeMs(ts);
  return ms === undefined ? null : new Date(ms).toISOString();
}

const two = (n: number) => String(n).padStart(2, "0");

describe("eventTime", () => {
  it("gives what parsing and formatting give, for strings of the ISO shape with any field values", () => {
    // Fields beyond their ranges too: day 31 of a 30-day month, Feb 29 off leap years, hour 24, minute 60.
    const iso = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 999 }))
      .map(([y, mo, d, h, mi, s, ms]) => `${String(y).padStart(4, "0")}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}.${String(ms).padStart(3, "0")}Z`);
    fc.assert(
      fc.property(iso, (ts) => {
        expect(eventTime(ts), ts).toBe(parsedAndFormatted(ts));
        // The shortcut is taken exactly where the string is its own ISO form (the common case).
        expect(isCanonicalIso(ts), ts).toBe(parsedAndFormatted(ts) === ts);
      }),
      { numRuns: 5000 },
    );
  });

  it("takes the shortcut for the times transcripts record", () => {
    for (const ts of ["2026-05-01T09:00:00.000Z", "2024-02-29T23:59:59.999Z", "0001-01-01T00:00:00.000Z"]) expect(isCanonicalIso(ts), ts).toBe(true);
    for (const ts of ["2026-05-01T09:00:00Z", "2026-02-29T00:00:00.000Z", "2026-01-01T24:00:00.000Z"]) expect(isCanonicalIso(ts), ts).toBe(false);
  });

  it("rolls over what Date.parse rolls over, and turns other forms into the ISO form", () => {
    expect(eventTime("2026-02-29T00:00:00.000Z")).toBe("2026-03-01T00:00:00.000Z");
    expect(eventTime("2024-02-29T00:00:00.000Z")).toBe("2024-02-29T00:00:00.000Z");
    expect(eventTime("2026-04-31T10:00:00.000Z")).toBe("2026-05-01T10:00:00.000Z");
    expect(eventTime("2026-01-01T24:00:00.000Z")).toBe("2026-01-02T00:00:00.000Z");
    expect(eventTime("2026-01-01T10:00:00Z")).toBe("2026-01-01T10:00:00.000Z");
    expect(eventTime("2026-01-01T10:00:00.000+02:00")).toBe("2026-01-01T08:00:00.000Z");
    expect(eventTime(1767261600)).toBe("2026-01-01T10:00:00.000Z");
    expect(eventTime("not a date")).toBeNull();
    expect(eventTime(undefined)).toBeNull();
  });
});
