/**
 * Validation of config keys and `--set` values, and the "did you mean" hint for unknown keys
 * (a typo like `warningTreshold` must not pass silently).
 */
import { CONFIG_KEYS, isPositiveInt } from "./config.js";

/** The keys a loopDetection block may hold. */
export const BLOCK_KEYS: ReadonlySet<string> = new Set(["enabled", "historySize", "warningThreshold", "criticalThreshold", "unknownToolThreshold", "globalCircuitBreakerThreshold", "detectors", "postCompactionGuard"]);

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

const MAX_TYPO_LENGTH = 64;

/** The closest known name, if it is close enough to be a likely typo. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  // The distance costs length × length: a megabyte-long key is no typo of a 30-letter one.
  if (name.length > MAX_TYPO_LENGTH) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 4)) ? best : undefined;
}

/** Dotted paths of keys in a loopDetection block that the runtime does not know. */
export function unknownKeys(block: Record<string, unknown>): Array<{ key: string; suggestion: string | undefined }> {
  const found: Array<{ key: string; suggestion: string | undefined }> = [];
  for (const [key, value] of Object.entries(block)) {
    if (!BLOCK_KEYS.has(key)) {
      found.push({ key, suggestion: closest(key, BLOCK_KEYS) });
      continue;
    }
    if ((key === "detectors" || key === "postCompactionGuard") && typeof value === "object" && value !== null && !Array.isArray(value)) {
      const known = Object.keys(CONFIG_KEYS).filter((k) => k.startsWith(`${key}.`));
      for (const sub of Object.keys(value)) {
        const dotted = `${key}.${sub}`;
        if (!known.includes(dotted)) found.push({ key: dotted, suggestion: closest(dotted, known) });
      }
    }
  }
  return found;
}

export type SetParse = { ok: true; key: string; value: boolean | number } | { ok: false; error: string };

/** Parses one `--set KEY=VALUE`; values are validated strictly (a bad value is an error, not a notice). */
export function parseSetting(text: string): SetParse {
  const eq = text.indexOf("=");
  if (eq <= 0) return { ok: false, error: `--set ${JSON.stringify(text)}: expected KEY=VALUE` };
  const key = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1).trim();
  const kind = CONFIG_KEYS[key];
  if (!Object.prototype.hasOwnProperty.call(CONFIG_KEYS, key) || kind === undefined) {
    const hint = closest(key, Object.keys(CONFIG_KEYS));
    const help = hint ? ` (did you mean ${hint}?)` : ` (known keys: ${Object.keys(CONFIG_KEYS).join(", ")})`;
    return { ok: false, error: `--set: unknown key ${JSON.stringify(key)}${help}` };
  }
  return parseValue(key, kind, raw);
}

export function parseValue(key: string, kind: "boolean" | "positiveInt", raw: string): SetParse {
  if (kind === "boolean") {
    if (raw === "true" || raw === "false") return { ok: true, key, value: raw === "true" };
    return { ok: false, error: `--set ${key}: ${JSON.stringify(raw)} is not true or false` };
  }
  const value = /^\+?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!isPositiveInt(value) || !Number.isSafeInteger(value)) {
    return { ok: false, error: `--set ${key}: ${JSON.stringify(raw)} is not a positive integer` };
  }
  return { ok: true, key, value };
}

/** Turns dotted settings into a nested block (`detectors.pingPong` → `{detectors: {pingPong}}`). */
export function nestSettings(settings: ReadonlyArray<{ key: string; value: unknown }>): Record<string, unknown> {
  const block: Record<string, unknown> = {};
  for (const { key, value } of settings) {
    const [head, sub] = key.split(".", 2) as [string, string | undefined];
    if (sub === undefined) block[head] = value;
    else block[head] = { ...((block[head] as Record<string, unknown>) ?? {}), [sub]: value };
  }
  return block;
}
