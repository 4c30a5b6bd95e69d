/** `looplens analyze [paths…]`: replay every run through the detectors and print the report. */
import { StringDecoder } from "node:string_decoder";
import { Option, type Command } from "commander";
import { detectorHelp } from "../core/detectorInfo.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import { buildReport } from "../pipeline/report.js";
import { configOfRuns } from "../pipeline/configSummary.js";
import { failureLines } from "../reporters/failureLines.js";
import { REPORTERS, REPORT_FORMATS } from "../reporters/index.js";
import type { ReportOutput } from "../reporters/model.js";
import { FINDINGS_IN_MEMORY, PLAIN_RUNS_IN_MEMORY, type SpillOptions } from "../pipeline/runSpill.js";
import { withSpillFolder } from "../pipeline/spillFiles.js";
import { withHeapWatched } from "../pipeline/v8Tuning.js";
import { analyzeAll } from "../pipeline/parallel.js";
import type { Analysis } from "../pipeline/analysis.js";
import { progressDisplay } from "./progressDisplay.js";
import { streamedFindings } from "./streamedFindings.js";
import { CACHE_HELP, cacheNotices, commandCache, finishCache } from "./cache.js";
import { skipWindow } from "../pipeline/cache/runWindow.js";
import type { KeptOutput } from "../pipeline/cache/reportCache.js";
import type { ConfigForAgent } from "../core/replay.js";
import { KeptOutputUse } from "./keptOutput.js";
import type { UnreadUnits } from "../pipeline/cache/spliceSource.js";
import { hasFilters } from "../pipeline/filters.js";
import {
  nothingAnalysed,
  nothingUsable,
  addConfigOptions,
  addInputOptions,
  inputPaths,
  diagnosticsText,
  reportNotices,
  strictViolation,
  type CommonOptions,
  type Io,
} from "./common.js";
import { addFailOnOption, type FailOnOptions } from "./failOn.js";
import { addFilterOptions, AGENT_FILTER_HELP, isRelativeTime, reportFilters, type FilterOptions } from "./filterOptions.js";
import { addOutputOptions, headerPlaces, PROMPTS_HELP, useColor, withOutput, type OutputOptions } from "./output.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { EXIT } from "../pipeline/errors.js";
import type { ProfileName } from "../core/profiles/profile.js";

export interface AnalyzeOptions extends CommonOptions, FailOnOptions, FilterOptions, OutputOptions {
  format: string;
  all?: boolean;
  verbose?: boolean;
  /** `--no-explain` sets it false. */
  explain?: boolean;
  /** `--no-cache` sets it false. */
  cache?: boolean;
  /** `--no-prompts` sets it false: no run's prompt is shown. */
  prompts?: boolean;
}

/**
 * `report`: whose outputs write the result — analyze's, or `looplens runs`' (one line per run:
 * commands/runs.ts), which reads and replays the same way.
 */
