/** `--format json`: one document with config, summary, runs (with findings) and diagnostics. */
import { configJson, sourcesJson } from "./configView.js";
import { stopJson, type Finding, type RunReport } from "../core/findings.js";
import { batchesOf } from "../core/findingList.js";
import { jsonText } from "./jsonText.js";
import { publicFinding } from "./findingGroups.js";
import type { ReportModel, Reporter, RunIdentity } from "./model.js";
import type { ConfigSummary } from "./reportConfig.js";
import { runIdentity } from "./runIdentity.js";

import { runUsageFields, summaryDocument } from "./usageJson.js";

/** The `config` block of a json document: effective values, where they came from, notices. */
export function configDocument(config: ConfigSummary): Record<string, unknown> {
  const effective = config.effective;
  return {
    // `enabled` unset reads as the runtime's default (false); `rollingDetectors` says what ran.
    ...configJson(effective),
    file: config.file,
    looplensDefault: config.usesLooplensDefault,
    agent: config.forcedAgent ?? null,
    // The state directory's openclaw.json, when it exists and --config was not given (not applied).
    ...(config.unappliedConfig !== undefined ? { unappliedConfig: config.unappliedConfig } : {}),
    agentOverrides: config.agentOverrides,
    // Per agent override applied to some run: that agent's runs used these values instead.
    agentConfigs: Object.fromEntries(
      (config.agentConfigs ?? []).map((view) => [
        view.agent,
        { ...configJson(view.effective), where: view.where, runAgents: view.runAgents, sources: sourcesJson(view.effective, view.sources) },
      ]),
    ),
    sources: sourcesJson(effective, config.sources),
    notices: config.notices.map((n) => ({ origin: n.origin, key: n.key, message: n.message })),
    ...(config.profile !== undefined ? { profile: config.profile } : {}),
  };
}

/**
 * The document is written as `JSON.stringify(document, null, 2)` would write it, in pieces: the head
 * (version, config, summary), the runs a batch at a time, then the tail, so that neither the document
 * nor its text is ever whole in memory (on a 400 MB transcript of 44 000 runs: 137 -> 122 MB peak RSS).
 */
export const jsonReporter: Reporter = function* (data) {
  const head = jsonText({ version: data.version, config: configDocument(data.config), summary: summaryDocument(data.summary) }, INDENT);
  yield `${head.slice(0, -2)},\n${INDENT}"runs": [`; // the head without its closing "\n}"
  const withProfile = data.config.profile !== undefined;
  let batch: Array<Record<string, unknown>> = [];
  let wrote = false;
  for (const { run, identity } of allRuns(data)) {
    if (run.findings.length > FINDINGS_BATCH) {
      if (batch.length > 0) yield runsText(batch, !wrote);
      yield* longRunText(run, identity, withProfile, !wrote && batch.length === 0);
      wrote = true;
      batch = [];
      continue;
    }
    batch.push(runDocument(run, identity, withProfile));
    if (batch.length < RUN_BATCH) continue;
    yield runsText(batch, !wrote);
    wrote = true;
    batch = [];
  }
  if (batch.length > 0) {
    yield runsText(batch, !wrote);
    wrote = true;
  }
  yield wrote ? `\n${INDENT}]` : "]";
  const tail = {
    ...(data.live ? { liveFindings: data.live.findings.map(publicFinding), comparison: data.facts().comparison } : {}),
    diagnostics: data.diagnostics.map((d) => ({ file: d.file, line: d.line, reason: d.reason })),
  };
  yield `,${jsonText(tail, INDENT).slice(1)}\n`; // the tail without its opening "{"
};

/** Runs whose text is made in one piece: one stringify and one slice for many runs. */
const RUN_BATCH = 64;

/** The text of some runs as they stand in the document's `runs` array, after a comma unless `first`. */
function runsText(batch: ReadonlyArray<Record<string, unknown>>, first: boolean): string {
  return (first ? "" : ",") + itemsText(batch, RUNS_DEPTH);
}

/** Findings of a run written in one piece: a run with more is written a piece of them at a time. */
const FINDINGS_BATCH = 1024;

