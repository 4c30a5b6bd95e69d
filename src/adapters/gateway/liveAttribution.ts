/**
 * Run attribution and echo merging for Gateway logs (spec: inputs.md §4, "Live findings").
 *
 * Runs: `embedded run start` opens a run, `embedded run done` closes it, `embedded run tool start`
 * marks the run as the one that last started that tool. A line about tool T belongs to the open run
 * that most recently started T; failing that (and for lines without a tool) to the most recently
 * active open run (the one whose start or tool start came last); with no run open, to none (`null`).
 * A tool start of a run whose start is not in the log (it began before the log did) opens that run
 * too, without call ordinals; a run closed earlier in the log is not reopened by a late tool start.
 *
 * Echoes: the runtime may log one event up to three times (the detector's line, the hook's
 * `Blocking …`/`Loop warning for …` line, the diagnostic `tool loop:` line). A line with the same
 * tool, detector and count as a pending event, from an origin that event has not had yet, with no
 * tool start of that run in between, is merged into it. The origin rule keeps two real events apart
 * even when nothing separates them (a blocked call repeats the same count, and tool starts are DEBUG
 * lines that a log may lack).
 *
 * Used lines that make no event (the spec reads them for run boundaries and compaction timing):
 * - `context overflow detected …` starts the compaction `auto-compaction succeeded …` completes. It
 *   is counted once, at its success line: an overflow whose compaction failed made no compaction.
 * - `[tools] T failed: <error>` ends the call of T that the open run that last started T began (so
 *   it is attributed like a finding for T). That call was counted at its tool start and a live run
 *   has no failure figure, so it changes nothing: it is no new call, does not make its run the most
 *   recently active, and does not part an event from its echoes (a blocked call fails with the
 *   hook's message after the hook's lines were logged: they are all the same call's).
 *
 * Events are emitted in line order: an event stays open to echoes until its run's next tool start
 * (or end), and what follows it waits in a bounded queue until then.
 */
import type { Disposition } from "../../core/disposition.js";
import type { LiveEvent, LiveFindingEvent, LiveMarker } from "../../core/liveEvents.js";
import type { EchoOrigin, LogRecord } from "./messages.js";
import { RecentIds } from "./recentIds.js";

/** Where a record was read, and its message (kept as the finding's message). */
export interface LineInfo {
  readonly file: string;
  readonly line: number;
  readonly ts: string | undefined;
  readonly message: string;
}

export type Handled = Disposition;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Draft {
  readonly event: Mutable<LiveFindingEvent> & { echoLines: number[] };
  readonly origins: Set<EchoOrigin>;
  /** No more echoes can merge into it. */
  settled: boolean;
}

interface OpenRun {
  readonly run: string;
  /** Its `embedded run start` is in this log, so tool starts count its calls from the first. */
  readonly startedHere: boolean;
  toolStarts: number;
  lastActive: number;
  /** Per tool: when the run last started it, and that call's ordinal. */
  readonly lastStart: Map<string, { seq: number; call: number }>;
  pending: Draft[];
  session?: string;
  agent?: string;
}

/** Bounds that keep memory flat over a month of logs with runs that never logged their end. */
const MAX_OPEN_RUNS = 4096;
const MAX_CLOSED_IDS = 65536;
const MAX_PENDING = 16;
/** Events waiting behind an open one; past this the oldest open event is settled early. */
const MAX_QUEUED = 4096;

type LoopRecord = Extract<LogRecord, { kind: "loop" }>;
type RunRecord = Extract<LogRecord, { kind: "run_start" | "run_done" | "tool_start" }>;

export class LiveAttribution {
  private seq = 0;
  private readonly open = new Map<string, OpenRun>();
  private readonly closed = new RecentIds(MAX_CLOSED_IDS);
  private orphans: Draft[] = [];
  /** Events in line order; the head waits while it is an unsettled draft. */
  private queue: Array<LiveEvent | Draft> = [];
  private queueHead = 0;

  constructor(private readonly emit: (event: LiveEvent) => void) {}