export async function runAnalyze(paths: string[], options: AnalyzeOptions, io: Io, version: string, now = new Date(), report: "analyze" | "runs" = "analyze"): Promise<number> {
  // Runs beyond a budget wait on disk until the report is written (pipeline/runSpill.ts), and the
  // heap's growth is held while the process is large, report writing included (v8Tuning.ts).
  return withHeapWatched(() =>
    withSpillFolder((dir) => analyzeWithSpill(paths, options, io, version, now, dir === undefined ? undefined : { dir, ...runsInMemory(io.env) }, report)),
  );
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

async function analyzeWithSpill(paths: string[], options: AnalyzeOptions, io: Io, version: string, now: Date, spill: SpillOptions | undefined, outputs: "analyze" | "runs"): Promise<number> {
  const filters = reportFilters(options, now);
  const resolver = await createConfigResolver(options, io.env);
  const digest = await loadXxhashDigest();
  const reporter = REPORTERS[outputs][options.format]!;
  const inputs = inputPaths(paths, io, options.quiet, options.agentHome);
  // `analyze - -f ndjson`: findings written as they are made (streamedFindings.ts).
  const streamed = outputs === "analyze" ? streamedFindings(inputs, options.format, filters, io) : undefined;
  const input = {
    inputFormat: options.inputFormat,
    activeBranch: options.activeBranch,
    maxLineBytes: options.maxLineBytes,
    // Streamed findings are told apart from the held ones by identity: no run goes to disk (standard
    // input is held in memory whole anyway).
    ...(spill && !streamed && { spill }),
    ...(options.profile !== undefined && { profile: options.profile }),
    ...(reporter.needs?.timelines === true && { timelines: true }),
    ...streamed?.input,
  };
  const config = { config: options.config, agent: options.agent, set: options.set, profile: options.profile };
  const resolve = (agent: string | null, profile: ProfileName) => resolver.effectiveFor(agent, profile).config;
  // Streamed findings are written by replay itself: a unit answered from the cache would write none.
  const cache = await commandCache(options.cache !== false && streamed === undefined, io, version);
  const header = configOfRuns(resolver, options);
  const render = { color: useColor(options, io), width: io.columns, explain: options.explain !== false, ...headerPlaces(io) };
  // The whole output of this command on these files, kept by an earlier run: not when the header reads
  // every run, nor for a window back from now (a new key each run: its outputs would only push others out).
  const keepsOutput = cache && !header.readsRuns && !isRelativeTime(options.since) && !isRelativeTime(options.until);
  const { failOn, maxWarnings } = options;
  // A JSON or NDJSON document of every run, unjudged: a re-run after some units changed splices the kept one (outputSplice.ts).
  const format = options.format === "json" || options.format === "ndjson" ? options.format : undefined;
  const unjudged = !hasFilters(filters) && failOn === undefined && maxWarnings === undefined && (options.sort ?? "stops") === "stops";
  const spliceable = outputs === "analyze" && unjudged ? format : undefined;
  const kept = keepsOutput ? await KeptOutputUse.look(cache, inputs, input, { version, outputs, options, filters, render }, config, io.env, spliceable) : undefined;
  if (kept?.hit) return writeKept(io, kept.hit, resolve, () => (reportNotices(io, resolver, options.quiet), finishCache(io, cache, "analyze", options.quiet)));
  const configFor = kept ? kept.recording(resolve) : resolve;
  // A cached unit whose runs all started outside --since/--until is not read back (its runs are counted).
  const window = cache && skipWindow(filters, header.readsRuns);
  const analyse = (unread?: UnreadUnits) =>
    analyzeAll(inputs, digest, configFor, { config, input }, io.env, progressDisplay(io, options), cache, { window, ...(kept && { units: kept.units }), ...(unread && { unread }) });
  let analysis = await analyse(kept?.splice?.unchanged);
  const choices = {
    all: options.all === true,
    verbose: options.verbose === true,
    ...(failOn !== undefined && { failOn }),
    ...(maxWarnings !== undefined && { maxWarnings }),
    ...(options.prompts === false && { hidePrompts: true }),
    ...(options.sort !== undefined && options.sort !== "stops" && { sort: options.sort }),
  };
  const request = { version, config: header, filters, choices, ...(reporter.needs && { needs: reporter.needs }) };
  let report = buildReport(analysis, request);
  // Units left unread: their runs come from the kept output, or, when it does not add up, the analysis is made again whole.
  const spliced = analysis.unread && kept?.spliced(analysis, [...reportPieces(reporter(report, render))].join(""));
  if (analysis.unread && spliced === undefined) {
    analysis = await analyse();
    report = buildReport(analysis, request);
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
  const shown = streamed?.wroteAny() ? buildReport(streamed.remaining(analysis), request) : report;
  // A spliced output is kept from its pieces, in memory already (keptOutput.ts); any other as it is written.
  await (spliced ? writePieces(io, spliced) : writeReport(io, reporter(shown, render), kept && ((text) => kept.wrote(text))));

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

/** Says and writes what an earlier run of the command kept (keptOutput.ts), as that run did. */
async function writeKept(io: Io, hit: KeptOutput, configFor: ConfigForAgent, notices: () => void): Promise<number> {
  // Its configs asked in its order: the command's config notices come out as that run's did.
  for (const { agent, profile } of hit.asked) configFor(agent, profile);
  notices();
  if (hit.before !== "") io.stderr(hit.before);
  const writeBytes = io.stdout.bytes;
  if (writeBytes === undefined) await writeReport(io, slices(hit.stdout.toString("utf8")));
  else {
    // Its bytes as they were kept, in pieces that wait for standard output to drain (as writeReport).
    for (let at = 0; at < hit.stdout.length; at += KEPT_BATCH) {
      writeBytes(hit.stdout.subarray(at, at + KEPT_BATCH));
      await io.stdoutDrained?.();
    }
  }
  if (hit.after !== "") io.stderr(hit.after);
  return hit.status;
}

const KEPT_BATCH = 1 << 20;

/** A report's pieces, whether it was made as one string or in pieces. */
function reportPieces(output: ReportOutput): Iterable<string> {
  return typeof output === "string" ? [output] : output;
}

/** Writes bytes (a spliced output: outputSplice.ts) as `writeReport` writes text, in pieces of at most KEPT_BATCH that wait for standard output to drain. */
async function writePieces(io: Io, pieces: readonly Buffer[]): Promise<void> {
  const writeBytes = io.stdout.bytes;
  // A part may end within a character: the decoder finishes it with the next.
  const decoder = writeBytes === undefined ? new StringDecoder("utf8") : undefined;
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; at += KEPT_BATCH) {
      const part = piece.subarray(at, at + KEPT_BATCH);
      if (decoder) io.stdout(decoder.write(part));
      else writeBytes!(part);
      await io.stdoutDrained?.();
    }
  }
}

function* slices(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += WRITE_BATCH) yield text.slice(at, at + WRITE_BATCH);
}

