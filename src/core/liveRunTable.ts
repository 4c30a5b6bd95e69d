/**
 * The per-run state of Gateway logs' live runs, as columns: a run costs its id, a map entry and a
 * few numbers, not an object with a dozen fields and its own copies of the agent, session and time
 * strings. On a log of 300,000 runs the objects took ~290 bytes a run of live heap (and ~650 of RSS),
 * the columns ~130. A run may go on in a later line or file until the whole input is read (inputs.md
 * §4), so a run's state is needed to the end: past a window, the book writes the oldest rows out
 * (`evict`, liveRowSpill.ts). Pure data structure: no I/O.
 */
import { IdRows, NameTable, ownCopy } from "./liveRunIds.js";

/** Counters of a run, each one column. */
export type LiveCounter = "calls" | "compactions" | "armed" | "windowsClosed";

const COUNTERS: readonly LiveCounter[] = ["calls", "compactions", "armed", "windowsClosed"];

/** What a row holds, as values (`startedAt` as epoch ms, or undefined): read out, written to a spill, merged in. */
export interface LiveRowRecord {
  readonly run: string;
  readonly file: string;
  readonly agent: string | null;
  readonly session: string | null;
  readonly calls: number;
  readonly compactions: number;
  readonly armed: number;
  readonly windowsClosed: number;
  readonly started: boolean;
  readonly ended: boolean;
  readonly startedAt: number | undefined;
}

/**
 * What the book does to a run's state, by row: the table's rows, and the rows the book holds as
 * records once they left the table (liveRowSpill.ts) answer alike.
 */
export interface LiveRowStates {
  noteIdentity(row: number, agent: string | undefined, session: string | undefined): void;
  /** Whether no dated line of the run came yet (a time is parsed only then). */
  undated(row: number): boolean;
  noteTime(row: number, ms: number | undefined): void;
  count(row: number, counter: LiveCounter): void;
  markStarted(row: number): void;
  markEnded(row: number): void;
  /** Folds in what a later part of the input knew of the same run: first identity and time kept, counts added. */
  merge(row: number, record: LiveRowRecord): void;
  read(row: number): LiveRowRecord;
}

/** A table's rows as plain data (`LiveRunTable.data`), which structured clone carries between threads. */
export interface LiveRunTableData {
  readonly ids: readonly string[];
  readonly names: readonly string[];
  readonly file: Int32Array;
  readonly agent: Int32Array;
  readonly session: Int32Array;
  readonly counters: Readonly<Record<LiveCounter, Int32Array>>;
  readonly flags: Uint8Array;
  readonly startedAt: Float64Array;
}

/** The records of a table's rows, in order (`LiveRunTable.data`). */
export function* recordsOf(data: LiveRunTableData): Generator<LiveRowRecord> {
  for (let at = 0; at < data.ids.length; at++) yield recordAt(data, at);
}

/** The record of the row at `at` of a table's columns. */
function recordAt(columns: LiveRunTableData, at: number): LiveRowRecord {
  const name = (index: number) => (index === -1 ? null : columns.names[index]!);
  const flags = columns.flags[at]!;
  const startedAt = columns.startedAt[at]!;
  return {
    run: columns.ids[at]!,
    file: columns.names[columns.file[at]!]!,
    agent: name(columns.agent[at]!),
    session: name(columns.session[at]!),
    calls: columns.counters.calls[at]!,
    compactions: columns.counters.compactions[at]!,
    armed: columns.counters.armed[at]!,
    windowsClosed: columns.counters.windowsClosed[at]!,
    started: (flags & STARTED) !== 0,
    ended: (flags & ENDED) !== 0,
    startedAt: Number.isNaN(startedAt) ? undefined : startedAt,
  };
}

const STARTED = 1;
const ENDED = 2;
const INITIAL_CAPACITY = 256;

/**
 * The runs' state as columns. Rows are numbered from 0 in order of first appearance for the whole
 * book; the oldest ones may leave the table (`evict`, for the book's spill), after which it holds
 * rows `[base, size)`: each method takes a row by its number in the book.
 */
export class LiveRunTable implements LiveRowStates {
  private ids: string[] = [];
  private rows = new IdRows(this.ids);
  private names = new NameTable();
  /** Rows that left the table: row `r` is at `r - base` in the columns. */
  private evicted = 0;
  private capacity = INITIAL_CAPACITY;
  /** Name indices (-1: none yet) of each run's file, agent and session. */
  private file = new Int32Array(INITIAL_CAPACITY);
  private agent = new Int32Array(INITIAL_CAPACITY);
  private session = new Int32Array(INITIAL_CAPACITY);
  private counters: Record<LiveCounter, Int32Array> = {
    calls: new Int32Array(INITIAL_CAPACITY),
    compactions: new Int32Array(INITIAL_CAPACITY),
    armed: new Int32Array(INITIAL_CAPACITY),
    windowsClosed: new Int32Array(INITIAL_CAPACITY),
  };
  private flags = new Uint8Array(INITIAL_CAPACITY);
  /** Epoch ms of the run's first dated line; NaN while none was. */
  private startedAt = new Float64Array(INITIAL_CAPACITY);

