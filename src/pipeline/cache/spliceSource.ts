/**
 * What a command that missed its kept output can still take from it (outputSplice.ts): the output
 * kept for the same key (paths, listing, options) and configs, though some files changed since, when
 * it is a JSON document whose runs per unit it kept, of the same units as now. The units whose files
 * are all as it stamped them are the ones whose runs it may give (each also needs its own entry to
 * hold, for its counts: the analysis reads the others).
 */
import type { InputUnit } from "../../adapters/discovery.js";
import type { ConfigForAgent } from "../../core/replay.js";
import { stillStamped, type PathStamp, type UnitStamps } from "./fileStamps.js";
import { itemsSection, unitsDigest, type SpliceFormat, type SplicedDocument } from "./outputSplice.js";
import { reportAsKept, type HeaderOf, type ReportKey } from "./reportCache.js";
import type { UnitCache } from "./unitCache.js";

export interface SpliceSource {
  /** The kept document, and how many items (runs, finding lines) each unit wrote in it. */
  readonly kept: SplicedDocument;
  readonly keptItems: readonly number[];
  /** The units whose files are as the kept output stamped them. */
  readonly unchanged: ReadonlySet<InputUnit>;
}

/**
 * Whether a file stamped `now` is the one stamped `then` (fileStamps.ts `stillStamped`, from two
 * stamps: the files were stamped for the new output already); undefined when only its ends' hash can
 * tell (racy then, not now).
 */
function sameFile(then: PathStamp, now: PathStamp): boolean | undefined {
  if (then === null || now === null) return then === now;
  if (then.size !== now.size || then.mtimeNs !== now.mtimeNs || then.ctimeNs !== now.ctimeNs || then.ino !== now.ino || then.dev !== now.dev) return false;
  if (then.ends === undefined) return true;
  return now.ends === undefined ? undefined : now.ends === then.ends;
}

/**
 * Whether the usage the kept document's summary adds up is whole numbers (its head, up to its runs):
 * else some unit's is not, and the splice would be refused after the analysis (unreadRuns.ts).
 */
function wholeUsageIn(head: Buffer): boolean {
  try {
    const { summary } = JSON.parse(`${head.toString("utf8")}]}`) as { summary?: Record<string, unknown> };
    const sums = [summary?.usage, summary?.usageOnFlagged, summary?.usageAfterStop];
    return sums.every((sum) => sum === undefined || Object.values(sum as object).every((value) => typeof value !== "number" || Number.isSafeInteger(value)));
  } catch {
    return false;
  }
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
  // (NDJSON has no summary: its usage is nowhere in the output.)
  if (section === undefined || (format === "json" && !wholeUsageIn(found.output.stdout.subarray(0, section.start)))) return undefined;
  const then = new Map(found.stamps.paths.map((path, i) => [path, found.stamps.stamps[i]!]));
  const same = new Set<string>();
  stamps.paths.forEach((path, i) => {
    const old = then.get(path);
    if (old !== undefined && (sameFile(old, stamps.stamps[i]!) ?? stillStamped(path, old, cache.hasher))) same.add(path);
  });
  const unchanged = new Set(units.filter((unit) => unit.every((file) => same.has(file))));
  if (unchanged.size === 0) return undefined;
  return { kept: { doc: found.output.stdout, section }, keptItems: splice.items, unchanged };
}
