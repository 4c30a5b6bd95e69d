/**
 * Folds live events (already attributed to runs) into what the report shows of a Gateway log: one
 * "live run" per run id with its tool starts, compactions, guard lines and findings, plus the
 * findings logged while no run was open. Pure: the adapter did the reading and the attribution.
 */
import { detectorInfo } from "./detectorInfo.js";
import type { DetectorName, ThresholdName } from "./detectors.js";
import type { FindingLevel, LiveFinding, LiveRun } from "./findings.js";
import type { LiveEvent, LiveFindingEvent } from "./liveEvents.js";
import { eventTimeMs } from "./eventTime.js";
import { LiveRunTable, recordsOf, type LiveRowRecord, type LiveRowStates, type LiveRunTableData } from "./liveRunTable.js";
import { SpilledRows, recordsOfBatches, type LiveRowBatch, type LiveRowStore } from "./liveRowSpill.js";
import { NONE } from "./none.js";

export interface LiveAnalysis {
  /** Live runs in order of first appearance; each has `source: "log"`. */
  readonly runs: LiveRunList;
  /** Every live finding, in input order (file, then line), including those outside any run. */
  readonly findings: LiveFinding[];
}

/**
 * The threshold a live event crossed, by name only: a log does not say what the runtime's config
 * was, so the value is unknown (reported as `null`, never guessed from the count).
 */
export function liveThresholdName(detector: DetectorName, level: FindingLevel): ThresholdName {
  // A warning-only detector (argument_churn) has no stop threshold of its own.
  return level === "warning" ? "warningThreshold" : (detectorInfo(detector).stop ?? "warningThreshold");
}

type Draft = { -readonly [K in keyof LiveFinding]: LiveFinding[K] };

/**
 * The live runs of an analysis, in order of first appearance. Made one at a time as they are read
 * (a log of a million runs is never a million report objects at once); arrays are lists too (a
 * filtered selection is one).
 */
export interface LiveRunList extends Iterable<LiveRun> {
  readonly length: number;
  /** Calls and compactions over every run, when the list knows them without reading every run (a book's). */
  readonly totals?: LiveRunTotals;
}

export interface LiveRunTotals {
  readonly calls: number;
  readonly compactions: number;
}

/** A book as plain data (`LiveRunBook.part`): what a worker's unit read of Gateway logs. */
export interface LiveBookPart {
  /** Files in the order their first event came. */
  readonly files: readonly string[];
  /** The rows still in the table, after those written out. */
  readonly table: LiveRunTableData;
  /** The rows before them, written out (read through the store of the book that absorbs the part). */
  readonly batches: readonly LiveRowBatch[];
  readonly held: ReadonlyArray<readonly [number, LiveRowRecord]>;
  readonly findings: ReadonlyArray<readonly [number, Draft[]]>;
  readonly orphans: readonly Draft[];
}

/** Runs a book keeps in its table before it writes the oldest half out (~200 bytes a run: ~6 MB). */
export const LIVE_ROWS_IN_MEMORY = 32_768;

/**
 * The live runs of an analysis. With a store, memory does not grow with the number of runs: past
 * `window` rows in the table, the oldest are written out (liveRowSpill.ts).
 */
export class LiveRunBook {
  private readonly table = new LiveRunTable();
  private readonly spilled: SpilledRows | undefined;
  /** Findings by run row: only runs with findings have an entry. */
  private readonly findings = new Map<number, Draft[]>();
  private readonly orphans: Draft[] = [];
  private readonly fileOrder = new Map<string, number>();
  private readonly window: number;
  /** Kept as runs are counted, so that the summary need not read every run back. */
  private readonly totals = { calls: 0, compactions: 0 };

  constructor(
    private readonly store?: LiveRowStore,
    window = LIVE_ROWS_IN_MEMORY,
  ) {
    this.spilled = store && new SpilledRows(store);
    this.window = Math.max(1, window);
  }

