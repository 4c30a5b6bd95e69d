/**
 * When a watch analyses a unit again: one job at a time (one lane), each unit debounced adaptively.
 *
 * A change to a unit is analysed SETTLE_MS after it is seen (a writer's burst of writes is one
 * change), but never sooner than COST_FACTOR times the unit's last analysis after that analysis
 * ended. Analysing a unit again reads all of it (unless it resumes: followedPoint.ts), so a huge live
 * transcript appended to all the time would otherwise be read again for every append: a unit whose
 * analysis takes T ms is analysed at most once per (1 + COST_FACTOR)·T, so it takes at most
 * 1/(1 + COST_FACTOR) of a core (20%), and
 * a small one (T of a few ms) is still analysed within tens of milliseconds of each append. The
 * trade-off: on a unit that takes a second to read, a finding may wait ~5 s to be printed. All
 * jobs run in one lane, one after another, so that the watch never takes more than one core
 * whatever the number of busy units; a unit touched while its analysis runs is analysed again
 * after it (its changes are never lost, only joined).
 *
 * A job's cost is the CPU time the process spent while it ran, not its wall time: on a loaded
 * machine a job of 5 ms of CPU can take 50 ms of wall time, and spacing the unit's next analysis by
 * that (200 ms) was most of the watch's latency under load (bench: p99 257 ms at load 13, against
 * p50 58 ms). What the spacing bounds is the share of a core the watch takes, which CPU time measures.
 */

export const SETTLE_MS = 15;
export const COST_FACTOR = 4;

/** CPU time of the process so far (ms): every thread, so a job's garbage collection counts. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface Slot {
  running: boolean;
  /** Touched while running: run again after. */
  again: boolean;
  queued: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last run ended, and what it cost (ms of CPU). */
  lastEnd: number;
  lastCost: number;
}

/** What a job tells the lane of the key's next job. */
export interface JobDone {
  readonly cheapNext?: boolean;
}

export class AnalysisLane {
  private readonly slots = new Map<string, Slot>();
  private readonly queue: string[] = [];
  private working = false;
  /** Slots waiting on a timer (so that idleness is known without going through every slot). */
  private timers = 0;
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  /**
   * `run` does a key's job and resolves when done, with `cheapNext` when the key's next job will not
   * cost what this one did (a full read that kept a point: the next reads what is appended, so this
   * one's cost does not space it). Errors are handed to `onError`; the lane goes on.
   */
  constructor(
    private readonly run: (key: string) => Promise<JobDone | void>,
    private readonly onError: (key: string, error: unknown) => void,
    private readonly now: () => number = () => performance.now(),
    /** What a job's cost is read on (ms): CPU time (see above). */
    private readonly spent: () => number = cpuMs,
  ) {}

  /** The key's job is due (again): after SETTLE_MS, and no sooner than its cost allows. */
  touch(key: string, settleMs = SETTLE_MS): void {
    if (this.closed) return;
    const slot = this.slotOf(key);
    if (slot.running) {
      slot.again = true;
      return;
    }
    if (slot.queued || slot.timer !== undefined) return;
    const wait = Math.max(settleMs, slot.lastEnd + COST_FACTOR * slot.lastCost - this.now());
    this.timers++;
    slot.timer = setTimeout(() => {
      this.timers--;
      slot.timer = undefined;
      this.enqueue(key, slot);
    }, wait);
  }

  /** Runs the key's job as soon as the lane is free, without a settle delay (start-up). */
  runSoon(key: string): void {
    const slot = this.slotOf(key);
    this.clearTimer(slot);
    if (!slot.running) this.enqueue(key, slot);
    else slot.again = true;
  }

  /** Forgets a key (its unit is gone); a job already running finishes. */
  forget(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.clearTimer(slot);
    this.slots.delete(key);
    const at = this.queue.indexOf(key);
    if (at >= 0) this.queue.splice(at, 1);
    this.wakeIdle();
  }

  /** Whether nothing is due, queued or running. */
  get isIdle(): boolean {
    return !this.working && this.queue.length === 0 && this.timers === 0;
  }

  /** Resolves when the lane is idle. */
  idle(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const slot of this.slots.values()) this.clearTimer(slot);
    this.queue.length = 0;
  }

  private clearTimer(slot: Slot): void {
    if (slot.timer === undefined) return;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    this.timers--;
  }

  private slotOf(key: string): Slot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { running: false, again: false, queued: false, timer: undefined, lastEnd: -Infinity, lastCost: 0 };
      this.slots.set(key, slot);
    }
    return slot;
  }

  private enqueue(key: string, slot: Slot): void {
    if (this.closed || slot.queued) return;
    slot.queued = true;
    this.queue.push(key);
    void this.work();
  }

  private async work(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      while (this.queue.length > 0 && !this.closed) {
        const key = this.queue.shift()!;
        const slot = this.slots.get(key);
        if (!slot) continue;
        slot.queued = false;
        slot.running = true;
        const start = this.spent();
        let done: JobDone | void = undefined;
        try {
          done = await this.run(key);
        } catch (error) {
          this.onError(key, error);
        }
        slot.running = false;
        slot.lastEnd = this.now();
        slot.lastCost = done?.cheapNext === true ? 0 : this.spent() - start;
        if (slot.again && this.slots.get(key) === slot) {
          slot.again = false;
          this.touch(key);
        }
      }
    } finally {
      this.working = false;
    }
    this.wakeIdle();
  }

  private wakeIdle(): void {
    if (this.isIdle) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
