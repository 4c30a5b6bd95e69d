/**
 * What the HTML page draws, from the report model: the runs ranked worst first (the model's ranking:
 * core/worstFirst.ts), the worst `DRAWN_RUNS` in full (calls, findings, patterns, table rows), the
 * next `LISTED_RUNS` as one line each, the rest counted. The model holds only the runs the page
 * shows (`ReportNeeds.ranked`: page.ts asks for them), however many are on disk. Every string from
 * the input is sanitized (controls and bidi overrides removed) and clipped here, so the page script
 * only places text, and a multi-megabyte name costs no more than a short one.
 */
import { identityParts } from "../runIdentityText.js";
import { runUsagePhrase } from "../usageText.js";
import type { ResolvedConfig } from "../../core/config.js";
import type { ThresholdName } from "../../core/detectors.js";
import { detectorInfo } from "../../core/detectorInfo.js";
import { LEVEL_RANK, levelLabel, type ReplayedFinding, type ReplayedRun } from "../../core/findings.js";
import { rankOf, type Rank } from "../../core/worstFirst.js";
import { configHeaderLines, overrideOf } from "../configView.js";
import { callRange } from "../findingGroups.js";
import type { ReportModel, ReportRun, RunBrief } from "../model.js";
import { detectorState, plural, runProfileLine } from "../phrases.js";
import { clip, ID_WIDTH } from "../sanitize.js";

/** Runs drawn in full; the others are listed (a page of thousands of timelines is not usable). */
export const DRAWN_RUNS = 200;
/**
 * Runs listed one line each after the drawn ones; the others are counted. The page's filter searches
 * the listed runs, and ten thousand of them are ~2 MB of page; a page of a million is neither
 * usable in a browser nor small in memory (json and table list every run).
 */
export const LISTED_RUNS = 10_000;
/** Per run: table rows and count charts shown (`--verbose` on a long loop makes thousands of rows). */
const MAX_ROWS = 500;
const MAX_PATTERNS = 6;
/** Points of one count chart: more than a chart is wide only costs page size. */
const MAX_POINTS = 600;

/** How bad a run is, worst first: 3 abort, 2 block, 1 warning (LEVEL_RANK), 0.5 vetoes only, 0 nothing. */
export type Severity = 3 | 2 | 1 | 0.5 | 0;

export interface PageRow {
  readonly calls: string;
  readonly line: number;
  readonly tool: string;
  readonly detector: string;
  readonly level: "warning" | "block" | "abort";
  readonly verdicts: number;
  readonly count: string;
  readonly threshold: string;
  readonly afterStop: boolean;
  /** The plain-words line the table shows under the row (reporters/explanation.ts). */
  readonly explanation: string;
  /** The runtime's own message for the verdict. */
  readonly message: string;
}

export interface PagePattern {
  readonly label: string;
  readonly thresholds: ReadonlyArray<{ readonly name: string; readonly value: number }>;
  /** Flattened [call, count, level rank] per verdict. */
  readonly points: readonly number[];
}

/** What both drawn and listed runs say about themselves. */
export interface RunIdentity {
  readonly id: string;
  readonly agent: string | null;
  readonly session: string | null;
  readonly file: string;
  readonly calls: number;
  readonly severity: Severity;
}

export interface DrawnRun extends RunIdentity {
  /** When it ran, where it came in, on which model and how it ended (runIdentityText.ts), if recorded. */
  readonly when: string | null;
  /** Its first user prompt on one line (none under `--no-prompts`). */
  readonly prompt: string | null;
  readonly compactions: number;
  readonly firstStop: { readonly kind: "block" | "abort"; readonly call: number } | null;
  readonly recordedVetoes: number;
  readonly profile: string | null;
  readonly tools: readonly string[];
  /** Flattened [tool index, number of calls] runs of calls in order; tool -1: not recorded. */
  readonly segments: readonly number[];
  readonly compactionsAfter: readonly number[];
  /** Flattened [armed after call, last call of the window, 1 if it aborted]. */
  readonly guardWindows: readonly number[];
  /** Flattened [first call, last call, level rank]: consecutive calls with the same worst finding. */
  readonly marks: readonly number[];
  readonly patterns: readonly PagePattern[];
  readonly rows: readonly PageRow[];
  readonly rowsNotShown: number;
  /** `4.3M tokens ($12.40), 3.9M after the first stop` (usageText.ts); null when the run recorded none. */
  readonly usage: string | null;
  /** Flattened [calls made when the turn ended, its tokens (-1: not recorded)] (core/runTurns.ts marks). */
  readonly turnTokens: readonly number[];
}