  push(event: LiveEvent): void {
    if (!this.fileOrder.has(event.file)) this.fileOrder.set(event.file, this.fileOrder.size);
    if (event.run === null) {
      if (event.type === "live_finding") this.orphans.push(toFinding(event));
      return; // markers outside any run have no run to count them in
    }
    const row = this.rowFor(event.run, event.file);
    const states = this.states(row);
    states.noteIdentity(row, event.agent, event.session);
    if (states.undated(row)) states.noteTime(row, eventTimeMs(event.ts));
    if (event.type === "live_finding") return this.addFindings(row, [toFinding(event)]);
    switch (event.marker) {
      case "run_start":
        return states.markStarted(row);
      case "run_end":
        return states.markEnded(row);
      case "tool_start":
        this.totals.calls++;
        return states.count(row, "calls");
      case "compaction":
        this.totals.compactions++;
        return states.count(row, "compactions");
      case "guard_armed":
        return states.count(row, "armed");
      case "guard_closed":
        return states.count(row, "windowsClosed");
    }
  }

  /** What the book holds, as plain data (for a worker's unit); undefined when nothing was pushed. */
  part(): LiveBookPart | undefined {
    if (this.fileOrder.size === 0) return undefined;
    return {
      files: [...this.fileOrder.keys()],
      table: this.table.data(),
      batches: this.spilled?.batches ?? [],
      held: this.spilled?.heldRecords() ?? [],
      findings: [...this.findings],
      orphans: this.orphans,
    };
  }

  /** Folds in the book of the unit read next, as if its events had been pushed here. */
  absorb(part: LiveBookPart): void {
    for (const file of part.files) if (!this.fileOrder.has(file)) this.fileOrder.set(file, this.fileOrder.size);
    const findings = new Map(part.findings);
    let from = 0;
    for (const record of this.recordsOfPart(part)) {
      const row = this.rowFor(record.run, record.file);
      this.states(row).merge(row, record);
      this.totals.calls += record.calls;
      this.totals.compactions += record.compactions;
      // Here, not after the loop: a row without findings may leave the table as later rows come.
      const found = findings.get(from++);
      if (found) this.addFindings(row, found);
    }
    // Not push(...): spreading ~100k items into arguments overflows the stack.
    for (const finding of part.orphans) this.orphans.push(finding);
  }

  finish(): LiveAnalysis {
    // Runs' findings in run order, then those outside any run; the sort below is stable.
    const rowsWithFindings = [...this.findings.keys()].sort((a, b) => a - b);
    const all: LiveFinding[] = [];
    for (const row of rowsWithFindings) for (const finding of settledFindings(this.findings.get(row)!, this.states(row).read(row))) all.push(finding);
    for (const finding of this.orphans) all.push(finding);
    const order = (f: LiveFinding) => this.fileOrder.get(f.file) ?? 0;
    all.sort((a, b) => order(a) - order(b) || a.line - b.line);
    const read = (row: number) => this.states(row).read(row);
    return { runs: new BookRuns(this.table, this.spilled, read, this.findings, rowsWithFindings, { ...this.totals }), findings: all };
  }

  /** The row of `run`: in the table, evicted (held from now on), or new. */
  private rowFor(run: string, file: string): number {
    const row = this.table.find(run) ?? this.spilled?.rowOf(run);
    if (row !== undefined) return row;
    const added = this.table.add(run, file);
    const inTable = this.table.size - this.table.base;
    if (this.spilled && inTable > this.window) {
      // The row just added stays: it is about to be written to.
      const first = this.table.base;
      const records = this.table.evict(inTable - Math.max(1, Math.floor(this.window / 2)));
      this.spilled.spill(first, records, (evicted) => this.findings.has(evicted));
    }
    return added;
  }

  private states(row: number): LiveRowStates {
    return row >= this.table.base ? this.table : this.spilled!;
  }

  private addFindings(row: number, found: readonly Draft[]): void {
    const known = this.findings.get(row);
    if (known) for (const finding of found) known.push(finding);
    else this.findings.set(row, [...found]);
  }

