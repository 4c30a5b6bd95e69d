/**
 * LiveRunBook keeps live runs as columns and makes each run's report when it is read (liveRuns.ts,
 * liveRunTable.ts). What it reports must be what folding the events into one object per run gives:
 * the reference below is that plain fold, written out as the spec reads (inputs.md §4).
 */
import { describe, expect, it } from "vitest";
import { eventTime } from "../../src/core/eventTime.js";
import type { LiveFinding, LiveRun } from "../../src/core/findings.js";
import type { LiveEvent } from "../../src/core/liveEvents.js";
import type { LiveRowBatchRef, LiveRowStore } from "../../src/core/liveRowSpill.js";
import type { LiveRowRecord } from "../../src/core/liveRunTable.js";
import { LiveRunBook, liveThresholdName, runsWithFindings } from "../../src/core/liveRuns.js";
import { prng } from "../helpers/randomSessions.js";

/** One object per run, in order of first appearance; findings in line order, `afterStop` after a non-warning. */
function referenceFold(events: readonly LiveEvent[]): { runs: LiveRun[]; findings: LiveFinding[] } {
  type Mutable<T> = { -readonly [K in keyof T]: T[K] };
  type RunState = Mutable<Omit<LiveRun, "live" | "findings">> & { live: { started: boolean; ended: boolean; guard: { armed: number; persisted: number; windowsClosed: number } } };
  const runs = new Map<string, { run: RunState; findings: LiveFinding[] }>();
  const orphans: LiveFinding[] = [];
  const fileOrder: string[] = [];
  const finding = (e: Extract<LiveEvent, { type: "live_finding" }>): LiveFinding => ({
    run: e.run,
    agent: e.agent ?? null,
    session: e.session ?? null,
    file: e.file,
    line: e.line,
    call: e.call,
    tool: e.tool,
    detector: e.detector,
    level: e.level,
    count: e.count,
    threshold: { name: liveThresholdName(e.detector, e.level), value: null },
    afterStop: false,
    message: e.message,
    argsHash: "",
    source: "log",
    echoLines: e.echoLines,
  });
  for (const e of events) {
    if (!fileOrder.includes(e.file)) fileOrder.push(e.file);
    if (e.run === null) {
      if (e.type === "live_finding") orphans.push(finding(e));
      continue;
    }
    let entry = runs.get(e.run);
    if (!entry) {
      const run: RunState = { run: e.run, agent: null, session: null, file: e.file, calls: 0, compactions: 0, firstStop: null, guardWindows: [], recordedVetoes: 0, startedAt: null, source: "log", live: { started: false, ended: false, guard: { armed: 0, persisted: 0, windowsClosed: 0 } } };
      entry = { run, findings: [] };
      runs.set(e.run, entry);
    }
    const r = entry.run;
    r.agent ??= e.agent ?? null;
    r.session ??= e.session ?? null;
    r.startedAt ??= eventTime(e.ts);
    if (e.type === "live_finding") entry.findings.push(finding(e));
    else if (e.marker === "run_start") r.live.started = true;
    else if (e.marker === "run_end") r.live.ended = true;
    else if (e.marker === "tool_start") r.calls++;
    else if (e.marker === "compaction") r.compactions++;
    else if (e.marker === "guard_armed") r.live.guard.armed++;
    else r.live.guard.windowsClosed++;
  }
  const out: LiveRun[] = [];
  for (const { run, findings } of runs.values()) {
    findings.sort((a, b) => a.line - b.line);
    let stopped = false;
    for (const f of findings as Array<Mutable<LiveFinding>>) {
      f.agent ??= run.agent;
      f.session ??= run.session;
      f.afterStop = stopped;
      if (f.level !== "warning") stopped = true;
    }
    run.live.guard.persisted = findings.filter((f) => f.detector === "compaction_loop_persisted").length;
    out.push({ ...run, findings });
  }
  const all = [...out.flatMap((run) => run.findings), ...orphans];
  all.sort((a, b) => fileOrder.indexOf(a.file) - fileOrder.indexOf(b.file) || a.line - b.line);
  return { runs: out, findings: all };
}

