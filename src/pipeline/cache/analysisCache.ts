/**
 * The result cache for `analyze` (and `check --cache`): a unit's `FileAnalysis` from its entry, or
 * analysed and kept. The same per-unit result `looplens watch` re-analyses units into (analysis.ts
 * `analyzeUnit`): a follower could look its unit up here first on start-up.
 *
 * Config resolution: replay asks the config of each agent it meets (`agentsResolved`), and the
 * command's resolver collects notices in the order configs were first asked. A hit does not replay,
 * so the caller asks its resolver for the hit's agents itself, in input order (as the parallel path
 * does for units analysed on other threads); the entry is checked against a resolver of its own
 * (`probe`), so that checking a stale entry never resolves a config that the fresh run would not.
 */
import type { InputUnit } from "../../adapters/discovery.js";
import type { ConfigForAgent } from "../../core/replay.js";
import type { AnalysisOptions, FileAnalysis, UnitResume } from "../fileAnalysis.js";
import { analysisBody, analysisOfEntry, isCacheable } from "./analysisEntry.js";
import { configsDigest, keyText } from "./cacheKey.js";
import type { AskedAgent } from "../askedAgents.js";
import type { UnitCache } from "./unitCache.js";
import type { UnitStamps } from "./fileStamps.js";
import type { RunWindow } from "./runWindow.js";
import { grownFrom, keepsResume, keptResume, RESUME_MIN_BYTES } from "./resumeEntry.js";

type Asked = readonly AskedAgent[];

/**
 * A unit's analysis from the cache, or undefined when it has to be analysed (then `analyzeAndKeep`).
 * With a `window` (`--since`/`--until`), a unit whose runs all started outside it has them counted, unread (runWindow.ts);
 * `unread`: its runs are counted, unread, whatever their times (the command's kept output holds their text: outputSplice.ts),
 * given with the unit's stamps taken when the kept output was judged (its entry is checked against them).
 */
export function cachedAnalysis(cache: UnitCache, unit: InputUnit, options: AnalysisOptions, probe: ConfigForAgent, window?: RunWindow, unread?: UnitStamps): FileAnalysis | undefined {
  const key = keyText("analyze", cache.setup.build, unit, options);
  return cache.lookUp<Asked, FileAnalysis>(
    key,
    (asked) => configsDigest(asked, probe, cache.hasher),
    (entry) => {
      // The point to resume from serves a grown file only (resumeEntry.ts): a hit does not carry it.
      const { resume: _point, ...hit } = analysisOfEntry(entry, options.spill, window, false, unread !== undefined);
      return hit;
    },
    true,
    unread,
  );
}

/**
 * Analyses a unit (`analyse`, with `configFor` as its replay asks) and keeps the result: stamped
 * before it is read, written only when no file changed meanwhile. A one-file unit large enough keeps
 * where its reading stood too, and when its file only grew since its entry was written, `analyse` is
 * told to resume from there (resumeEntry.ts). Any failure to keep it is the cache's notice, never the
 * analysis's.
 */
export async function analyzeAndKeep(
  cache: UnitCache,
  unit: InputUnit,
  options: AnalysisOptions,
  configFor: ConfigForAgent,
  analyse: (resume: UnitResume) => Promise<FileAnalysis>,
): Promise<FileAnalysis> {
  const stamps = cache.canWrite ? cache.stamp(unit) : undefined;
  const key = keyText("analyze", cache.setup.build, unit, options);
  const keep = keepsResume(stamps, cache.setup.resumeMinBytes ?? RESUME_MIN_BYTES);
  const grown = keep ? grownFrom(cache, key, unit, (asked: Asked) => configsDigest(asked, configFor, cache.hasher)) : undefined;
  const { resume: point, ...analysis } = await analyse({ keep, ...(grown && { from: grown.from }) });
  if (stamps === undefined || !isCacheable(analysis)) return analysis;
  const asked: Asked = analysis.agentsResolved;
  const resume = point && keptResume(point, stamps, cache.hasher, grown?.prefix);
  cache.write(key, stamps, asked, configsDigest(asked, configFor, cache.hasher), () => analysisBody(resume ? { ...analysis, resume } : analysis));
  return analysis;
}
