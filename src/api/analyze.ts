/**
 * The library's analysis: what `looplens analyze` does (commands/analyze.ts) up to the report
 * model, with nothing written anywhere. No console output, no process.exit, no process-wide
 * tuning (the CLI's V8 flags and heap watch are the CLI's), no spill folder (the report is returned
 * whole in memory anyway), always serial (worker threads are a CLI speed-up with the same result).
 * Two analyses at once share nothing but caches that hold no results.
 */
import { expandUnits } from "../adapters/discovery.js";
import { InputError, MAX_LINE_BYTES, withLineLimit } from "../adapters/io/lineSource.js";
import type { ConfigFile } from "../adapters/openclaw/configFile.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { packageVersion } from "../packageVersion.js";
import { inputPaths, MAX_LINE_LIMIT, nothingAnalysed, nothingUsable, strictViolation } from "../commands/common.js";
import { analyzeSerially } from "../pipeline/analysis.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { configSummary } from "../pipeline/configSummary.js";
import { buildReport } from "../pipeline/report.js";
import { commandCache } from "../commands/cache.js";
import { FAIL_ON_CHOICES } from "../commands/failOn.js";
import { jsonReporter } from "../reporters/json.js";
import { failureLines } from "../reporters/failureLines.js";
import { reportText, type Gate } from "../reporters/model.js";
import { UsageError } from "../pipeline/errors.js";
import { configFileOf, type ConfigInput } from "./config.js";
import { apiFilters } from "./filters.js";
import { resolveInput } from "./inputs.js";
import { memoryIo } from "./memoryIo.js";
import { rememberModel } from "./reportModels.js";
import type { AnalyzeInput, AnalyzeOptions, CanonicalEvent, GateResult, Report } from "./types.js";

/** Replays every run of the inputs through the detectors: the report `looplens analyze --format json` prints. */
export async function analyze(inputs: AnalyzeInput, options: AnalyzeOptions = {}): Promise<Report> {
  const { maxLineBytes, failOn, maxWarnings } = options;
  if (failOn !== undefined && !(FAIL_ON_CHOICES as readonly string[]).includes(failOn)) throw new UsageError(`failOn: expected one of ${FAIL_ON_CHOICES.join(", ")}.`);
  if (maxWarnings !== undefined && (!Number.isSafeInteger(maxWarnings) || maxWarnings < 0)) throw new UsageError("maxWarnings: expected a whole number, 0 or more.");
  if (maxLineBytes !== undefined && (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1 || maxLineBytes > MAX_LINE_LIMIT)) {
    throw new UsageError(`maxLineBytes: expected a number of bytes from 1 to ${MAX_LINE_LIMIT}.`);
  }
  // This analysis's own line limit, the default included (the CLI's is the thread's, which two
  // analyses at once would share); it is also in the options, where the cache's key reads it.
  const limit = maxLineBytes ?? MAX_LINE_BYTES;
  return withLineLimit(limit, () => analyzeUnder(inputs, options, limit));
}

async function analyzeUnder(inputs: AnalyzeInput, options: AnalyzeOptions, maxLineBytes: number): Promise<Report> {
  const input = await resolveInput(inputs);
  const env = { ...(options.env ?? process.env) };
  const filters = apiFilters(options.filters, options.agent, options.now ?? new Date());
  const common = { agent: options.agent, set: settingPairs(options.set), profile: options.profile };
  const loaded: ConfigFile | undefined = typeof options.config === "object" ? configFileOf(options.config as ConfigInput) : undefined;
  const configOptions = { ...common, config: typeof options.config === "string" ? options.config : undefined };
  const resolver = await createConfigResolver(configOptions, env, loaded);
  const digest = await loadXxhashDigest();
  const io = memoryIo(env);
  const units = await expandUnits(await inputPaths(input.paths, io, true));
  // `cache: true`: the CLI's result cache (off by default here: a library call writes nowhere unless asked).
  const cache = options.cache === true ? await commandCache(true, io, packageVersion()) : undefined;
  const probe = cache && (await createConfigResolver(configOptions, env, loaded));
  const serialCache = cache && probe && { cache, probe: (agent: string | null, profile: ProfileName) => probe.effectiveFor(agent, profile).config };
  const configFor = (agent: string | null, profile: ProfileName) => resolver.effectiveFor(agent, profile).config;
  const analysisOptions = {
    inputFormat: options.inputFormat ?? input.inputFormat,
    activeBranch: options.activeBranch,
    maxLineBytes,
    ...(options.profile !== undefined && { profile: options.profile }),
    // html draws each run's calls: kept so that `format(report, "html")` can.
    timelines: true,
    ...(input.standardInput && { standardInput: input.standardInput }),
  };
  const analysis = await analyzeSerially(units, digest, configFor, analysisOptions, serialCache);
  cache?.finish("library");
  // As on the CLI, input that ends in exit 2 is an error, not a report: nothing usable, a bad line
  // under `strict`, nothing to judge under `failOn` or `maxWarnings`.
  const { failOn, maxWarnings } = options;
  const runs = analysis.runs.length + analysis.liveRuns.length;
  // (In the CLI's order; the line the failing check wrote is the error's message.)
  if (strictViolation(io, { strict: options.strict === true }, analysis.lines.skipped) || nothingUsable(io, analysis) || nothingAnalysed(io, { failOn, maxWarnings }, runs)) {
    throw new InputError(io.stderrText().trimEnd().split("\n").at(-1)!.replace(/^looplens: /, ""));
  }
  const request = { version: packageVersion(), config: configSummary(resolver, analysis.runs, common), filters };
  const gated = failOn !== undefined || maxWarnings !== undefined;
  const choices = { all: true, verbose: false, ...(failOn !== undefined && { failOn }), ...(maxWarnings !== undefined && { maxWarnings }) };
  const model = buildReport(analysis, { ...request, choices });
  const document = JSON.parse(reportText(jsonReporter(model, { color: false }))) as Report;
  const report: Report = gated ? { ...document, gate: gateResult(model.facts().gate) } : document;
  // `format` builds the model again with its own choices (runs without findings, rows per verdict, --fail-on).
  rememberModel(report, { analysis, request });
  return report;
}

/** What `--fail-on` and `--max-warnings` would make of the report: exit status 1 (`failed`) and why. */
function gateResult(gate: Gate): GateResult {
  const reasons = failureLines(gate);
  return {
    ...(gate.failOn !== undefined && { failOn: gate.failOn }),
    ...(gate.maxWarnings !== undefined && { maxWarnings: gate.maxWarnings }),
    failing: gate.failing,
    warnings: gate.warnings,
    failed: reasons.length > 0,
    reasons,
  };
}

/** One in-memory session of canonical events (no `run` on any: one run, named `stdin`) under a config. */
export function replay(events: readonly CanonicalEvent[], config?: AnalyzeOptions["config"]): Promise<Report> {
  return analyze(events, config === undefined ? {} : { config });
}

/** `--set` pairs, from `["key=value"]` or `{ key: value }`. */
function settingPairs(set: AnalyzeOptions["set"]): string[] | undefined {
  if (set === undefined) return undefined;
  if (Array.isArray(set)) return [...(set as readonly string[])];
  return Object.entries(set).map(([key, value]) => `${key}=${String(value)}`);
}
