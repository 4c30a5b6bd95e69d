/**
 * The library's analysis: what `looplens analyze` does (commands/analyze.ts) up to the report
 * model, with nothing written anywhere. No console output, no process.exit, no process-wide
 * tuning (the CLI's V8 flags and heap watch are the CLI's), no spill folder (the report is returned
 * whole in memory anyway), always serial (worker threads are a CLI speed-up with the same result).
 * Two analyses at once share nothing but caches that hold no results.
 */
import { expandUnits } from "../adapters/discovery.js";
import { InputError } from "../adapters/io/lineSource.js";
import type { ConfigFile } from "../adapters/openclaw/configFile.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { packageVersion } from "../cli.js";
import { inputPaths, nothingUsable } from "../commands/common.js";
import { analyzeSerially } from "../pipeline/analysis.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { configSummary } from "../pipeline/configSummary.js";
import { buildReport } from "../pipeline/report.js";
import { jsonReporter } from "../reporters/json.js";
import { reportText } from "../reporters/model.js";
import { configFileOf, type ConfigInput } from "./config.js";
import { apiFilters } from "./filters.js";
import { resolveInput } from "./inputs.js";
import { memoryIo } from "./memoryIo.js";
import { rememberModel } from "./reportModels.js";
import type { AnalyzeInput, AnalyzeOptions, CanonicalEvent, Report } from "./types.js";

/** Replays every run of the inputs through the detectors: the report `looplens analyze --format json` prints. */
export async function analyze(inputs: AnalyzeInput, options: AnalyzeOptions = {}): Promise<Report> {
  const input = await resolveInput(inputs);
  const env = { ...(options.env ?? process.env) };
  const filters = apiFilters(options.filters, options.agent, options.now ?? new Date());
  const common = { agent: options.agent, set: settingPairs(options.set), profile: options.profile };
  const loaded: ConfigFile | undefined = typeof options.config === "object" ? configFileOf(options.config as ConfigInput) : undefined;
  const resolver = await createConfigResolver({ ...common, config: typeof options.config === "string" ? options.config : undefined }, env, loaded);
  const digest = await loadXxhashDigest();
  const io = memoryIo(env);
  const units = await expandUnits(inputPaths(input.paths, io, true));
  const analysis = await analyzeSerially(units, digest, (agent: string | null, profile: ProfileName) => resolver.effectiveFor(agent, profile).config, {
    inputFormat: options.inputFormat ?? input.inputFormat,
    activeBranch: options.activeBranch,
    ...(options.profile !== undefined && { profile: options.profile }),
    // html draws each run's calls: kept so that `format(report, "html")` can.
    timelines: true,
    ...(input.standardInput && { standardInput: input.standardInput }),
  });
  // As on the CLI, input of which nothing could be used is an error, not an empty report.
  if (nothingUsable(io, analysis)) throw new InputError(io.stderrText().replace(/^looplens: /, "").trimEnd());
  const request = { version: packageVersion(), config: configSummary(resolver, analysis.runs, common), filters };
  const document = JSON.parse(reportText(jsonReporter(buildReport(analysis, { ...request, choices: { all: true, verbose: false } }), { color: false }))) as Report;
  // `format` builds the model again with its own choices (runs without findings, rows per verdict, --fail-on).
  rememberModel(document, { analysis, request });
  return document;
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
