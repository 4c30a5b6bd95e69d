/**
 * The live runs that left the book's table: a Gateway log of a million runs keeps every run to the
 * end (a run may go on in a later line or file, inputs.md §4), and as columns they still took ~200
 * bytes a run (1 M runs: 290 MB peak RSS). Past a window, the oldest rows are written out in batches
 * through a `LiveRowStore` (the pipeline's is a file; I/O stays out of the core), and what stays in
 * memory per run is a 52-bit key of its id in its batch's sorted list (8 bytes) and its bits in a
 * Bloom filter over all batches (~1.5 bytes).
 *
 * An evicted run can still be named again (a late tool start, the next day's log): its batch is found
 * by the key and read to find the record (a key shared by two ids only costs that read), and the run
 * is *held* from then on, its state a record in memory under its row. Runs with findings are held
 * when they leave the table (the findings are in memory anyway, and `withFindings` reads them without
 * the store). Reading the rows back, a held record stands for its row's spilled one.
 */
import { hashOf } from "./liveRunIds.js";
import type { LiveCounter, LiveRowRecord, LiveRowStates } from "./liveRunTable.js";

/** Where a store put a batch of records: plain data, which crosses threads with a book's part. */
export type LiveRowBatchRef = Readonly<Record<string, string | number>>;

/** Writes batches of records and reads them back in order (the pipeline's keeps them in a file). */
export interface LiveRowStore {
  write(records: readonly LiveRowRecord[]): LiveRowBatchRef;
  read(batch: LiveRowBatchRef): Iterable<LiveRowRecord>;
}

/** A batch of evicted rows from `firstRow` on, with the sorted keys of their ids (one a row). */
export interface LiveRowBatch {
  readonly ref: LiveRowBatchRef;
  readonly firstRow: number;
  readonly keys: Float64Array;
}

/** An id as a 52-bit integer: the table's FNV-1a hash (32 bits), then 20 bits of a second hash. */
export function idKey(id: string): number {
  let b = 0x9e3779b9 | 0;
  for (let i = 0; i < id.length; i++) {
    b = Math.imul(b ^ id.charCodeAt(i), 0x5bd1e995);
    b ^= b >>> 15;
  }
  return hashOf(id) * 0x100000 + ((b >>> 0) & 0xfffff);
}

