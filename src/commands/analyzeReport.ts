/**
 * `analyze` and `runs` when no kept output answered (analyze.ts): the inputs read and replayed (or
 * their units read back from the cache), the report made and written, and the output kept for the
 * next run. Loaded only then (cli.ts): it is what brings in the readers, the replay and the reporters.
 */
import type { ConfigForAgent } from "../core/replay.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import type { Analysis, AnalysisOptions } from "../pipeline/analysis.js";
import type { UnreadUnits } from "../pipeline/cache/spliceSource.js";
import type { UnitCache } from "../pipeline/cache/unitCache.js";
import { skipWindow } from "../pipeline/cache/runWindow.js";
import type { ConfigResolver } from "../pipeline/configResolution.js";
import { EXIT } from "../pipeline/errors.js";
import type { ReportFilters } from "../pipeline/filters.js";
import { analyzeAll } from "../pipeline/parallel.js";
import { buildReport, type ConfigOfRuns } from "../pipeline/report.js";
import { FINDINGS_IN_MEMORY, PLAIN_RUNS_IN_MEMORY, type SpillOptions } from "../pipeline/runSpill.js";
import { withSpillFolder } from "../pipeline/spillFiles.js";
import { failureLines } from "../reporters/failureLines.js";
import { REPORTERS } from "../reporters/index.js";
import type { ReportOutput, WriteOptions } from "../reporters/model.js";
import type { AnalyzeOptions } from "./analyzeOptions.js";
import { cacheNotices } from "./cache.js";
import { diagnosticsText, nothingAnalysed, nothingUsable, reportNotices, strictViolation, type Io } from "./common.js";
import type { KeptOutputUse } from "./keptOutput.js";
import { progressDisplay } from "./progressDisplay.js";
import { writeBytes, writeReport } from "./reportWriting.js";
import { streamedFindings } from "./streamedFindings.js";

/** What analyze.ts read and looked up before it found no kept output. */
export interface AnalyzeRequest {
  readonly inputs: readonly string[];
  /** How the inputs are read and replayed (the cache's key holds it): spilling is added here. */
  readonly input: AnalysisOptions;
  readonly options: AnalyzeOptions;
  readonly io: Io;
  readonly version: string;
  readonly report: "analyze" | "runs";
  readonly filters: ReportFilters;
  readonly resolver: ConfigResolver;
  readonly resolve: ConfigForAgent;
  readonly cache: UnitCache | undefined;
  /** The kept output's use, to keep this run's output (none when the output is not kept). */
  readonly kept: KeptOutputUse | undefined;
  readonly header: ConfigOfRuns;
  readonly render: WriteOptions;
}

export function analyzeAndReport(request: AnalyzeRequest): Promise<number> {
  // Runs beyond a budget wait on disk until the report is written (pipeline/runSpill.ts).
  return withSpillFolder((dir) => analyzeWithSpill(request, dir === undefined ? undefined : { dir, ...runsInMemory(request.io.env) }));
}

/**
 * How many runs the analysis holds before it writes them to disk: plain runs
 * (`$LOOPLENS_PLAIN_RUNS_IN_MEMORY`) and findings in the other runs (`$LOOPLENS_FINDINGS_IN_MEMORY`),
 * both shared among its threads, and live runs of Gateway logs (`$LOOPLENS_LIVE_RUNS_IN_MEMORY`, per
 * thread), and sessions with open runs a unit's replay holds before it parks some out of memory
 * (`$LOOPLENS_RESIDENT_SESSIONS`, per thread: pipeline/parkedSessions.ts). Tests set them low.
 */
function runsInMemory(env: NodeJS.ProcessEnv): Omit<SpillOptions, "dir"> {
  const count = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);
  const live = count(env.LOOPLENS_LIVE_RUNS_IN_MEMORY);
  const resident = count(env.LOOPLENS_RESIDENT_SESSIONS);
  return {
    plainRunsInMemory: count(env.LOOPLENS_PLAIN_RUNS_IN_MEMORY) ?? PLAIN_RUNS_IN_MEMORY,
    findingsInMemory: count(env.LOOPLENS_FINDINGS_IN_MEMORY) ?? FINDINGS_IN_MEMORY,
    ...(live !== undefined && { liveRunsInMemory: live }),
    ...(resident !== undefined && { residentSessions: resident }),
  };
}