  /** A part's rows in order: its evicted ones (through this book's store), then its table's. */
  private *recordsOfPart(part: LiveBookPart): Generator<LiveRowRecord> {
    if (part.batches.length > 0) {
      if (!this.store) throw new Error("a live book part with spilled rows needs a book with a store to absorb it");
      yield* recordsOfBatches(this.store, part.batches, new Map(part.held));
    }
    yield* recordsOf(part.table);
  }
}

/** The book's runs, each made into its report when a reader gets to it (evicted ones read back). */
class BookRuns implements LiveRunList {
  constructor(
    private readonly table: LiveRunTable,
    private readonly spilled: SpilledRows | undefined,
    /** A row's state, in the table or held. */
    private readonly read: (row: number) => LiveRowRecord,
    private readonly findings: ReadonlyMap<number, readonly LiveFinding[]>,
    /** The rows with findings, in order (the keys of `findings`, sorted). */
    private readonly rowsWithFindings: readonly number[],
    readonly totals: LiveRunTotals,
  ) {}

  get length(): number {
    return this.table.size;
  }

  *[Symbol.iterator](): Iterator<LiveRun> {
    let row = 0;
    if (this.spilled) for (const record of this.spilled.records()) yield liveRun(record, this.findings.get(row++) ?? NONE);
    for (; row < this.table.size; row++) yield liveRun(this.table.read(row), this.findings.get(row) ?? NONE);
  }

  *withFindings(): Generator<LiveRun> {
    for (const row of this.rowsWithFindings) yield liveRun(this.read(row), this.findings.get(row)!);
  }
}

/**
 * The runs of a list that have findings, in order: for a book's list without making the others (most
 * readers only look at those), for an array by filtering it.
 */
export function runsWithFindings(list: LiveRunList): Iterable<LiveRun> {
  if (list instanceof BookRuns) return list.withFindings();
  return [...list].filter((run) => run.findings.length > 0);
}

/**
 * A run's findings in line order (read back from an edited events file, they may come out of it),
 * with the run's identity and `afterStop` filled in: settled once, when the book is finished.
 */
function settledFindings(findings: Draft[], state: LiveRowRecord): Draft[] {
  findings.sort((a, b) => a.line - b.line);
  let stopped = false;
  for (const finding of findings) {
    finding.agent ??= state.agent;
    finding.session ??= state.session;
    finding.afterStop = stopped;
    // The live runtime vetoed the call (critical) or aborted the run: what follows came after a stop.
    if (finding.level !== "warning") stopped = true;
  }
  return findings;
}

function liveRun(state: LiveRowRecord, findings: readonly LiveFinding[]): LiveRun {
  return {
    run: state.run,
    agent: state.agent,
    session: state.session,
    file: state.file,
    calls: state.calls,
    compactions: state.compactions,
    findings,
    firstStop: null,
    guardWindows: NONE,
    recordedVetoes: 0,
    startedAt: state.startedAt === undefined ? null : new Date(state.startedAt).toISOString(),
    source: "log",
    live: {
      started: state.started,
      ended: state.ended,
      guard: {
        armed: state.armed,
        persisted: findings.length === 0 ? 0 : findings.filter((f) => f.detector === "compaction_loop_persisted").length,
        windowsClosed: state.windowsClosed,
      },
    },
  };
}

/** The finding of a live event; the run's identity and `afterStop` are settled when the run is reported. */
function toFinding(event: LiveFindingEvent): Draft {
  return {
    run: event.run,
    agent: event.agent ?? null,
    session: event.session ?? null,
    file: event.file,
    line: event.line,
    call: event.call,
    tool: event.tool,
    detector: event.detector,
    level: event.level,
    count: event.count,
    threshold: { name: liveThresholdName(event.detector, event.level), value: null },
    afterStop: false,
    message: event.message,
    argsHash: "",
    source: "log",
    echoLines: event.echoLines,
  };
}