const MARKERS = ["run_start", "run_end", "tool_start", "compaction", "guard_armed", "guard_closed"] as const;
const TIMES = [undefined, "2026-05-02T00:00:01.500Z", "not a time", 1_777_680_000, 1_777_680_000_123.7, "2026-05-02T02:00:00+02:00"];

const FEW_RUNS = [null, "r1", "r2", "4f0a8a64-5e0c-4c3b-9d7e-a1b2c3d4e5f6", "r4", "r5"];
/** Enough runs that a book with a small window writes most of them out and meets them again. */
const MANY_RUNS = [null, ...Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? `run-${i}` : `${i}-é-${"x".repeat(i % 20)}`))];

/** A store in memory, as the pipeline's file would be: records written in batches, read back in order. */
class MemoryStore implements LiveRowStore {
  readonly batches: string[][] = [];

  write(records: readonly LiveRowRecord[]): LiveRowBatchRef {
    this.batches.push(records.map((record) => JSON.stringify(record)));
    return { index: this.batches.length - 1 };
  }

  *read(batch: LiveRowBatchRef): Generator<LiveRowRecord> {
    for (const line of this.batches[Number(batch.index)]!) yield JSON.parse(line) as LiveRowRecord;
  }
}

function randomEvents(seed: number, count: number, runIds: ReadonlyArray<string | null> = FEW_RUNS): LiveEvent[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const events: LiveEvent[] = [];
  for (let line = 1; line <= count; line++) {
    const base = {
      run: pick(runIds),
      file: pick(["/logs/openclaw-2026-05-02.log", "/logs/openclaw-2026-05-03.log"]),
      line: random() < 0.2 ? Math.ceil(random() * count) : line, // read back from an edited events file: out of order
      ...(random() < 0.5 ? { agent: pick(["main", "ops"]) } : {}),
      ...(random() < 0.5 ? { session: pick(["s1", "s2", "s3"]) } : {}),
      ...(random() < 0.7 ? { ts: pick(TIMES) } : {}),
    };
    if (random() < 0.3) {
      const level = pick(["warning", "critical", "abort"] as const);
      const detector = level === "abort" ? "compaction_loop_persisted" : pick(["generic_repeat", "ping_pong", "known_poll_no_progress"] as const);
      events.push({ ...base, type: "live_finding", call: random() < 0.5 ? null : Math.ceil(random() * 9), tool: "exec", detector, level, count: 10, message: `m${line}`, echoLines: [] });
    } else {
      const marker = pick(MARKERS);
      if (marker === "tool_start") events.push({ ...base, type: "live_marker", marker, tool: "exec" });
      else if (marker === "compaction") events.push({ ...base, type: "live_marker", marker, cause: "overflow" });
      else if (marker === "guard_armed") events.push({ ...base, type: "live_marker", marker, attempts: 3 });
      else if (marker === "guard_closed") events.push({ ...base, type: "live_marker", marker, toolCalls: 3, preCompactionRepeats: 0, tools: [] });
      else events.push({ ...base, type: "live_marker", marker });
    }
  }
  return events;
}

/** The calls and compactions of every run: what a book's `totals` must say without reading them. */
function totalsOf(runs: readonly LiveRun[]): { calls: number; compactions: number } {
  return { calls: runs.reduce((sum, run) => sum + run.calls, 0), compactions: runs.reduce((sum, run) => sum + run.compactions, 0) };
}

/** `merged` after absorbing, one by one, the books of random slices of `events` (as workers send their units'). */
function inParts(events: readonly LiveEvent[], random: () => number, longest: number, merged: LiveRunBook, unitBook: () => LiveRunBook): LiveRunBook {
  for (let start = 0; start < events.length; ) {
    const end = Math.min(events.length, start + 1 + Math.floor(random() * longest));
    const unit = unitBook();
    for (const event of events.slice(start, end)) unit.push(event);
    const part = unit.part();
    if (part) merged.absorb(structuredClone(part));
    start = end;
  }
  return merged;
}