export interface ListedRun extends RunIdentity {
  readonly findings: number;
  readonly stopCall: number | null;
}

export interface PageData {
  readonly title: string;
  readonly header: readonly string[];
  readonly summary: readonly string[];
  readonly drawn: readonly DrawnRun[];
  readonly listed: readonly ListedRun[];
  /** Runs that would be listed but are past LISTED_RUNS: counted only. */
  readonly notListed: number;
  /** Runs without findings left out (no --all). */
  readonly notShown: number;
}

const text = (value: string, width: number) => clip(value, width);
const id = (value: string | null) => (value === null ? null : text(value, ID_WIDTH));

/** A run's colour on the page: its highest level (core/worstFirst.ts `Rank.top`), or 0.5 for recorded vetoes alone. */
const severityOf = (rank: Rank, recordedVetoes: number): Severity => (rank.top === 0 && recordedVetoes > 0 ? 0.5 : (rank.top as Severity));

function segmentsOf(run: ReplayedRun): number[] {
  const callTools = run.timeline?.callTools;
  if (!callTools) return run.calls > 0 ? [-1, run.calls] : [];
  const segments: number[] = [];
  for (const tool of callTools) {
    if (segments.length > 0 && segments[segments.length - 2] === tool) segments[segments.length - 1]!++;
    else segments.push(tool, 1);
  }
  return segments;
}

function marksOf(findings: Iterable<ReplayedFinding>): number[] {
  const worstAt = new Map<number, number>();
  for (const f of findings) worstAt.set(f.call, Math.max(worstAt.get(f.call) ?? 0, LEVEL_RANK[f.level]));
  const marks: number[] = [];
  for (const call of [...worstAt.keys()].sort((a, b) => a - b)) {
    const level = worstAt.get(call)!;
    const n = marks.length;
    if (n > 0 && marks[n - 1] === level && marks[n - 2] === call - 1) marks[n - 2] = call;
    else marks.push(call, call, level);
  }
  return marks;
}

function thresholdValue(config: ResolvedConfig, name: ThresholdName): number {
  return name === "postCompactionGuard.windowSize" ? config.postCompactionGuard.windowSize : config[name];
}

/**
 * One chart per loop pattern (grouped as table rows are, across levels): each verdict's count and
 * the thresholds it climbs to. A pattern that only warned also shows the threshold it would stop
 * at, when the run used the configurable thresholds (the newest generation fixes its own).
 */
function patternsOf(run: ReplayedRun, config: ResolvedConfig): PagePattern[] {
  // Two walks that hold no finding but each pattern's first: the first counts each pattern's findings,
  // the second samples them (a very long run's are read back from disk as they are walked: core/findingList.ts).
  const groups = new Map<string, { readonly first: ReplayedFinding; length: number; walked: number; readonly thresholds: Map<string, number>; readonly points: number[] }>();
  for (const f of run.findings) {
    const key = patternKey(f);
    let group = groups.get(key);
    if (group === undefined) {
      if (groups.size >= MAX_PATTERNS) continue;
      groups.set(key, (group = { first: f, length: 0, walked: 0, thresholds: new Map(), points: [] }));
    }
    group.length++;
    if (f.threshold.value !== null) group.thresholds.set(f.threshold.name, f.threshold.value);
  }
  for (const f of run.findings) {
    const group = groups.get(patternKey(f));
    if (group === undefined) continue;
    const i = group.walked++;
    if (i % Math.ceil(group.length / MAX_POINTS) === 0 || i === group.length - 1) group.points.push(f.call, f.count, LEVEL_RANK[f.level]);
  }
  const configurable = run.profile === undefined || run.profile.profile === "configurable";
  return [...groups.values()].map(({ first, thresholds, points }) => {
    const stop = detectorInfo(first.detector).stop;
    if (configurable && stop !== undefined && !thresholds.has(stop)) thresholds.set(stop, thresholdValue(config, stop));
    const tool = first.detector === "ping_pong" ? "" : ` · ${text(first.tool, 60)}`;
    return { label: `${first.detector}${tool}`, thresholds: [...thresholds].map(([name, value]) => ({ name, value })), points };
  });
}