/**
 * Writes a report's pieces in writes of about WRITE_BATCH characters (a write per run would be a
 * system call per run), each once the one before has gone out (`stdoutDrained`), so that memory
 * holds one batch of the report, not all of it.
 */
async function writeReport(io: Io, output: ReportOutput, copy?: (text: string) => void): Promise<void> {
  const write = copy ? (text: string) => (copy(text), io.stdout(text)) : io.stdout;
  if (typeof output === "string") return write(output);
  let batch = "";
  for (const piece of output) {
    batch += piece;
    if (batch.length >= WRITE_BATCH) {
      write(batch);
      batch = "";
      await io.stdoutDrained?.();
    }
  }
  if (batch !== "") write(batch);
}

const WRITE_BATCH = 1 << 16;

const STREAMING_HELP = [
  "Standard input (-) with --format ndjson: each finding is written as soon as its call is read",
  "(canonical events, Claude Code, Codex, OpenHands), so `tail -f FILE | looplens analyze - -f ndjson`",
  "works as a pipe; formats that read their whole input first (OpenClaw transcripts, Gemini CLI) and",
  "Gateway logs are written when input ends. To follow files as they grow: looplens watch.",
].join("\n");

export function registerAnalyze(program: Command, io: Io, version: string, run: (work: () => Promise<number>) => Promise<void>): void {
  const command = program
    .command("analyze", { isDefault: true })
    .description("replay every run through the loop detectors and print the report")
    .argument("[paths...]", "transcript files, folders, or - for standard input")
    .addOption(new Option("-f, --format <format>", "output format").choices(REPORT_FORMATS).default("table"))
    .option("-a, --all", "show runs without findings too")
    .option("-v, --verbose", "one row per verdict instead of one per pattern; every diagnostic on stderr, not one per kind")
    .option("--no-explain", "table and markdown: no plain-words line on what each row's pattern was")
    .option("--no-prompts", PROMPTS_HELP)
    .option("--no-cache", CACHE_HELP);
  addFailOnOption(command, { maxWarnings: true });
  addFilterOptions(command, { findings: true });
  addOutputOptions(command);
  addConfigOptions(command, AGENT_FILTER_HELP);
  addInputOptions(command);
  command.addHelpText("after", `\n${STREAMING_HELP}\n\n${detectorHelp()}\n`);
  command.action((paths: string[], options: AnalyzeOptions) => run(() => withOutput(io, options, (out) => runAnalyze(paths, options, out, version), paths)));
}
