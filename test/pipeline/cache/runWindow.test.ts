/**
 * `--since`/`--until` on a warm cache: a unit whose runs all started outside the window is counted
 * from its entry's summary, its runs not read back, and every format prints what it prints without
 * the cache (hidden and undated runs, hidden findings, exit status).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadByteHasher } from "../../../src/pipeline/cache/byteHash.js";
import { readUsage } from "../../../src/pipeline/cache/cacheUsage.js";
import { allOutside, RunTimesTally, skipWindow } from "../../../src/pipeline/cache/runWindow.js";
import { call, result, toJsonl, type EventLine } from "../../helpers/events.js";
import { replaceEntry, storedEntries } from "./storedEntries.js";
import { tempDir } from "../../helpers/tempDir.js";
import { bothWays, expectSameEveryFormat, makeInputs } from "./cacheBench.js";

/** A run of `calls` identical reads (a loop past 10 warns), each event dated from `start` on, or undated. */
function dated(run: string, start: string | null, calls: number): EventLine[] {
  const at = (i: number) => (start === null ? {} : { ts: new Date(Date.parse(start) + i * 1000).toISOString() });
  const lines: EventLine[] = [];
  for (let i = 0; i < calls; i++) lines.push(call(run, `${run}-${i}`, "read", { path: "/a" }, at(i)), result(run, `${run}-${i}`, "read", "same", at(i)));
  return lines;
}

/** The makeInputs folder, plus event files of one old run, of an old and a new run, of a new run, and of an undated run. */
function inputsWithDates(root: string): string {
  const inputs = makeInputs(root);
  writeFileSync(join(inputs, "events", "old.jsonl"), toJsonl([...dated("old-a", "2020-03-01T10:00:00Z", 14), ...dated("old-b", "2020-03-02T10:00:00Z", 3)]));
  writeFileSync(join(inputs, "events", "both.jsonl"), toJsonl([...dated("both-old", "2020-06-01T10:00:00Z", 12), ...dated("both-new", "2027-01-01T10:00:00Z", 12)]));
  writeFileSync(join(inputs, "events", "new.jsonl"), toJsonl(dated("new-a", "2027-02-01T10:00:00Z", 15)));
  writeFileSync(join(inputs, "events", "undated.jsonl"), toJsonl(dated("undated-a", null, 13)));
  return inputs;
}

/**
 * Replaces the run lines of `file`'s entries (with and without timelines) by lines that are no run at
 * all, with the body's hash put right: each entry is whole, but reading its runs back fails (a miss).
 */
async function unparseableRuns(cacheDir: string, file: string): Promise<void> {
  const hasher = await loadByteHasher();
  const entries = storedEntries(cacheDir).filter((entry) => entry.bytes().toString("utf8").split("\n", 1)[0]!.includes(JSON.stringify(file)));
  expect(entries.length, `the entries of ${file}`).toBeGreaterThan(0);
  for (const entry of entries) {
    const [stamp, summary] = entry.bytes().toString("utf8").split("\n");
    const body = `${summary}\nnot a run\n`;
    replaceEntry(cacheDir, entry, Buffer.from(`${stamp}\n${body}#${hasher.hash(Buffer.from(body))}\n`));
  }
}

describe("the run window of cached units", () => {
  it("ranges over the start times that parse, and counts the undated runs", () => {
    const tally = new RunTimesTally();
    for (const startedAt of ["2026-01-02T00:00:00Z", null, "2026-01-01T00:00:00Z", "not a time", undefined, "2026-01-03T00:00:00Z"]) tally.add({ startedAt });
    const times = tally.finish();
    expect(times).toEqual({ from: Date.parse("2026-01-01T00:00:00Z"), to: Date.parse("2026-01-03T00:00:00Z"), undated: 2 });
    const day = (date: string) => Date.parse(`${date}T00:00:00Z`);
    expect(allOutside(times, { since: day("2026-01-04") })).toBe(true);
    expect(allOutside(times, { since: day("2026-01-03") })).toBe(false);
    expect(allOutside(times, { until: day("2025-12-31") })).toBe(true);
    expect(allOutside(times, { since: day("2025-01-01"), until: day("2026-01-01") })).toBe(false);
    expect(allOutside({ from: null, to: null, undated: 3 }, { until: day("2026-01-01") })).toBe(true);
    // An entry of a build that kept no times is read whole.
    expect(allOutside(undefined, { since: 0 })).toBe(false);
  });

  it("is only taken for --since/--until, and not when --agent or the config header must see every run", () => {
    expect(skipWindow({ since: "2026-01-01T00:00:00.000Z" }, false)).toEqual({ since: Date.parse("2026-01-01T00:00:00.000Z") });
    expect(skipWindow({ until: "2026-01-01T00:00:00.000Z", tool: ["read"] }, false)).toEqual({ until: Date.parse("2026-01-01T00:00:00.000Z") });
    expect(skipWindow({ run: ["a"] }, false)).toBeUndefined();
    expect(skipWindow({ since: "2026-01-01T00:00:00.000Z", agent: "ops" }, false)).toBeUndefined();
    expect(skipWindow({ since: "2026-01-01T00:00:00.000Z" }, true)).toBeUndefined();
  });

  it("leaves a warm unit outside the window unread, and prints what looplens prints without the cache", async () => {
    const root = tempDir("looplens-cache-window-");
    const inputs = inputsWithDates(root);
    const cacheDir = join(root, "cache");
    await expectSameEveryFormat([inputs], cacheDir, "cold");
    // The old unit's runs can no longer be read back from its entry: a read would be a miss.
    await unparseableRuns(cacheDir, join(inputs, "events", "old.jsonl"));
    for (const window of [["--since", "2025-01-01"], ["--until", "2021-01-01"], ["--since", "2026-12-01", "--detector", "generic_repeat"], ["--since", "2020-03-01T12:00:00Z", "--until", "2020-05-01"]]) {
      const outside = window[1] === "2025-01-01" || window[1] === "2026-12-01";
      const { cached, fresh } = await bothWays(["analyze", "-f", "json", ...window, inputs], cacheDir);
      expect(cached.stdout, window.join(" ")).toBe(fresh.stdout);
      // Outside the window, the tampered entry is a hit (its runs unread); inside, reading them is a miss (then rebuilt).
      expect(readUsage(cacheDir)?.last?.misses, window.join(" ")).toBe(outside ? 0 : 1);
      await expectSameEveryFormat([...window, inputs], cacheDir, window.join(" "));
      await unparseableRuns(cacheDir, join(inputs, "events", "old.jsonl"));
    }
    // --agent must see every run: the entry is read whole (a miss), and the output is the same.
    const { cached, fresh } = await bothWays(["analyze", "-f", "json", "--since", "2025-01-01", "--agent", "ops", inputs], cacheDir);
    expect(cached.stdout).toBe(fresh.stdout);
    expect(readUsage(cacheDir)?.last?.misses).toBe(1);
    expect(JSON.parse(cached.stdout).summary.filtered).toMatchObject({ runsHidden: expect.any(Number), runsUndated: expect.any(Number) });
  }, 600_000);
});