describe("LiveRunBook", () => {
  it("reports what folding the events into one object per run gives (60 random logs)", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const events = randomEvents(seed, 20 + seed * 7);
      const book = new LiveRunBook();
      for (const event of events) book.push(event);
      const { runs, findings } = book.finish();
      const expected = referenceFold(structuredClone(events));
      expect([...runs]).toEqual(expected.runs);
      expect(runs.length).toBe(expected.runs.length);
      expect(findings).toEqual(expected.findings);
    }
  });

  it("folds units' books (as a worker sends them) into what one book of all their events gives", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const events = randomEvents(seed, 30 + seed * 5);
      const whole = new LiveRunBook();
      for (const event of events) whole.push(event);
      const merged = inParts(events, prng(seed + 1000), 25, new LiveRunBook(), () => new LiveRunBook());
      const expected = whole.finish();
      const got = merged.finish();
      expect([...got.runs]).toEqual([...expected.runs]);
      expect(got.findings).toEqual(expected.findings);
    }
    expect(new LiveRunBook().part()).toBeUndefined();
  });

  it("lists the runs with findings, in order, from a book as from an array", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const book = new LiveRunBook();
      for (const event of randomEvents(seed, 80)) book.push(event);
      const { runs } = book.finish();
      const expected = [...runs].filter((run) => run.findings.length > 0);
      expect([...runsWithFindings(runs)]).toEqual(expected);
      expect([...runsWithFindings([...runs])]).toEqual(expected);
    }
  });

  it("gives the same runs each time they are read, past the columns' first growth", () => {
    const book = new LiveRunBook();
    for (let i = 0; i < 1000; i++) {
      const run = `run-${String(i).padStart(40, "0")}`;
      book.push({ type: "live_marker", marker: "run_start", run, file: "/logs/a.log", line: 2 * i + 1, session: `s${i % 7}`, ts: 1_777_680_000_000 + i });
      book.push({ type: "live_marker", marker: "tool_start", tool: "read", run, file: "/logs/a.log", line: 2 * i + 2 });
    }
    const { runs } = book.finish();
    const first = [...runs];
    expect(first).toHaveLength(1000);
    expect([...runs]).toEqual(first);
    expect(first[999]).toMatchObject({ run: `run-${String(999).padStart(40, "0")}`, session: "s5", calls: 1, startedAt: new Date(1_777_680_000_999).toISOString(), live: { started: true, ended: false } });
  });

  it.each([1, 2, 5, 16])("reports the same with a store and a window of %i runs: older runs written out and met again", (window) => {
    let written = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const events = randomEvents(seed, 100 + seed * 10, MANY_RUNS);
      const store = new MemoryStore();
      const book = new LiveRunBook(store, window);
      for (const event of events) book.push(event);
      const { runs, findings } = book.finish();
      const expected = referenceFold(structuredClone(events));
      expect([...runs]).toEqual(expected.runs);
      expect([...runs]).toEqual(expected.runs); // read back twice: the report reads them twice
      expect(runs.length).toBe(expected.runs.length);
      expect(findings).toEqual(expected.findings);
      expect([...runsWithFindings(runs)]).toEqual(expected.runs.filter((run) => run.findings.length > 0));
      expect(runs.totals).toEqual(totalsOf(expected.runs));
      written += store.batches.flat().length;
    }
    expect(written).toBeGreaterThan(1000);
  });

  it("folds units' books with their written-out runs into what one book of all their events gives", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const events = randomEvents(seed, 200 + seed * 5, MANY_RUNS);
      const whole = new LiveRunBook();
      for (const event of events) whole.push(event);
      // One store for all the books, as the pipeline's files are readable from any thread.
      const store = new MemoryStore();
      const merged = inParts(events, prng(seed + 2000), 60, new LiveRunBook(store, 3), () => new LiveRunBook(store, 2));
      const expected = whole.finish();
      const got = merged.finish();
      expect([...got.runs]).toEqual([...expected.runs]);
      expect(got.runs.totals).toEqual(totalsOf([...expected.runs]));
      expect(got.findings).toEqual(expected.findings);
    }
  });

  it("needs a store to absorb a part with written-out runs", () => {
    const unit = new LiveRunBook(new MemoryStore(), 1);
    for (const event of randomEvents(7, 50, MANY_RUNS)) unit.push(event);
    expect(() => new LiveRunBook().absorb(unit.part()!)).toThrow(/store/);
  });
});
