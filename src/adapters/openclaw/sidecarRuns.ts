/**
 * A session's transcripts and its trajectory sidecar are one set of runs (inputs.md §2, §3), whatever
 * mix of files holds the transcript (its live file, archives of earlier lives, checkpoints, backups).
 * The transcripts are replayed, each call at its transcript line (what a person opens, and what
 * `looplens explain` takes); the sidecar names their runs and fills in what no transcript holds.
 *
 * Which transcript run is which sidecar run: `prompt.submitted` ↔ the transcript's user message of
 * the same time. Two ways, the exact one first:
 * - the snapshots (`model.completed.data.messagesSnapshot`) hold the very user messages the
 *   transcript holds, with the same `timestamp`: a transcript user message whose `message.timestamp`
 *   a snapshot of run R holds, and that was written once R had started (not before R's first event
 *   in the sidecar, RUN_START_SLACK_MS aside: runs of a session follow one another, and a snapshot
 *   also holds the messages of earlier runs whose own snapshots are missing), belongs to R;
 * - else the nearest `prompt.submitted` (its `ts`) that no other user message took, written at most
 *   PROMPT_WINDOW_MS before the user message (`message.timestamp`, else the entry's) and not more than
 *   RUN_START_SLACK_MS after it. Decision: the runtime records the prompt just before it hands it to
 *   the agent, which stamps the user message, so the two lie milliseconds apart in that order; the
 *   window leaves room for a slow prompt build, and a prompt names one user message (a retried
 *   prompt is submitted again, as its run writes its user message again).
 * A transcript run matched by neither keeps its own name (bootstrap entry, else `<sessionId>#<n>`).
 *
 * A run present only in the sidecar (decision). A sidecar run is taken as held by the transcripts when
 * a transcript run is named by its run id (by the matching above, or by the transcript's own
 * bootstrap entry), or when a transcript replays one of its first calls (their ids; a guard for a
 * session whose clocks disagree). Any other run of the sidecar — its transcript lost, or never written —
 * is replayed from the sidecar, as a sidecar alone is: its calls from its snapshots, each at the line
 * of its `model.completed`, the only place that holds them, after the transcripts' runs. Inside such a
 * run, what follows a user message that a transcript holds is not replayed again (a snapshot can
 * carry an earlier run's messages when that run's own `model.completed` is missing). A transcript
 * run the sidecar holds only part of is not completed from it.
 */
import { channelOf } from "./sessionStore.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import { recordedTime } from "../shared/recordedTime.js";
import { toolCallBlocks } from "./messages.js";
import type { SidecarRunFacts, TrajectoryScan } from "./trajectoryScan.js";
import { keyTime } from "./transcriptCopies.js";
import { epochMs, type UserTime } from "./userTime.js";

/** How long (ms) before its transcript user message a prompt may be recorded to be matched by their times. */
export const PROMPT_WINDOW_MS = 30_000;

/** How much earlier (ms) than its run's start in the sidecar a user message may be stamped and still be the run's (clock granularity). */
export const RUN_START_SLACK_MS = 1_000;

/** Call ids kept per sidecar run as evidence that a transcript holds it. */
const EVIDENCE_CALLS = 4;

/** Gathers `SidecarRunFacts` as the trajectory's first pass goes (trajectoryLines.ts). */
export class SidecarRunCollector {
  private readonly prompts: Array<{ runId: string; ms: number | undefined }> = [];
  private readonly userTimes = new Map<number | string, string>();
  private readonly evidence = new Map<string, string>();
  private readonly evidenceCount = new Map<string, number>();
  /** Every call id met so far (a snapshot repeats the earlier ones); dropped with the collector. */
  private readonly seenCalls = new Set<string>();
  /** When each run's first event with a time was written. */
  private readonly starts = new Map<string, number>();
  /** Snapshot user messages written before the run whose snapshot first held them (an earlier run's). */
  private readonly foreignUsers = new Set<number | string>();

  /** Any runtime event of `run` (its `ts` may be the run's start). */
  event(run: string, value: Record<string, unknown>): void {
    if (this.starts.has(run)) return;
    const ms = epochMs(recordedTime(value, "ts"));
    if (ms !== undefined) this.starts.set(run, ms);
  }