  handle(record: LogRecord, at: LineInfo): Handled {
    this.seq++;
    switch (record.kind) {
      case "run_start":
      case "tool_start":
      case "run_done":
        return this.runLine(record, at);
      case "overflow":
      case "tool_failed":
        return { used: true };
      case "compaction":
        return this.mark(this.mostRecentlyActive(), at, { marker: "compaction", cause: record.cause });
      case "guard_armed":
        return this.mark(this.mostRecentlyActive(), at, { marker: "guard_armed", attempts: record.attempts });
      case "guard_closed": {
        const { toolCalls, preCompactionRepeats, tools } = record;
        const home = this.lastToStart(tools) ?? this.mostRecentlyActive();
        return this.mark(home, at, { marker: "guard_closed", toolCalls, preCompactionRepeats, tools });
      }
      case "loop":
        return this.loopLine(record, at);
      case "unrecognised_hook":
        return { used: false, reason: "hook loop message not recognised; neither counted nor merged" };
      case "near_miss":
      case "irrelevant":
        return { used: false, reason: "not a live record" };
    }
  }

  /** Emits every event still open to echoes (end of the log). */
  finish(): void {
    for (const run of this.open.values()) this.flush(run.pending);
    this.flush(this.orphans);
    this.open.clear();
    this.drain();
  }

  private runLine(record: RunRecord, at: LineInfo): Handled {
    let run = this.open.get(record.run);
    if (record.kind === "run_start" || (!run && !this.closed.has(record.run))) {
      run = this.openRun(record.run, record.kind === "run_start", run);
    }
    if (run) {
      run.session ??= record.session;
      run.agent ??= record.agent;
    }
    if (record.kind === "tool_start") {
      if (run) {
        // A new call of the run: nothing logged before it can be echoed after it.
        this.flush(run.pending);
        run.toolStarts++;
        run.lastActive = this.seq;
        run.lastStart.set(record.tool, { seq: this.seq, call: run.toolStarts });
      }
      return this.mark(run ?? record.run, at, { marker: "tool_start", tool: record.tool, ...(record.id ? { id: record.id } : {}) });
    }
    if (record.kind === "run_start") return this.mark(run, at, { marker: "run_start" });
    if (run) this.closeRun(run);
    return this.mark(run ?? record.run, at, { marker: "run_end" });
  }

  private openRun(id: string, startedHere: boolean, existing: OpenRun | undefined): OpenRun {
    this.flush(this.orphans); // a run opening changes what a run-less line would belong to
    this.closed.delete(id);
    const run: OpenRun = existing ?? { run: id, startedHere, toolStarts: 0, lastActive: 0, lastStart: new Map(), pending: [] };
    run.lastActive = this.seq;
    this.open.set(id, run);
    if (this.open.size > MAX_OPEN_RUNS) {
      const stalest = [...this.open.values()].reduce((a, b) => (b.lastActive < a.lastActive ? b : a));
      this.flush(stalest.pending);
      this.open.delete(stalest.run);
    }
    return run;
  }

  private closeRun(run: OpenRun): void {
    this.flush(run.pending);
    this.open.delete(run.run);
    this.closed.add(run.run);
  }

  private loopLine(record: LoopRecord, at: LineInfo): Handled {
    const home = this.lastToStart([record.tool]) ?? this.mostRecentlyActive();
    const echoed = this.findPending(home, record);
    if (echoed) {
      echoed.origins.add(record.origin);
      echoed.event.echoLines.push(at.line);
      echoed.event.session ??= record.session;
      echoed.event.agent ??= record.agent;
      return { used: true };
    }
    if (!record.counts) return { used: false, reason: "echo of a loop event not logged before it (since its run's last tool start); not counted" };
    const call = home?.startedHere ? (home.lastStart.get(record.tool)?.call ?? null) : null;
    const event: Draft["event"] = {
      type: "live_finding",
      run: home?.run ?? null,
      ...identityOf(record.session ?? home?.session, record.agent ?? home?.agent),
      ...(at.ts !== undefined ? { ts: at.ts } : {}),
      call,
      tool: record.tool,
      detector: record.detector,
      level: record.level,
      count: record.count,
      message: at.message,
      echoLines: [],
      file: at.file,
      line: at.line,
    };
    const pending = home ? home.pending : this.orphans;
    const draft: Draft = { event, origins: new Set([record.origin]), settled: false };
    pending.push(draft);
    if (pending.length > MAX_PENDING) this.flush(pending.splice(0, 1));
    this.enqueue(draft);
    return { used: true };
  }