  /** Rows in the book so far, those evicted included. */
  get size(): number {
    return this.evicted + this.ids.length;
  }

  /** The first row still in the table. */
  get base(): number {
    return this.evicted;
  }

  /** The row of `run` if the table holds it. */
  find(run: string): number | undefined {
    const at = this.rows.get(run);
    return at === undefined ? undefined : at + this.evicted;
  }

  /** A new row for `run`, which the book has not seen (runs keep the order they first appeared in). */
  add(run: string, file: string): number {
    const at = this.ids.length;
    if (at === this.capacity) this.grow();
    this.ids.push(ownCopy(run));
    this.rows.add(at);
    this.file[at] = this.names.indexOf(file);
    this.agent[at] = -1;
    this.session[at] = -1;
    this.startedAt[at] = NaN;
    for (const key of COUNTERS) this.counters[key][at] = 0;
    this.flags[at] = 0;
    return at + this.evicted;
  }

  noteIdentity(row: number, agent: string | undefined, session: string | undefined): void {
    const at = row - this.evicted;
    if (agent !== undefined && this.agent[at] === -1) this.agent[at] = this.names.indexOf(agent);
    if (session !== undefined && this.session[at] === -1) this.session[at] = this.names.indexOf(session);
  }

  undated(row: number): boolean {
    return Number.isNaN(this.startedAt[row - this.evicted]!);
  }

  noteTime(row: number, ms: number | undefined): void {
    if (ms !== undefined && this.undated(row)) this.startedAt[row - this.evicted] = ms;
  }

  count(row: number, counter: LiveCounter): void {
    this.counters[counter][row - this.evicted]!++;
  }

  markStarted(row: number): void {
    this.flags[row - this.evicted]! |= STARTED;
  }

  markEnded(row: number): void {
    this.flags[row - this.evicted]! |= ENDED;
  }

  merge(row: number, record: LiveRowRecord): void {
    const at = row - this.evicted;
    this.noteIdentity(row, record.agent ?? undefined, record.session ?? undefined);
    this.noteTime(row, record.startedAt);
    for (const key of COUNTERS) this.counters[key][at]! += record[key];
    this.flags[at]! |= (record.started ? STARTED : 0) | (record.ended ? ENDED : 0);
  }

  read(row: number): LiveRowRecord {
    const { ids, names, file, agent, session, counters, flags, startedAt } = this;
    return recordAt({ ids, names: names.names, file, agent, session, counters, flags, startedAt }, row - this.evicted);
  }

  /** The rows the table holds, as plain data (typed arrays cut to them): what crosses from a worker thread. */
  data(): LiveRunTableData {
    const held = this.ids.length;
    const counters = {} as Record<LiveCounter, Int32Array>;
    for (const key of COUNTERS) counters[key] = this.counters[key].slice(0, held);
    return {
      ids: this.ids,
      names: this.names.names,
      file: this.file.slice(0, held),
      agent: this.agent.slice(0, held),
      session: this.session.slice(0, held),
      counters,
      flags: this.flags.slice(0, held),
      startedAt: this.startedAt.slice(0, held),
    };
  }

  /**
   * Takes the oldest `count` rows out of the table and returns them. The names only they used go
   * too (a log whose every run has a session of its own would otherwise keep them all), and the id
   * index is rebuilt: both cost the rows kept, once per `count` rows taken.
   */
  evict(count: number): LiveRowRecord[] {
    const out: LiveRowRecord[] = [];
    for (let row = this.evicted; row < this.evicted + count; row++) out.push(this.read(row));
    const kept = this.ids.length - count;
    const names = new NameTable();
    const renamed = new Int32Array(this.names.names.length).fill(-1);
    const rename = (column: Int32Array) => {
      column.copyWithin(0, count, count + kept);
      for (let at = 0; at < kept; at++) {
        const old = column[at]!;
        if (old === -1) continue;
        if (renamed[old] === -1) renamed[old] = names.indexOf(this.names.names[old]!);
        column[at] = renamed[old]!;
      }
    };
    rename(this.file);
    rename(this.agent);
    rename(this.session);
    for (const key of COUNTERS) this.counters[key].copyWithin(0, count, count + kept);
    this.flags.copyWithin(0, count, count + kept);
    this.startedAt.copyWithin(0, count, count + kept);
    this.names = names;
    this.ids = this.ids.slice(count);
    this.rows = new IdRows(this.ids, kept);
    for (let at = 0; at < kept; at++) this.rows.add(at);
    this.evicted += count;
    return out;
  }

  private grow(): void {
    const capacity = Math.ceil(this.capacity * 1.5);
    const widened = <A extends Int32Array | Uint8Array | Float64Array>(column: A, make: new (n: number) => A): A => {
      const next = new make(capacity);
      next.set(column);
      return next;
    };
    this.file = widened(this.file, Int32Array);
    this.agent = widened(this.agent, Int32Array);
    this.session = widened(this.session, Int32Array);
    for (const key of COUNTERS) this.counters[key] = widened(this.counters[key], Int32Array);
    this.flags = widened(this.flags, Uint8Array);
    this.startedAt = widened(this.startedAt, Float64Array);
    this.capacity = capacity;
  }
}
