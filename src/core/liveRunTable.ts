/**
 * The per-run state of Gateway logs' live runs, as columns: a run costs its id, a map entry and a
 * few numbers, not an object with a dozen fields and its own copies of the agent, session and time
 * strings. A run may go on in a later line or file until the whole input is read (inputs.md §4), so
 * every run's state is kept to the end; on a log of 300,000 runs the objects took ~290 bytes a run
 * of live heap (and ~650 of RSS), the columns ~130. Pure data structure: no I/O.
 */

/** Counters of a run, each one column. */
export type LiveCounter = "calls" | "compactions" | "armed" | "windowsClosed";

const COUNTERS: readonly LiveCounter[] = ["calls", "compactions", "armed", "windowsClosed"];

/** A table as plain data (`LiveRunTable.data`), which structured clone carries between threads. */
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

const STARTED = 1;
const ENDED = 2;
const INITIAL_CAPACITY = 256;

/** Strings that repeat across runs (agents, sessions, files), each kept once and named by index. */
class NameTable {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();

  indexOf(name: string): number {
    let at = this.index.get(name);
    if (at === undefined) {
      at = this.names.length;
      this.names.push(name);
      this.index.set(name, at);
    }
    return at;
  }
}

/** FNV-1a of a string's UTF-16 units: spreads run ids (uuids, counters) well enough for probing. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The row of each run id: open addressing over the rows themselves (slot: row + 1, 0 empty), so an
 * id costs two slots of 4 bytes; a `Map` entry per run took ~60 bytes (heap snapshot, 292,000 runs).
 */
class IdRows {
  private slots = new Int32Array(1024);
  private used = 0;

  constructor(private readonly ids: readonly string[]) {}

  get(id: string): number | undefined {
    const mask = this.slots.length - 1;
    for (let at = hashOf(id) & mask; ; at = (at + 1) & mask) {
      const slot = this.slots[at]!;
      if (slot === 0) return undefined;
      if (this.ids[slot - 1] === id) return slot - 1;
    }
  }

  /** `row`'s id is new (`get` gave undefined for it). */
  add(row: number): void {
    if (2 * (this.used + 1) > this.slots.length) this.grow();
    this.place(this.slots, row);
    this.used++;
  }

  private place(slots: Int32Array, row: number): void {
    const mask = slots.length - 1;
    let at = hashOf(this.ids[row]!) & mask;
    while (slots[at] !== 0) at = (at + 1) & mask;
    slots[at] = row + 1;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    for (const slot of this.slots) if (slot !== 0) this.place(slots, slot - 1);
    this.slots = slots;
  }
}

/** A string of its own: a substring matched out of a log line would keep the whole line alive. */
function ownCopy(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string); // V8 slices from 13 chars up
}

export class LiveRunTable {
  private readonly ids: string[] = [];
  private readonly rows = new IdRows(this.ids);
  private readonly names = new NameTable();
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

  get size(): number {
    return this.ids.length;
  }

  /** The row of `run`, made on first sight (runs keep the order they first appeared in). */
  rowOf(run: string, file: string): number {
    const known = this.rows.get(run);
    if (known !== undefined) return known;
    const row = this.ids.length;
    if (row === this.capacity) this.grow();
    const id = ownCopy(run);
    this.ids.push(id);
    this.rows.add(row);
    this.file[row] = this.names.indexOf(file);
    this.agent[row] = -1;
    this.session[row] = -1;
    this.startedAt[row] = NaN;
    return row;
  }

  /** Agent and session are the first ones any line of the run named. */
  noteIdentity(row: number, agent: string | undefined, session: string | undefined): void {
    if (agent !== undefined && this.agent[row] === -1) this.agent[row] = this.names.indexOf(agent);
    if (session !== undefined && this.session[row] === -1) this.session[row] = this.names.indexOf(session);
  }

  /** Whether no dated line of the run came yet (a time is parsed only then). */
  undated(row: number): boolean {
    return Number.isNaN(this.startedAt[row]!);
  }

  noteTime(row: number, ms: number | undefined): void {
    if (ms !== undefined && Number.isNaN(this.startedAt[row]!)) this.startedAt[row] = ms;
  }

  count(row: number, counter: LiveCounter): void {
    this.counters[counter][row]!++;
  }

  markStarted(row: number): void {
    this.flags[row]! |= STARTED;
  }

  markEnded(row: number): void {
    this.flags[row]! |= ENDED;
  }

  /** The table as plain data (typed arrays cut to its rows): what crosses from a worker thread. */
  data(): LiveRunTableData {
    const size = this.size;
    const counters = {} as Record<LiveCounter, Int32Array>;
    for (const key of COUNTERS) counters[key] = this.counters[key].slice(0, size);
    return {
      ids: this.ids,
      names: this.names.names,
      file: this.file.slice(0, size),
      agent: this.agent.slice(0, size),
      session: this.session.slice(0, size),
      counters,
      flags: this.flags.slice(0, size),
      startedAt: this.startedAt.slice(0, size),
    };
  }

  /**
   * Folds in a later part of the input (another unit's table) as if its events had been pushed
   * here: new runs after the known ones, first agent, session and time kept, counts added. Returns
   * the row here of each of its rows.
   */
  absorb(part: LiveRunTableData): Int32Array {
    const rows = new Int32Array(part.ids.length);
    const name = (at: number) => (at === -1 ? undefined : part.names[at]);
    for (let from = 0; from < part.ids.length; from++) {
      const row = this.rowOf(part.ids[from]!, part.names[part.file[from]!]!);
      rows[from] = row;
      this.noteIdentity(row, name(part.agent[from]!), name(part.session[from]!));
      if (!Number.isNaN(part.startedAt[from]!)) this.noteTime(row, part.startedAt[from]);
      for (const key of COUNTERS) this.counters[key][row]! += part.counters[key][from]!;
      this.flags[row]! |= part.flags[from]!;
    }
    return rows;
  }

  /** What a row holds, as values (`startedAt` as epoch ms, or undefined). */
  read(row: number) {
    const name = (at: number) => (at === -1 ? null : this.names.names[at]!);
    const flags = this.flags[row]!;
    const startedAt = this.startedAt[row]!;
    return {
      run: this.ids[row]!,
      file: this.names.names[this.file[row]!]!,
      agent: name(this.agent[row]!),
      session: name(this.session[row]!),
      calls: this.counters.calls[row]!,
      compactions: this.counters.compactions[row]!,
      armed: this.counters.armed[row]!,
      windowsClosed: this.counters.windowsClosed[row]!,
      started: (flags & STARTED) !== 0,
      ended: (flags & ENDED) !== 0,
      startedAt: Number.isNaN(startedAt) ? undefined : startedAt,
    };
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
