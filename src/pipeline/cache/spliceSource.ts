/**
 * What a command that missed its kept output can still take from it (outputSplice.ts): the output
 * kept for the same key (paths, listing, options) and configs, though some files changed since, when
 * it is a JSON document whose runs per unit it kept, of the same units as now. The units whose files
 * are all as it stamped them are the ones whose runs it may give (each also needs its own entry to
 * hold, for its counts: the analysis reads the others).
 */
import type { InputUnit } from "../../adapters/discovery.js";
import type { ConfigForAgent } from "../../core/replay.js";
import { stillStamped, unitPaths } from "./fileStamps.js";
import { runsSection, unitsDigest, type SplicedDocument } from "./outputSplice.js";
import { reportAsKept, type HeaderOf, type ReportKey } from "./reportCache.js";
import type { UnitCache } from "./unitCache.js";

export interface SpliceSource {
  /** The kept document, and how many runs each unit wrote in it. */
  readonly kept: SplicedDocument;
  readonly keptRuns: readonly number[];
  /** The units whose files are as the kept output stamped them. */
  readonly unchanged: ReadonlySet<InputUnit>;
}

/** The kept output of `key` to splice into, for `units` (none when nothing of it can be reused). */
export function spliceSource(cache: UnitCache, key: ReportKey, probe: ConfigForAgent, header: HeaderOf, units: readonly InputUnit[]): SpliceSource | undefined {
  const found = reportAsKept(cache, key, probe, header);
  const splice = found?.output.splice;
  if (found === undefined || splice === undefined || splice.runs.length !== units.length || splice.units !== unitsDigest(units, cache.hasher)) return undefined;
  const section = runsSection(found.output.stdout, splice.runs.reduce((sum, runs) => sum + runs, 0));
  if (section === undefined) return undefined;
  const { paths, stamps } = found.stamps;
  const same = new Set(paths.filter((path, i) => stillStamped(path, stamps[i]!, cache.hasher)));
  const unchanged = new Set(units.filter((unit) => unitPaths(unit)?.every((path) => same.has(path)) === true));
  if (unchanged.size === 0) return undefined;
  return { kept: { doc: found.output.stdout, section }, keptRuns: splice.runs, unchanged };
}
