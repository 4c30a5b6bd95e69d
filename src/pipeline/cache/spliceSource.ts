/**
 * What a command that missed its kept output can still take from it (outputSplice.ts): the output
 * kept for the same key (paths, listing, options) and configs, though some files changed since, when
 * it is a JSON document whose runs per unit it kept, of the same units as now. The units whose files
 * are all as it stamped them are the ones whose runs it may give (each also needs its own entry to
 * hold, for its counts: the analysis reads the others).
 */
import type { InputUnit } from "../../adapters/discovery.js";
import type { ConfigForAgent } from "../../core/replay.js";
import { sameStamp, stillStamped, type UnitStamps } from "./fileStamps.js";
import { itemsSection, unitsDigest, type SpliceFormat, type SplicedDocument } from "./outputSplice.js";
import { reportAsKept, type HeaderOf, type ReportKey } from "./reportCache.js";
import type { UnitCache } from "./unitCache.js";

/** Units whose runs the kept output holds, each with its files' stamps taken at the command's start. */
export type UnreadUnits = ReadonlyMap<InputUnit, UnitStamps>;

export interface SpliceSource {
  /** The kept document, and how many items (runs, finding lines) each unit wrote in it. */
  readonly kept: SplicedDocument;
  readonly keptItems: readonly number[];
  /** The units whose files are as the kept output stamped them, with their stamps now (their entries are checked against these: no second stat). */
  readonly unchanged: UnreadUnits;
}

/**
 * The kept output of `key` to splice into, for `units` whose files are stamped `stamps` now (none when
 * nothing of it can be reused). A unit of a store's session (`<db>#<id>`, not a path) is never reused.
 */
export function spliceSource(cache: UnitCache, key: ReportKey, probe: ConfigForAgent, header: HeaderOf, units: readonly InputUnit[], stamps: UnitStamps, format: SpliceFormat): SpliceSource | undefined {
  const found = reportAsKept(cache, key, probe, header);
  const splice = found?.output.splice;
  if (found === undefined || splice === undefined || splice.items.length !== units.length || splice.units !== unitsDigest(units, cache.hasher)) return undefined;
  const section = itemsSection(format, found.output.stdout, splice.items.reduce((sum, items) => sum + items, 0));
  if (section === undefined) return undefined;
  const then = new Map(found.stamps.paths.map((path, i) => [path, found.stamps.stamps[i]!]));
  const same = new Set<string>();
  stamps.paths.forEach((path, i) => {
    const old = then.get(path);
    if (old !== undefined && (sameStamp(old, stamps.stamps[i]!) ?? stillStamped(path, old, cache.hasher))) same.add(path);
  });
  const now = new Map(stamps.paths.map((path, i) => [path, stamps.stamps[i]!]));
  const unchanged: UnreadUnits = new Map(units.filter((unit) => unit.every((file) => same.has(file))).map((unit) => [unit, { paths: unit, stamps: unit.map((file) => now.get(file)!) }]));
  if (unchanged.size === 0) return undefined;
  return { kept: { doc: found.output.stdout, section }, keptItems: splice.items, unchanged };
}
