/**
 * `looplens explain`: replays the input that holds a finding, as analyze does, tracing the findings
 * at the place asked for (core/trace.ts) and keeping a short preview of every call's arguments and
 * outcome so that the window can be shown with what the calls were.
 */
import { LineTally } from "../adapters/adapter.js";
import { companionsOf, expandUnits } from "../adapters/discovery.js";
import { formOf, type LoopEvent } from "../core/events.js";
import type { ReplayedFinding, ReplayedRun } from "../core/findings.js";
import type { Digest } from "../core/hashing.js";
import type { PreparedEvent } from "../core/prepare.js";
import { selectProfiles, type ProfileSelection } from "../core/profiles/selection.js";
import { FirstKept } from "../core/firstKept.js";
import type { ConfigForAgent } from "../core/replay.js";
import { TracingReplayer, type TracedFinding } from "../core/trace.js";
import { windowCount } from "../core/windowCounts.js";
import { callArgsPreview, callOutcomePreview } from "../core/preview.js";
import { readUnit, type InputOptions } from "./reading.js";
import { UsageError } from "./errors.js";
import { tuneHeapForStreaming } from "./v8Tuning.js";
import type { CallPreview, ExplainedFinding, ExplainTarget, Explanation } from "../reporters/explainModel.js";

export type { ExplainTarget, Explanation } from "../reporters/explainModel.js";

const NEAREST = 3;

/** `file:line` split at its last colon when digits follow it; otherwise the whole text is the path. */
export function parseLocation(text: string): { path: string; line?: number } {
  const match = /^(.+):(\d+)$/.exec(text);
  if (!match) return { path: text };
  const line = Number(match[2]);
  if (!Number.isSafeInteger(line) || line < 1) throw new UsageError(`${JSON.stringify(text)}: the line must be a number from 1`);
  return { path: match[1]!, line };
}

/** A call's preview: its arguments, and its outcome once seen. */
type Preview = { args: string; outcome?: string };

/**
 * What one unit's replay contributes, kept while it is read: previews of the calls of runs still
 * open (a run's go once it is settled, its traced findings explained first), the traced findings
 * explained, and the findings nearest the target. Nothing grows with the number of runs: the
 * previews of every call and every finding of a 290 MB transcript took 500 MB.
 */
class UnitTrace {
  readonly replayer: TracingReplayer;
  readonly explained: ExplainedFinding[] = [];
  readonly nearest: FirstKept<ReplayedFinding, ReplayedFinding>;
  private readonly previews = new Map<string, Map<number, Preview>>();
  private tracedSeen = 0;

  constructor(
    configFor: ConfigForAgent,
    profiles: ProfileSelection,
    at: (event: PreparedEvent) => boolean,
    private readonly target: ExplainTarget,
    /** The unit holds other files of the target's session: only the target file's findings can be the nearest. */
    private readonly withOtherFiles = false,
  ) {
    this.nearest = new FirstKept(NEAREST, nearness(target));
    this.replayer = new TracingReplayer(configFor, profiles.profileFor, at, { onSettled: (run) => this.settled(run) });
  }

  push(prepared: PreparedEvent, event: LoopEvent): void {
    this.notePreview(prepared, event);
    this.replayer.push(prepared);
  }

  finish(): void {
    for (const run of this.replayer.finish()) this.settled(run);
  }

  private settled(run: ReplayedRun): void {
    // Findings are traced as their calls are replayed: every traced one of this run is in by now.
    const traced = this.replayer.findings;
    for (; this.tracedSeen < traced.length; this.tracedSeen++) this.explained.push(explained1(traced[this.tracedSeen]!, this.previews));
    // With `--run`, only that run's findings can be the nearest; beside the session's other files, only the target file's.
    const candidate = (finding: ReplayedFinding) => (this.target.run === undefined || run.run === this.target.run) && (!this.withOtherFiles || finding.file === this.target.path);
    for (const finding of run.findings) if (candidate(finding)) this.nearest.offer(finding, finding);
    this.previews.delete(run.run);
  }