  prompt(runId: string, value: Record<string, unknown>): void {
    this.prompts.push({ runId, ms: epochMs(recordedTime(value, "ts")) });
  }

  /** A runtime tool call (legacy sidecars with `tool.*` events). */
  call(run: string, id: string | undefined): void {
    if (id === undefined || this.seenCalls.has(id)) return;
    this.seenCalls.add(id);
    const count = this.evidenceCount.get(run) ?? 0;
    if (count >= EVIDENCE_CALLS) return;
    this.evidenceCount.set(run, count + 1);
    this.evidence.set(id, run);
  }

  /**
   * The messages of a `model.completed` snapshot of `run`. What follows a user message of an earlier
   * run (written before `run` started: its own snapshot is missing) is that run's, not evidence of this one.
   */
  snapshot(run: string, messages: readonly unknown[]): void {
    let inRun = true;
    for (const message of messages) {
      if (!isPlainObject(message)) continue;
      const role = own(message, "role");
      if (role === "user") {
        const key = keyTime(own(message, "timestamp"), "text");
        if (key !== undefined) inRun = this.userOwner(key, run) === run;
      } else if (role === "assistant" && inRun) {
        for (const call of toolCallBlocks(message, "text").calls) this.call(run, call.id);
      }
    }
  }

  /** The run a snapshot's user message belongs to: the run of the first snapshot that held it, if written once that run had started; else none (null). */
  private userOwner(key: number | string, run: string): string | null {
    const known = this.userTimes.get(key);
    if (known !== undefined) return known;
    if (this.foreignUsers.has(key)) return null;
    const start = this.starts.get(run);
    const ms = epochMs(key);
    if (start !== undefined && ms !== undefined && ms < start - RUN_START_SLACK_MS) {
      this.foreignUsers.add(key);
      return null;
    }
    this.userTimes.set(key, run);
    return run;
  }

  facts(): SidecarRunFacts {
    return { prompts: this.prompts, userTimes: this.userTimes, evidence: this.evidence };
  }
}

const NO_FACTS: SidecarRunFacts = { prompts: [], userTimes: new Map(), evidence: new Map() };

/**
 * The pairing of one reading of a unit (a unit read again starts a new one): which sidecar runs the
 * transcripts took, as they are read one after another.
 */
export class SidecarPairing {
  private readonly claimedPrompts = new Set<number>();
  /** Sidecar runs the transcripts hold. */
  private readonly held = new Set<string>();
  /** `message.timestamp` of every transcript user message of the unit. */
  private readonly transcriptUsers = new Set<number | string>();
  /** Prompt indices by time (those with one), for the nearest-prompt search. */
  private readonly byTime: number[];
  private readonly promptsOf = new Map<string, number[]>();
  private readonly runIds: ReadonlySet<string>;

  private readonly facts: SidecarRunFacts;

  constructor(
    /** The sidecar file. */
    readonly file: string,
    /** Its first pass, made for pairing (`scanTrajectory(source, true)`); the sidecar's own reading takes it over. */
    readonly scan: TrajectoryScan,
  ) {
    const facts = scan.runFacts ?? NO_FACTS;
    this.facts = facts;
    const { prompts } = facts;
    this.byTime = prompts.map((_, i) => i).filter((i) => prompts[i]!.ms !== undefined);
    this.byTime.sort((a, b) => prompts[a]!.ms! - prompts[b]!.ms! || a - b);
    prompts.forEach(({ runId }, i) => {
      const list = this.promptsOf.get(runId);
      if (list) list.push(i);
      else this.promptsOf.set(runId, [i]);
    });
    this.runIds = new Set([...this.promptsOf.keys(), ...facts.userTimes.values(), ...facts.evidence.values()]);
  }

  /** The OpenClaw build the sidecar records: the transcripts' runs start with it (`--profile auto`). */
  /** Where the session's runs came in: its trajectory's session key (transcripts record none). */
  get channel(): string | undefined {
    return channelOf(this.scan.sessionKey);
  }

  get harnessVersion(): string | undefined {
    return this.scan.harnessVersion;
  }