function sortedHas(keys: Float64Array, key: number): boolean {
  let low = 0;
  let high = keys.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const held = keys[mid]!;
    if (held === key) return true;
    if (held < key) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

/**
 * A Bloom filter over the keys of every evicted row: most ids looked up are new runs, and the
 * batches' sorted keys answer those only after a search in each batch (1 M runs: 61 batches, which
 * made the analysis half as slow again). ~12 bits a key, 8 probes: ~0.3% of new runs search the
 * batches for nothing. It is rebuilt twice as large from the batches' keys when it fills.
 */
class KeyFilter {
  private bits = new Int32Array(0);
  private capacity = 0;
  private count = 0;

  has(key: number): boolean {
    if (this.count === 0) return false;
    const size = this.bits.length * 32;
    const [h1, h2] = probes(key);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) % size;
      if ((this.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  /** Adds a batch's keys; `all` gives every key so far when the filter must grow. */
  add(keys: Float64Array, all: () => Iterable<Float64Array>): void {
    this.count += keys.length;
    if (this.count > this.capacity) {
      this.capacity = Math.max(2 * this.capacity, 2 * this.count);
      this.bits = new Int32Array(Math.ceil((this.capacity * BITS_PER_KEY) / 32));
      for (const batch of all()) this.set(batch);
    } else this.set(keys);
  }

  private set(keys: Float64Array): void {
    const size = this.bits.length * 32;
    for (const key of keys) {
      const [h1, h2] = probes(key);
      for (let i = 0; i < PROBES; i++) {
        const bit = (h1 + i * h2) % size;
        this.bits[bit >>> 5]! |= 1 << (bit & 31);
      }
    }
  }
}

const BITS_PER_KEY = 12;
const PROBES = 8;

/** Two independent hashes of a key for the filter's probes (double hashing; the second is odd). */
function probes(key: number): [number, number] {
  const high = Math.floor(key / 0x100000);
  const low = key - high * 0x100000;
  return [high, (Math.imul(low ^ high, 0x9e3779b1) >>> 1) | 1];
}

type MutableRecord = { -readonly [K in keyof LiveRowRecord]: LiveRowRecord[K] };

/** Evicted rows: their batches, and the records held in memory (see the module comment). */
export class SpilledRows implements LiveRowStates {
  readonly batches: LiveRowBatch[] = [];
  private readonly filter = new KeyFilter();
  private readonly held = new Map<number, MutableRecord>();
  private readonly heldIds = new Map<string, number>();

  constructor(private readonly store: LiveRowStore) {}

  /** Writes out rows leaving the table (from `firstRow` on); `hold` says which stay held. */
  spill(firstRow: number, records: readonly LiveRowRecord[], hold: (row: number) => boolean): void {
    const keys = new Float64Array(records.length);
    records.forEach((record, i) => {
      keys[i] = idKey(record.run);
      if (hold(firstRow + i)) this.hold(firstRow + i, record);
    });
    keys.sort();
    this.batches.push({ ref: this.store.write(records), firstRow, keys });
    this.filter.add(keys, () => this.batches.map((batch) => batch.keys));
  }

  /** The row of an evicted run named again, held from now on; undefined when no batch has it. */
  rowOf(run: string): number | undefined {
    const held = this.heldIds.get(run);
    if (held !== undefined) return held;
    const key = idKey(run);
    if (!this.filter.has(key)) return undefined;
    for (const batch of this.batches) {
      if (!sortedHas(batch.keys, key)) continue;
      let row = batch.firstRow;
      for (const record of this.store.read(batch.ref)) {
        if (record.run === run) {
          this.hold(row, record); // not held yet: `heldIds` would have had it
          return row;
        }
        row++;
      }
    }
    return undefined;
  }

  /** The held records, as plain data (a book's part). */
  heldRecords(): Array<readonly [number, LiveRowRecord]> {
    return [...this.held];
  }

  /** Every evicted row in order, a held record standing for its spilled one. */
  *records(): Generator<LiveRowRecord> {
    yield* recordsOfBatches(this.store, this.batches, this.held);
  }

  private hold(row: number, record: LiveRowRecord): void {
    this.held.set(row, { ...record });
    this.heldIds.set(record.run, row);
  }

  private state(row: number): MutableRecord {
    const state = this.held.get(row);
    if (!state) throw new Error(`live run row ${row} is neither in the table nor held`);
    return state;
  }

  noteIdentity(row: number, agent: string | undefined, session: string | undefined): void {
    const state = this.state(row);
    state.agent ??= agent ?? null;
    state.session ??= session ?? null;
  }

  undated(row: number): boolean {
    return this.state(row).startedAt === undefined;
  }

  noteTime(row: number, ms: number | undefined): void {
    this.state(row).startedAt ??= ms;
  }

  count(row: number, counter: LiveCounter): void {
    this.state(row)[counter]++;
  }

  markStarted(row: number): void {
    this.state(row).started = true;
  }

  markEnded(row: number): void {
    this.state(row).ended = true;
  }

  merge(row: number, record: LiveRowRecord): void {
    const state = this.state(row);
    this.noteIdentity(row, record.agent ?? undefined, record.session ?? undefined);
    this.noteTime(row, record.startedAt);
    state.calls += record.calls;
    state.compactions += record.compactions;
    state.armed += record.armed;
    state.windowsClosed += record.windowsClosed;
    state.started ||= record.started;
    state.ended ||= record.ended;
  }

  read(row: number): LiveRowRecord {
    return this.state(row);
  }
}

/** The rows of `batches` in order, a record of `held` standing for its row's spilled one. */
export function* recordsOfBatches(store: LiveRowStore, batches: readonly LiveRowBatch[], held: ReadonlyMap<number, LiveRowRecord>): Generator<LiveRowRecord> {
  for (const batch of batches) {
    let row = batch.firstRow;
    for (const record of store.read(batch.ref)) yield held.get(row++) ?? record;
  }
}