  /** The calls' previews, by run and call number (an outcome adds its preview to its call's). */
  private notePreview(prepared: PreparedEvent, event: LoopEvent): void {
    if (prepared.type === "call" && event.type === "tool_call") {
      let calls = this.previews.get(prepared.run);
      if (calls === undefined) this.previews.set(prepared.run, (calls = new Map()));
      calls.set(prepared.call, { args: callArgsPreview(event.args, formOf(event)) });
    }
    if (prepared.type === "outcome" && event.type === "tool_result") {
      const preview = this.previews.get(prepared.run)?.get(prepared.call);
      if (preview) preview.outcome = callOutcomePreview(event);
    }
  }
}

export async function explainInput(target: ExplainTarget, digest: Digest, configFor: ConfigForAgent, options: InputOptions = {}): Promise<Explanation> {
  if (target.line === undefined && target.call === undefined) throw new UsageError("say which finding: <file>:<line>, or --call N (with --run R when the file holds several runs)");
  // One file of an OpenClaw session is read with the session's other files (archives, sidecar), as
  // `analyze` of its folder reads it: its runs get the same names (`--run` takes what analyze showed),
  // and only the file asked for is looked in.
  const beside = await companionsOf(target.path);
  const at = (event: PreparedEvent) =>
    (beside.length === 0 || event.file === target.path) &&
    (target.line === undefined || event.line === target.line) &&
    (target.run === undefined || event.run === target.run) &&
    (target.call === undefined || ("call" in event && event.call === target.call));
  // Nothing but the traced findings and the nearest outlives a run: as for analyze (v8Tuning.ts).
  tuneHeapForStreaming();
  const profiles = selectProfiles(options.profile, digest);
  const tally = new LineTally();
  const all: ExplainedFinding[] = [];
  const nearest = new FirstKept<ReplayedFinding, ReplayedFinding>(NEAREST, nearness(target));
  for (const unit of await expandUnits([target.path, ...beside])) {
    if (!unit.includes(target.path)) continue;
    const withOtherFiles = beside.length > 0;
    let trace = new UnitTrace(configFor, profiles, at, target, withOtherFiles);
    const sink = (again: boolean) => {
      // A unit read again starts over: what its first reading gathered is void.
      if (again) trace = new UnitTrace(configFor, profiles, at, target, withOtherFiles);
      return { events: (prepared: PreparedEvent, event: LoopEvent) => trace.push(prepared, event) };
    };
    await readUnit(unit, tally, profiles, options, sink, () => {}, true);
    trace.finish();
    all.push(...trace.explained);
    // The nearest of each unit's nearest are the nearest of all (ties stay in input order).
    for (const finding of trace.nearest.items()) nearest.offer(finding, finding);
  }
  // A printed events file keeps the original files' names: the line alone then says where.
  const ofFile = (file: string) => file === target.path;
  const explained = all.some((e) => ofFile(e.traced.finding.file)) ? all.filter((e) => ofFile(e.traced.finding.file)) : all;
  return {
    target,
    explained,
    nearest: explained.length > 0 ? [] : nearest.items(),
    lines: tally.counts,
    diagnostics: tally.diagnostics,
    diagnosticsTotal: tally.diagnosticsTotal,
  };
}

function explained1(traced: TracedFinding, previews: ReadonlyMap<string, ReadonlyMap<number, CallPreview>>): ExplainedFinding {
  const calls = previews.get(traced.finding.run);
  const rows = traced.kind === "history" ? [...traced.rows, traced.probe] : traced.rows;
  return { traced, count: windowCount(traced), previews: rows.map((row) => calls?.get(row.call)) };
}

/** The order of closeness to the target: by line in the same file, else by call in the same run; then by line. */
function nearness(target: ExplainTarget): (a: ReplayedFinding, b: ReplayedFinding) => number {
  const distance = (f: ReplayedFinding) => (target.line !== undefined ? Math.abs(f.line - target.line) : Math.abs(f.call - (target.call ?? 0)));
  return (a, b) => distance(a) - distance(b) || a.line - b.line;
}