  /**
   * The run names of one transcript file's segments (segment 0 precedes the first user message;
   * `times[k]` is segment k's user message): the sidecar's run where it matches (see the header),
   * the transcript's own name elsewhere. Files are named in reading order, each prompt once.
   */
  nameSegments(names: ReadonlyArray<string | undefined>, times: ReadonlyArray<UserTime | undefined>): Array<string | undefined> {
    const named = names.slice();
    const unmatched: number[] = [];
    for (let segment = 1; segment < names.length; segment++) {
      const time = times[segment];
      if (time?.key !== undefined) this.transcriptUsers.add(time.key);
      const run = time?.key !== undefined ? this.facts.userTimes.get(time.key) : undefined;
      if (run === undefined) unmatched.push(segment);
      else {
        named[segment] = run;
        this.claimPromptOf(run, time?.ms);
      }
    }
    for (const segment of unmatched) {
      const prompt = this.nearestPrompt(times[segment]?.ms);
      if (prompt === undefined) continue;
      this.claimedPrompts.add(prompt);
      named[segment] = this.facts.prompts[prompt]!.runId;
    }
    for (const name of named) if (name !== undefined && this.runIds.has(name)) this.held.add(name);
    return named;
  }

  /** A call a transcript replays: a sidecar run whose first calls include it is held by the transcripts. */
  transcriptCall(id: string | undefined): void {
    const run = id === undefined ? undefined : this.facts.evidence.get(id);
    if (run !== undefined) this.held.add(run);
  }

  /** Whether the sidecar's own reading replays `run` (no transcript holds it). Asked once the transcripts are read. */
  replays(run: string): boolean {
    return !this.held.has(run);
  }

  /** Whether a transcript of the unit holds a user message of this `timestamp`. */
  holdsUserMessage(timestamp: unknown): boolean {
    const key = keyTime(timestamp, "text");
    return key !== undefined && this.transcriptUsers.has(key);
  }

  /** The one diagnostic of the sidecar's own reading: what it was used for. */
  diagnostic(): string {
    const leftover = this.leftoverRuns();
    const base = "trajectory sidecar read with its transcript: the transcript's calls are replayed, this file names their runs";
    if (leftover.length === 0) return base;
    const shown = leftover.slice(0, 3).map((run) => quote(run)).join(", ") + (leftover.length > 3 ? ", …" : "");
    return `${base}; ${leftover.length} run${leftover.length === 1 ? "" : "s"} no transcript of the session holds (${shown}) replayed from this file`;
  }

  /** The sidecar's runs that no transcript holds, in the order of their prompts. */
  leftoverRuns(): string[] {
    return [...this.runIds].filter((run) => !this.held.has(run));
  }

  /** Claims the unclaimed prompt of `run` nearest `ms` (the first, without a time). */
  private claimPromptOf(run: string, ms: number | undefined): void {
    let best: number | undefined;
    for (const i of this.promptsOf.get(run) ?? []) {
      if (this.claimedPrompts.has(i)) continue;
      if (best === undefined || (ms !== undefined && distance(this.facts.prompts[i]!.ms, ms) < distance(this.facts.prompts[best]!.ms, ms))) best = i;
    }
    if (best !== undefined) this.claimedPrompts.add(best);
  }

  /** The unclaimed prompt nearest `ms` recorded at most PROMPT_WINDOW_MS before it, RUN_START_SLACK_MS after it (the earlier one on a tie). */
  private nearestPrompt(ms: number | undefined): number | undefined {
    if (ms === undefined) return undefined;
    const { prompts } = this.facts;
    const order = this.byTime;
    // The first prompt at or after ms - window, then forward while within the window.
    let low = 0;
    let high = order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (prompts[order[mid]!]!.ms! < ms - PROMPT_WINDOW_MS) low = mid + 1;
      else high = mid;
    }
    let best: number | undefined;
    for (let at = low; at < order.length && prompts[order[at]!]!.ms! <= ms + RUN_START_SLACK_MS; at++) {
      const i = order[at]!;
      if (this.claimedPrompts.has(i)) continue;
      if (best === undefined || distance(prompts[i]!.ms, ms) < distance(prompts[best]!.ms, ms)) best = i;
    }
    return best;
  }
}

function distance(a: number | undefined, b: number): number {
  return a === undefined ? Infinity : Math.abs(a - b);
}