const patternKey = (f: ReplayedFinding) => JSON.stringify(f.detector === "ping_pong" ? [f.detector] : [f.detector, f.tool, f.argsHash]);

function rowsOf({ rows: groups }: ReportRun): { rows: PageRow[]; rowsNotShown: number } {
  const rows = groups.slice(0, MAX_ROWS).map((group) => {
    const { first } = group;
    return {
      calls: callRange(group),
      line: first.line,
      tool: text(first.tool, 80),
      detector: first.detector,
      level: levelLabel(first.level),
      verdicts: group.verdicts,
      count: group.minCount === group.maxCount ? String(group.maxCount) : `${group.minCount}–${group.maxCount}`,
      threshold: `${first.threshold.name}=${first.threshold.value}`,
      afterStop: first.afterStop,
      explanation: text(group.explanation, 400),
      message: text(first.message, 400),
    };
  });
  return { rows, rowsNotShown: groups.length - rows.length };
}

function configFor(run: ReplayedRun, config: ReportModel["config"]): ResolvedConfig {
  return overrideOf(run, config)?.effective ?? config.effective;
}

function identity(run: Pick<RunBrief, "run" | "agent" | "session" | "file" | "calls">, severity: Severity): RunIdentity {
  return { id: text(run.run, ID_WIDTH), agent: id(run.agent), session: id(run.session), file: text(run.file, 300), calls: run.calls, severity };
}

function drawnRun(entry: ReportRun, data: ReportModel): DrawnRun {
  const { run } = entry;
  const timeline = run.timeline;
  return {
    ...identity(run, severityOf(rankOf(run), run.recordedVetoes)),
    when: identityParts(entry.identity).join(" · ") || null,
    prompt: entry.identity.prompt === null ? null : text(entry.identity.prompt, 300),
    compactions: run.compactions,
    firstStop: run.firstStop,
    recordedVetoes: run.recordedVetoes,
    profile: runProfileLine(run, data.config) ?? null,
    tools: (timeline?.tools ?? []).map((tool) => text(tool, 80)),
    segments: segmentsOf(run),
    // Without a timeline, the compactions that armed the guard are still known from its windows.
    compactionsAfter: timeline?.compactionsAfter ?? run.guardWindows.map((w) => w.armedAfterCall),
    guardWindows: run.guardWindows.flatMap((w) => [w.armedAfterCall, w.armedAfterCall + w.calls, w.result === "aborted" ? 1 : 0]),
    marks: marksOf(run.findings),
    usage: runUsagePhrase(run) ?? null,
    turnTokens: run.usage === undefined ? [] : (timeline?.turns?.after.flatMap((after, i) => [after, timeline.turns!.tokens[i]!]) ?? []),
    patterns: patternsOf(run, configFor(run, data.config)),
    ...rowsOf(entry),
  };
}

function listedRun(brief: RunBrief): ListedRun {
  return { ...identity(brief, severityOf(brief.rank, brief.recordedVetoes)), findings: brief.findings, stopCall: brief.firstStop?.call ?? null };
}

function summaryLines(data: ReportModel): string[] {
  const s = data.summary;
  const live = s.live ? [`${plural(s.live.runs, "live run")} from Gateway logs not drawn (the table and json formats list them)`] : [];
  return [
    `${plural(s.files, "file")}, ${plural(s.lines.read, "line")} (${s.lines.used} used, ${s.lines.ignored} ignored, ${s.lines.skipped} skipped)`,
    `${plural(s.runs, "run")}, ${plural(s.calls, "call")}, ${plural(s.compactions, "compaction")}`,
    `runs with warnings ${s.runsWith.warning}, blocks ${s.runsWith.critical}, aborts ${s.runsWith.abort}`,
    `findings: ${s.findings.warning} warning, ${s.findings.critical} block, ${s.findings.abort} abort`,
    ...live,
  ];
}

export function pageData(data: ReportModel): PageData {
  const ranked = data.facts().ranked!;
  const listed = ranked.brief.slice(DRAWN_RUNS).map(listedRun);
  const shown = ranked.of;
  return {
    title: `looplens ${text(data.version, 40)} — ${detectorState(data.config)}`,
    header: configHeaderLines(data.config).map((line) => text(line, 400)),
    summary: summaryLines(data),
    drawn: ranked.whole.map((entry) => drawnRun(entry, data)),
    listed,
    notListed: shown - Math.min(shown, DRAWN_RUNS) - listed.length,
    notShown: data.replayedRuns - shown,
  };
}