/** Runs read, replayed (spilled ones too) and live, before any filter: what `--fail-on` could have judged. */
const runsRead = (analysis: Analysis) => analysis.runs.length + (analysis.spilled?.runs ?? 0) + (analysis.outside?.runs ?? 0) + (analysis.unread?.runs ?? 0) + analysis.liveRuns.length;

async function analyzeWithSpill(request: AnalyzeRequest, spill: SpillOptions | undefined): Promise<number> {
  const { inputs, options, io, version, filters, resolver, resolve, cache, kept, header, render } = request;
  const digest = await loadXxhashDigest();
  const reporter = REPORTERS[request.report][options.format]!;
  const streamed = request.report === "analyze" ? streamedFindings(inputs, options.format, filters, io) : undefined;
  const input = {
    ...request.input,
    // Streamed findings are told apart from the held ones by identity: no run goes to disk (standard
    // input is held in memory whole anyway).
    ...(spill && !streamed && { spill }),
    ...streamed?.input,
  };
  const config = { config: options.config, agent: options.agent, set: options.set, profile: options.profile };
  const configFor = kept ? kept.recording(resolve) : resolve;
  // A cached unit whose runs all started outside --since/--until is not read back (its runs are counted).
  const window = cache && skipWindow(filters, header.readsRuns);
  const analyse = (unread?: UnreadUnits) =>
    analyzeAll(inputs, digest, configFor, { config, input }, io.env, progressDisplay(io, options), cache, { window, ...(kept && { units: kept.units }), ...(unread && { unread }) });
  let analysis = await analyse(kept?.splice?.unchanged);
  const { failOn, maxWarnings } = options;
  const choices = {
    all: options.all === true,
    verbose: options.verbose === true,
    ...(failOn !== undefined && { failOn }),
    ...(maxWarnings !== undefined && { maxWarnings }),
    ...(options.prompts === false && { hidePrompts: true }),
    ...(options.sort !== undefined && options.sort !== "stops" && { sort: options.sort }),
  };
  const model = { version, config: header, filters, choices, ...(reporter.needs && { needs: reporter.needs }) };
  let report = buildReport(analysis, model);
  // Units left unread: their runs come from the kept output, or, when it does not add up, the analysis is made again whole.
  const spliced = analysis.unread && kept?.spliced(analysis, [...reportPieces(reporter(report, render))].join(""));
  if (analysis.unread && spliced === undefined) {
    analysis = await analyse();
    report = buildReport(analysis, model);
  }
  reportNotices(io, resolver, options.quiet);
  cacheNotices(io, cache, options.quiet);
  const before = diagnosticsText(analysis.diagnostics, analysis.diagnosticsTotal, options.quiet, options.verbose === true);
  if (before !== "") io.stderr(before);
  // An input that ends in exit 2 gets no report, only the reason: a report before it read as a result.
  // (Findings streamed from standard input are out already: the exit status still says it.)
  if (strictViolation(io, options, analysis.lines.skipped) || nothingUsable(io, analysis) || nothingAnalysed(io, options, runsRead(analysis))) {
    cache?.finish("analyze");
    return EXIT.usage;
  }
  // What is still to write leaves out the findings already streamed; `report` still judges them all.
  const shown = streamed?.wroteAny() ? buildReport(streamed.remaining(analysis), model) : report;
  // A spliced output is kept from its pieces, in memory already (keptOutput.ts); any other as it is written.
  await (spliced ? writeBytes(io, spliced) : writeReport(io, reporter(shown, render), kept && ((text) => kept.wrote(text))));

  // The gate's tally was made as the report was written (a walk of the runs only when it was not).
  const failures = failOn !== undefined || maxWarnings !== undefined ? failureLines(report.facts().gate) : [];
  const after = failures.map((line) => `${line}\n`).join("");
  if (after !== "") io.stderr(after);
  const status = failures.length > 0 ? EXIT.findings : EXIT.ok;
  kept?.keep({ before, after, status }, resolve, report.config, analysis.units);
  // Usage counts and the size bound once the output is kept too.
  cache?.finish("analyze");
  return status;
}

/** A report's pieces, whether it was made as one string or in pieces. */
function reportPieces(output: ReportOutput): Iterable<string> {
  return typeof output === "string" ? [output] : output;
}
