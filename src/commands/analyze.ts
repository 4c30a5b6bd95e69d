/**
 * `looplens analyze` and `looplens runs`, up to the result cache's answer: the options read, the
 * config resolved, the inputs named, and the output an earlier run kept looked up and written when
 * it holds (keptOutput.ts). Only a miss loads the reading, replay and reporters (analyzeReport.ts,
 * through commandWork.ts): a kept output is printed without them (test/commands/startup.cli.test.ts).
 */
import type { ConfigForAgent } from "../core/replay.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { configOfRuns } from "../pipeline/configSummary.js";
import { withHeapWatched } from "../pipeline/v8Tuning.js";
import type { KeptOutput } from "../pipeline/cache/reportCache.js";
import type { AnalysisOptions } from "../pipeline/analysis.js";
import { hasFilters } from "../pipeline/filters.js";
import { TIMELINE_FORMATS } from "../reporters/formatNames.js";
import { commandCache, finishCache } from "./cache.js";
import type { AnalyzeOptions } from "./analyzeOptions.js";
import { inputPaths, reportNotices, type Io } from "./common.js";
import { isRelativeTime, reportFilters } from "./filterOptions.js";
import { KeptOutputUse } from "./keptOutput.js";
import { headerPlaces, useColor } from "./output.js";
import { writeBytes } from "./reportWriting.js";
import { streamsFindings } from "./streamedFindings.js";

/**
 * `report`: whose outputs write the result — analyze's, or `looplens runs`' (one line per run:
 * commands/runs.ts), which reads and replays the same way. The heap's growth is held while the
 * process is large, report writing included (v8Tuning.ts).
 */
export function runAnalyze(paths: string[], options: AnalyzeOptions, io: Io, version: string, now = new Date(), report: "analyze" | "runs" = "analyze"): Promise<number> {
  return withHeapWatched(() => lookUpOrAnalyze(paths, options, io, version, now, report));
}

async function lookUpOrAnalyze(paths: string[], options: AnalyzeOptions, io: Io, version: string, now: Date, report: "analyze" | "runs"): Promise<number> {
  const filters = reportFilters(options, now);
  const resolver = await createConfigResolver(options, io.env);
  const inputs = await inputPaths(paths, io, options.quiet, options.agentHome);
  // `analyze - -f ndjson`: findings written as they are made (streamedFindings.ts).
  const streams = report === "analyze" && streamsFindings(inputs, options.format, filters);
  const input: AnalysisOptions = {
    inputFormat: options.inputFormat,
    activeBranch: options.activeBranch,
    maxLineBytes: options.maxLineBytes,
    ...(options.profile !== undefined && { profile: options.profile }),
    ...(report === "analyze" && TIMELINE_FORMATS.has(options.format) && { timelines: true }),
  };
  const config = { config: options.config, agent: options.agent, set: options.set, profile: options.profile };
  const resolve = (agent: string | null, profile: ProfileName) => resolver.effectiveFor(agent, profile).config;
  // Streamed findings are written by replay itself: a unit answered from the cache would write none.
  const cache = await commandCache(options.cache !== false && !streams, io, version);
  const header = configOfRuns(resolver, options);
  const render = { color: useColor(options, io), width: io.columns, explain: options.explain !== false, ...headerPlaces(io) };
  // The whole output of this command on these files, kept by an earlier run: not when the header reads
  // every run, nor for a window back from now (a new key each run: its outputs would only push others out).
  const keepsOutput = cache && !header.readsRuns && !isRelativeTime(options.since) && !isRelativeTime(options.until);
  // A JSON or NDJSON document of every run, unjudged: a re-run after some units changed splices the kept one (outputSplice.ts).
  const format = options.format === "json" || options.format === "ndjson" ? options.format : undefined;
  const unjudged = !hasFilters(filters) && options.failOn === undefined && options.maxWarnings === undefined && (options.sort ?? "stops") === "stops";
  const spliceable = report === "analyze" && unjudged ? format : undefined;
  const kept = keepsOutput ? await KeptOutputUse.look(cache, inputs, input, { version, outputs: report, options, filters, render }, config, io.env, spliceable) : undefined;
  if (kept?.hit) return writeKept(io, kept.hit, resolve, () => (reportNotices(io, resolver, options.quiet), finishCache(io, cache, "analyze", options.quiet)));
  const { analyzeAndReport } = await import("./commandWork.js");
  return analyzeAndReport({ inputs, input, options, io, version, report, filters, resolver, resolve, cache, kept, header, render });
}

/** Says and writes what an earlier run of the command kept (keptOutput.ts), as that run did. */
async function writeKept(io: Io, hit: KeptOutput, configFor: ConfigForAgent, notices: () => void): Promise<number> {
  // Its configs asked in its order: the command's config notices come out as that run's did.
  for (const { agent, profile } of hit.asked) configFor(agent, profile);
  notices();
  if (hit.before !== "") io.stderr(hit.before);
  await writeBytes(io, [hit.stdout]);
  if (hit.after !== "") io.stderr(hit.after);
  return hit.status;
}
