/** The compact id → line table behind the active-branch walk. */
import { describe, expect, it } from "vitest";
import { IdLineTable } from "../../../src/adapters/openclaw/idLineTable.js";

describe("IdLineTable", () => {
  it("finds every id through growth, replaces duplicates and misses unknown ids", () => {
    const table = new IdLineTable(4);
    const ids = Array.from({ length: 50_000 }, (_, i) => (i % 3 === 0 ? (i * 2654435761 >>> 0).toString(16).padStart(8, "0") : `entry-${i}`));
    ids.forEach((id, i) => table.set(id, i + 1));
    expect(table.size).toBe(ids.length);
    expect(ids.filter((id, i) => table.get(id) !== i + 1)).toEqual([]);
    table.set(ids[7]!, 999_999);
    expect(table.size).toBe(ids.length);
    expect(table.get(ids[7]!)).toBe(999_999);
    for (const unknown of ["", "entry-50000", "ffffffff0", "ENTRY-1"]) expect(table.get(unknown)).toBeUndefined();
  });
});