  /**
   * A pending event this line can echo, newest first: its home run's, then any other run's (an echo
   * may be attributed differently when another run started the tool meanwhile), then run-less ones.
   */
  private findPending(home: OpenRun | undefined, record: LoopRecord): Draft | undefined {
    const matches = (draft: Draft) =>
      draft.event.tool === record.tool &&
      draft.event.detector === record.detector &&
      draft.event.count === record.count &&
      !draft.origins.has(record.origin);
    const lists = [home?.pending ?? [], ...[...this.open.values()].filter((run) => run !== home).map((run) => run.pending), this.orphans];
    for (const list of lists) {
      const found = list.findLast(matches);
      if (found) return found;
    }
    return undefined;
  }

  /** The open run that most recently started one of these tools. */
  private lastToStart(tools: readonly string[]): OpenRun | undefined {
    let best: OpenRun | undefined;
    let bestSeq = -1;
    for (const run of this.open.values()) {
      for (const tool of tools) {
        const seq = run.lastStart.get(tool)?.seq ?? -1;
        if (seq > bestSeq) [best, bestSeq] = [run, seq];
      }
    }
    return best;
  }

  private mostRecentlyActive(): OpenRun | undefined {
    let best: OpenRun | undefined;
    for (const run of this.open.values()) if (!best || run.lastActive > best.lastActive) best = run;
    return best;
  }

  /** Settles these drafts (nothing more can merge into them) and empties the list. */
  private flush(drafts: Draft[]): void {
    for (const draft of drafts) draft.settled = true;
    drafts.length = 0;
    this.drain();
  }

  private enqueue(entry: LiveEvent | Draft): void {
    this.queue.push(entry);
    if (this.queue.length - this.queueHead > MAX_QUEUED) {
      const head = this.queue[this.queueHead]!;
      if ("settled" in head) this.settle(head);
    }
    this.drain();
  }

  /** Settles one draft early, taking it out of whichever pending list holds it. */
  private settle(draft: Draft): void {
    for (const list of [...[...this.open.values()].map((run) => run.pending), this.orphans]) {
      const at = list.indexOf(draft);
      if (at >= 0) list.splice(at, 1);
    }
    draft.settled = true;
  }

  /** Emits queued events from the head up to the first draft still open to echoes. */
  private drain(): void {
    while (this.queueHead < this.queue.length) {
      const head = this.queue[this.queueHead]!;
      if ("settled" in head && !head.settled) break;
      this.queueHead++;
      this.emit("settled" in head ? head.event : head);
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
  }

  private mark(run: OpenRun | string | undefined, at: LineInfo, detail: MarkerDetail): Handled {
    // Built by assignment: this runs for every tool start of a log, spreads would dominate it.
    const open = typeof run === "object" ? run : undefined;
    const event: Record<string, unknown> = { type: "live_marker", run: typeof run === "string" ? run : (open?.run ?? null) };
    if (open?.session !== undefined) event.session = open.session;
    if (open?.agent !== undefined) event.agent = open.agent;
    if (at.ts !== undefined) event.ts = at.ts;
    Object.assign(event, detail);
    event.file = at.file;
    event.line = at.line;
    this.enqueue(event as unknown as LiveMarker);
    return { used: true };
  }
}

type MarkerDetail = DistributiveOmit<LiveMarker, "type" | "run" | "session" | "agent" | "ts" | "file" | "line">;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function identityOf(session: string | undefined, agent: string | undefined): { session?: string; agent?: string } {
  return { ...(session !== undefined ? { session } : {}), ...(agent !== undefined ? { agent } : {}) };
}