/**
 * The text of a run of many findings, as `runsText` writes it, in pieces: the run with an empty
 * `findings` (its last key), then its findings FINDINGS_BATCH at a time, each stringified at the
 * depth they stand at. One piece was a 127 MB string for a stuck run of 200,000 findings.
 */
function* longRunText(run: RunReport, identity: RunIdentity, withProfile: boolean, first: boolean): Generator<string> {
  const text = runsText([runDocument({ ...run, findings: [] }, identity, withProfile)], first);
  const open = text.lastIndexOf("[]") + 1;
  yield text.slice(0, open);
  let firstBatch = true;
  // A batch at a time: a very long run's findings are read back from disk as they are walked (core/findingList.ts).
  for (const batch of batchesOf<Finding>(run.findings, FINDINGS_BATCH)) {
    yield (firstBatch ? "" : ",") + itemsText(batch.map(publicFinding), FINDINGS_DEPTH);
    firstBatch = false;
  }
  yield `\n${INDENT.repeat(3)}${text.slice(open)}`;
}

/** How many arrays deep runs (the document's `runs`) and a run's findings stand. */
const RUNS_DEPTH = 1;
const FINDINGS_DEPTH = 2;

/**
 * The text of `items` as they stand in an array `depth` arrays into the document: `\n    {…},\n    {…}`
 * at depth 1. They are stringified inside a wrapper that nests them that deep, so that the
 * indentation comes out as the document's without re-indenting every line (a regex replace per run
 * was a tenth of the report's allocations), and the wrapper's text is cut off.
 */
function itemsText(items: readonly unknown[], depth: number): string {
  const text = jsonText(wrapped(items, depth), INDENT);
  const { head, tail } = wrapperEdges(depth);
  return text.slice(head, text.length - tail);
}

/** `items` `depth` arrays deep: `{"x": [items…]}`, then `{"x": [{"x": [items…]}]}`, … */
function wrapped(items: readonly unknown[], depth: number): unknown {
  let value: unknown = { x: items };
  for (let d = 1; d < depth; d++) value = { x: [value] };
  return value;
}

/** How long the wrapper's text is before and after the items at `depth`, read off a wrapper of one `0`. */
function wrapperEdges(depth: number): { readonly head: number; readonly tail: number } {
  let edges = EDGES.get(depth);
  if (edges === undefined) {
    const text = jsonText(wrapped([0], depth), INDENT);
    const zero = text.lastIndexOf("0"); // the only digit
    edges = { head: zero - 1 - INDENT.length * 2 * depth, tail: text.length - zero - 1 };
    EDGES.set(depth, edges);
  }
  return edges;
}

const EDGES = new Map<number, { readonly head: number; readonly tail: number }>();

const INDENT = "  ";

/** Replayed runs in order (spilled ones read back one at a time), then live ones. */
function* allRuns(data: ReportModel): Generator<{ readonly run: RunReport; readonly identity: RunIdentity }> {
  for (const { run, identity } of data.runs) yield { run, identity };
  for (const run of data.live?.runs ?? []) yield { run, identity: runIdentity(run, data.choices.hidePrompts === true) };
}

/**
 * A run's fields; its identity (issue 34 §4) `null` where the input recorded none, as `agent` and
 * `session` are (docs/outputs.md).
 */
function runDocument(run: RunReport, identity: RunIdentity, withProfile: boolean): Record<string, unknown> {
  return {
    run: run.run,
    agent: run.agent,
    session: run.session,
    file: run.file,
    startedAt: identity.startedAt,
    endedAt: identity.endedAt,
    prompt: identity.prompt,
    channel: identity.channel,
    model: identity.model,
    outcome: identity.outcome,
    calls: run.calls,
    compactions: run.compactions,
    firstStop: run.firstStop && stopJson(run.firstStop),
    recordedVetoes: run.recordedVetoes,
    guardWindows: run.guardWindows,
    ...(withProfile && run.source === undefined && run.profile ? { profile: { name: run.profile.profile, reason: run.profile.reason } } : {}),
    ...(run.source === "log" ? { source: run.source, live: run.live } : {}),
    ...runUsageFields(run),
    findings: Array.from<Finding, Record<string, unknown>>(run.findings, publicFinding),
  };
}
