/**
 * How the live run table (liveRunTable.ts) keeps its strings: names that repeat across runs
 * (agents, sessions, files) once each, and run ids found by open addressing over the rows. Pure
 * data structures: no I/O.
 */

/** Strings that repeat across runs (agents, sessions, files), each kept once and named by index. */
export class NameTable {
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
export function hashOf(text: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The row of each run id: open addressing over the rows themselves (slot: row + 1, 0 empty), so an
 * id costs two slots of 4 bytes; a `Map` entry per run took ~60 bytes (heap snapshot, 292,000 runs).
 */
export class IdRows {
  private slots: Int32Array;
  private used = 0;

  /** `expected`: ids about to be added, so that the slots are not grown step by step. */
  constructor(
    private readonly ids: readonly string[],
    expected = 0,
  ) {
    let size = 1024;
    while (size < 2 * expected) size *= 2;
    this.slots = new Int32Array(size);
  }

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
export function ownCopy(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string); // V8 slices from 13 chars up
}
