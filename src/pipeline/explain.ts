/**
 * `looplens explain`: replays the input that holds a finding, as analyze does, tracing the findings
 * at the place asked for (core/trace.ts) and keeping a short preview of every call's arguments and
 * outcome so that the window can be shown with what the calls were.
 */
import { LineTally } from "../adapters/adapter.js";
import { expandUnits } from "../adapters/discovery.js";
import { formOf, type LoopEvent } from "../core/events.js";
import type { ReplayedFinding } from "../core/findings.js";
import type { Digest } from "../core/hashing.js";
import type { PreparedEvent } from "../core/prepare.js";
import { selectProfiles } from "../core/profiles/selection.js";
import type { ConfigForAgent } from "../core/replay.js";
import { TracingReplayer, type TracedFinding } from "../core/trace.js";
import { windowCount } from "../core/windowCounts.js";
import { argsPreview, outcomePreview } from "./explainPreview.js";
import { readUnit, type InputOptions } from "./reading.js";
import { UsageError } from "./errors.js";
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

const key = (run: string, call: number) => `${run}\u0000${call}`;

export async function explainInput(target: ExplainTarget, digest: Digest, configFor: ConfigForAgent, options: InputOptions = {}): Promise<Explanation> {
  if (target.line === undefined && target.call === undefined) throw new UsageError("say which finding: <file>:<line>, or --call N (with --run R when the file holds several runs)");
  const at = (event: PreparedEvent) =>
    (target.line === undefined || event.line === target.line) &&
    (target.run === undefined || event.run === target.run) &&
    (target.call === undefined || ("call" in event && event.call === target.call));
  const profiles = selectProfiles(options.profile, digest);
  const tally = new LineTally();
  const traced: TracedFinding[] = [];
  const findings: ReplayedFinding[] = [];
  const previews = new Map<string, { args: string; outcome?: string }>();
  for (const unit of await expandUnits([target.path])) {
    let replayer = new TracingReplayer(configFor, profiles.profileFor, at);
    const sink = (again: boolean) => {
      if (again) replayer = new TracingReplayer(configFor, profiles.profileFor, at);
      return (prepared: PreparedEvent, event: LoopEvent) => {
        notePreview(previews, prepared, event);
        replayer.push(prepared);
      };
    };
    await readUnit(unit, tally, profiles, options, sink, () => {}, true);
    for (const run of replayer.finish()) for (const finding of run.findings) findings.push(finding);
    traced.push(...replayer.findings);
  }
  // A printed events file keeps the original files' names: the line alone then says where.
  const ofFile = (file: string) => file === target.path;
  const chosen = traced.some((t) => ofFile(t.finding.file)) ? traced.filter((t) => ofFile(t.finding.file)) : traced;
  const explained = chosen.map((t) => explained1(t, previews));
  return {
    target,
    explained,
    nearest: explained.length > 0 ? [] : nearestFindings(findings, target),
    lines: tally.counts,
    diagnostics: tally.diagnostics,
    diagnosticsTotal: tally.diagnosticsTotal,
  };
}

function explained1(traced: TracedFinding, previews: ReadonlyMap<string, CallPreview>): ExplainedFinding {
  const run = traced.finding.run;
  const rows = traced.kind === "history" ? [...traced.rows, traced.probe] : traced.rows;
  return { traced, count: windowCount(traced), previews: rows.map((row) => previews.get(key(run, row.call))) };
}

/** The calls' previews, by run and call number (an outcome adds its preview to its call's). */
function notePreview(previews: Map<string, { args: string; outcome?: string }>, prepared: PreparedEvent, event: LoopEvent): void {
  if (prepared.type === "call" && event.type === "tool_call") previews.set(key(prepared.run, prepared.call), { args: argsPreview(event.args, formOf(event)) });
  if (prepared.type === "outcome" && event.type === "tool_result") {
    const preview = previews.get(key(prepared.run, prepared.call));
    if (preview) preview.outcome = outcomePreview(event);
  }
}

/** The findings closest to the target: by line in the same file, else by call in the same run. */
function nearestFindings(findings: readonly ReplayedFinding[], target: ExplainTarget): ReplayedFinding[] {
  const inRun = target.run === undefined ? findings : findings.filter((f) => f.run === target.run);
  const distance = (f: ReplayedFinding) => (target.line !== undefined ? Math.abs(f.line - target.line) : Math.abs(f.call - (target.call ?? 0)));
  return [...inRun].sort((a, b) => distance(a) - distance(b) || a.line - b.line).slice(0, NEAREST);
}
