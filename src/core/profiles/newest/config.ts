/**
 * How the newest generation reads `tools.loopDetection` (generations.md §1): only `enabled`. Every
 * threshold, detector toggle and the guard window are constants; a file that sets one is told, once
 * per field, that this build ignores it. The per-agent merge builds a new object whose `enabled` is
 * the agent's value, else the global one: field by field for the one field that counts, which is
 * what a later block winning gives.
 */
import { CONFIG_KEYS, type ConfigNotice, type EffectiveConfig, type RawBlock, type ResolvedConfig, type ValueSource } from "../../config.js";
import { isPlainObject, own } from "../../plainObject.js";
import { describeValue } from "../../quote.js";
import { NEWEST_GUARD_WINDOW } from "./guard.js";
import { NEWEST_HISTORY_SIZE } from "./history.js";
import { NEWEST_THRESHOLDS } from "./verdicts.js";

/** The config the newest generation runs with, `enabled` aside. */
export const NEWEST_FIXED: Omit<ResolvedConfig, "enabled"> = {
  historySize: NEWEST_HISTORY_SIZE,
  ...NEWEST_THRESHOLDS,
  // No toggles exist: every detector is always on when detection is.
  detectors: { genericRepeat: true, knownPollNoProgress: true, pingPong: true },
  postCompactionGuard: { windowSize: NEWEST_GUARD_WINDOW },
};

/** Every dotted key the newest build ignores (all but `enabled`). */
export const NEWEST_IGNORED_KEYS: readonly string[] = Object.keys(CONFIG_KEYS).filter((key) => key !== "enabled");

/** Why a key has its value under the newest profile (config --profile newest, notices, --set errors). */
export function newestIgnoredReason(key: string): string {
  if (key.startsWith("detectors.")) return "the newest build has no detector toggles (every detector is on when enabled)";
  if (key === "postCompactionGuard.windowSize") return `the newest build's guard window is fixed at ${NEWEST_GUARD_WINDOW}`;
  return "the newest build's thresholds are fixed (numeric tuning was retired, OpenClaw #111382)";
}

function written(block: RawBlock, key: string): unknown {
  const [head, sub] = key.split(".", 2) as [string, string | undefined];
  const value = own(block.values, head);
  if (sub === undefined) return value;
  return isPlainObject(value) ? own(value, sub) : undefined;
}

export function resolveNewestConfig(blocks: readonly RawBlock[]): EffectiveConfig {
  const notices: ConfigNotice[] = [];
  const sources: Record<string, ValueSource> = {};
  for (const key of NEWEST_IGNORED_KEYS) sources[key] = "fixed";
  sources.enabled = "default";
  let enabled: boolean | undefined;
  for (const block of blocks) {
    const field = (key: string) => (block.where ? `${block.where}.${key}` : key);
    const value = written(block, "enabled");
    if (value !== undefined) {
      // [unpinned] non-boolean `enabled`: handled as the default generation does (booleans only).
      if (typeof value === "boolean") {
        enabled = value;
        sources.enabled = block.source;
      } else {
        notices.push({ origin: block.origin, key: field("enabled"), message: `${field("enabled")}: ${describeValue(value)} is not true or false; ignored` });
      }
    }
    // `--set` of an ignored key is refused before resolution; looplens' own default sets only `enabled`.
    for (const key of NEWEST_IGNORED_KEYS) {
      const ignored = written(block, key);
      if (ignored === undefined) continue;
      notices.push({
        origin: block.origin,
        key: field(key),
        message: `${field(key)}: ${describeValue(ignored)} is ignored by the newest OpenClaw build (profile newest): ${newestIgnoredReason(key)}; using ${fixedValue(key)}`,
      });
    }
  }
  return { config: { enabled, ...NEWEST_FIXED }, sources, notices };
}

/** The fixed value of an ignored key. */
export function fixedValue(key: string): number | boolean {
  if (key.startsWith("detectors.")) return true;
  if (key === "postCompactionGuard.windowSize") return NEWEST_FIXED.postCompactionGuard.windowSize;
  return NEWEST_FIXED[key as keyof typeof NEWEST_THRESHOLDS | "historySize"];
}


