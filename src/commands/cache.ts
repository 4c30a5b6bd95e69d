/**
 * `looplens cache info|clear`, and the result cache as the other commands use it (watch.md §2): on by
 * default for `analyze` and `sweep` (`--no-cache` turns it off), read and kept by `check` only with
 * `--cache`, so that CI stays self-contained.
 */
import { sanitize } from "../reporters/sanitize.js";
import { loadByteHasher } from "../pipeline/cache/byteHash.js";
import { cacheFolder, cacheLimit, cacheSetup } from "../pipeline/cache/cacheSetup.js";
import { cacheContents, clearCache, readUsage } from "../pipeline/cache/cacheUsage.js";
import { UnitCache } from "../pipeline/cache/unitCache.js";
import { EXIT } from "../pipeline/errors.js";
import type { Io } from "./common.js";

/** The cache of a command run, or undefined when it is off. */
export async function commandCache(on: boolean, io: Io, version: string): Promise<UnitCache | undefined> {
  if (!on) return undefined;
  return UnitCache.open(cacheSetup(io.env, version, await loadByteHasher()));
}

/** After the analysis: the cache's notice (a folder it cannot write), and its counts and size bound kept. */
export function finishCache(io: Io, cache: UnitCache | undefined, command: string, quiet: boolean | undefined): void {
  cache?.finish(command);
  cacheNotices(io, cache, quiet);
}

/** The cache's notice alone (analyze says it before its output, and finishes the cache once its output is kept). */
export function cacheNotices(io: Io, cache: UnitCache | undefined, quiet: boolean | undefined): void {
  if (cache && !quiet) for (const notice of cache.notices) io.stderr(`looplens: notice: ${notice}\n`);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const when = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

export function cacheInfo(io: Io): number {
  const dir = cacheFolder(io.env);
  const { entries, bytes, usedMs } = cacheContents(dir);
  const usage = readUsage(dir);
  const limit = cacheLimit(io.env);
  const lines = [
    `folder   ${sanitize(dir)}${io.env.LOOPLENS_CACHE_DIR?.trim() ? " ($LOOPLENS_CACHE_DIR)" : ""}`,
    `entries  ${entries} (${mb(bytes)} of at most ${mb(limit)}${io.env.LOOPLENS_CACHE_MAX_MB === undefined ? `, the default; $LOOPLENS_CACHE_MAX_MB sets it` : ", $LOOPLENS_CACHE_MAX_MB"})`,
  ];
  if (entries > 0) {
    // A loop, not Math.min(...usedMs): a cache of hundreds of thousands of entries would overflow the call's arguments.
    let least = Infinity;
    let most = -Infinity;
    for (const used of usedMs) [least, most] = [Math.min(least, used), Math.max(most, used)];
    lines.push(`used     least recently ${when(least)}, most recently ${when(most)}`);
  }
  if (usage) {
    const total = usage.hits + usage.misses;
    lines.push(`since    ${when(usage.since)}: ${usage.hits} units read from the cache, ${usage.misses} analysed${total > 0 ? ` (${Math.round((100 * usage.hits) / total)}% hits)` : ""}`);
    if (usage.last) lines.push(`last run ${when(usage.last.at)}, ${sanitize(usage.last.command)}: ${usage.last.hits} hits, ${usage.last.misses} misses`);
  }
  io.stdout(`${lines.join("\n")}\n`);
  return EXIT.ok;
}

export function clearCacheFolder(io: Io): number {
  const dir = cacheFolder(io.env);
  const removed = clearCache(dir);
  io.stdout(`removed ${removed.entries} entr${removed.entries === 1 ? "y" : "ies"} (${mb(removed.bytes)}) from ${sanitize(dir)}\n`);
  return EXIT.ok;
}
