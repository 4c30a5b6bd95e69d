/**
 * The result cache for `sweep`: a unit's `UnitSweep` (sweepUnits.ts: what reading it accounted for,
 * and its tallies under every config of the grid) under a key of the unit, the reading options and
 * the grid itself (its passes and points, the run filters and labels the tallies select by; a
 * relative `--since 2h` is a date that moves, so such a sweep misses each time). It holds while the
 * unit's files are as stamped and, for every pass, every point's effective config of each agent the
 * pass asked for is as it was. The body is one line: `W` and the result as JSON (plain data: counts,
 * lists and strings; JSON.parse read it back in half the time V8's deserializer took).
 */
import type { InputUnit } from "../../adapters/discovery.js";
import type { ConfigResolver } from "../configResolution.js";
import type { InputOptions } from "../reading.js";
import type { SweepGrid, UnitSweep } from "../sweepUnits.js";
import type { ByteHasher } from "./byteHash.js";
import { configsDigest, keyText } from "./cacheKey.js";
import type { AskedAgent } from "../askedAgents.js";
import { CorruptEntry } from "./entryFile.js";
import type { UnitCache } from "./unitCache.js";

type Asked = ReadonlyArray<readonly AskedAgent[]>;

const SWEEP = "W";

/** Digests already made per grid of resolvers, by what the passes asked (most units ask the same). */
const gridDigests = new WeakMap<object, Map<string, string>>();

/** The digest of every point's configs of the agents each pass asked for. */
function gridConfigs(asked: Asked, resolvers: readonly (readonly ConfigResolver[])[], hasher: ByteHasher): string {
  if (!Array.isArray(asked) || asked.length !== resolvers.length) return "";
  let known = gridDigests.get(resolvers);
  if (known === undefined) gridDigests.set(resolvers, (known = new Map()));
  const askedText = JSON.stringify(asked);
  let digest = known.get(askedText);
  if (digest === undefined) {
    const digests = asked.map((passAsked, pass) => resolvers[pass]!.map((resolver) => configsDigest(passAsked, (agent, profile) => resolver.effectiveFor(agent, profile).config, hasher, resolver)));
    known.set(askedText, (digest = hasher.hash(Buffer.from(JSON.stringify(digests)))));
  }
  return digest;
}

const sweepKey = (cache: UnitCache, unit: InputUnit, grid: SweepGrid, input: InputOptions) => keyText("sweep", cache.setup.build, unit, input, grid);

/** A unit's sweep from the cache, or undefined when it has to be swept (then `sweepAndKeep`). */
export function cachedSweep(cache: UnitCache, unit: InputUnit, grid: SweepGrid, input: InputOptions, resolvers: readonly (readonly ConfigResolver[])[]): UnitSweep | undefined {
  return cache.lookUp<Asked, UnitSweep>(sweepKey(cache, unit, grid, input), (asked) => gridConfigs(asked, resolvers, cache.hasher), (entry) => {
    let more = false;
    let line = "";
    entry.readBody((first) => {
      line = first;
      return () => void (more = true);
    });
    if (more || !line.startsWith(SWEEP)) throw new CorruptEntry("not one sweep line");
    return JSON.parse(line.slice(SWEEP.length)) as UnitSweep;
  });
}

/** Sweeps a unit (`sweep`) and keeps the result, as analysisCache.ts keeps an analysis. */
export async function sweepAndKeep(
  cache: UnitCache,
  unit: InputUnit,
  grid: SweepGrid,
  input: InputOptions,
  resolvers: readonly (readonly ConfigResolver[])[],
  sweep: () => Promise<UnitSweep>,
): Promise<UnitSweep> {
  const stamps = cache.canWrite ? cache.stamp(unit) : undefined;
  const swept = await sweep();
  if (stamps === undefined) return swept;
  const asked: Asked = swept.agentsResolved;
  cache.write(sweepKey(cache, unit, grid, input), stamps, asked, gridConfigs(asked, resolvers, cache.hasher), () => [`${SWEEP}${JSON.stringify(swept)}`]);
  return swept;
}
