/**
 * `tools.loopDetection` resolution, exactly as the runtime reads it (spec: detection.md "Configuration"):
 * per-agent block merged field by field over the global block (`detectors` and `postCompactionGuard`
 * one level deeper), numeric fields accepted only as positive integers (else the default, with a
 * notice), then ordering clamps (critical above warning, breaker above critical), each with a notice.
 *
 * Pure: callers parse files and pass plain objects in; notices come back as data.
 */
import { isPlainObject } from "./plainObject.js";
import { quote } from "./quote.js";

export const NUMERIC_FIELDS = [
  "historySize",
  "warningThreshold",
  "criticalThreshold",
  "unknownToolThreshold",
  "globalCircuitBreakerThreshold",
] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];

export const DETECTOR_FIELDS = ["genericRepeat", "knownPollNoProgress", "pingPong"] as const;
export type DetectorField = (typeof DETECTOR_FIELDS)[number];

export interface ResolvedConfig {
  /** As written; `undefined` = unset (rolling detectors off, guard on). */
  readonly enabled: boolean | undefined;
  readonly historySize: number;
  readonly warningThreshold: number;
  readonly criticalThreshold: number;
  readonly unknownToolThreshold: number;
  readonly globalCircuitBreakerThreshold: number;
  readonly detectors: Readonly<Record<DetectorField, boolean>>;
  readonly postCompactionGuard: { readonly windowSize: number };
}

export const DEFAULT_CONFIG: ResolvedConfig = {
  enabled: undefined,
  historySize: 30,
  warningThreshold: 10,
  criticalThreshold: 20,
  unknownToolThreshold: 10,
  globalCircuitBreakerThreshold: 30,
  detectors: { genericRepeat: true, knownPollNoProgress: true, pingPong: true },
  postCompactionGuard: { windowSize: 3 },
};

/** Rolling detectors run only when `enabled` is explicitly true. */
export function rollingDetectorsOn(config: ResolvedConfig): boolean {
  return config.enabled === true;
}

/** Calls are recorded and the post-compaction guard runs unless `enabled` is explicitly false. */
export function guardOn(config: ResolvedConfig): boolean {
  return config.enabled !== false;
}

/** Every settable key, dotted, with its kind. The one list that validation, `--set` and notices share. */
export const CONFIG_KEYS: Readonly<Record<string, "boolean" | "positiveInt">> = {
  enabled: "boolean",
  ...Object.fromEntries(NUMERIC_FIELDS.map((f) => [f, "positiveInt"])),
  ...Object.fromEntries(DETECTOR_FIELDS.map((f) => [`detectors.${f}`, "boolean"])),
  "postCompactionGuard.windowSize": "positiveInt",
};

/** `looplens`: looplens' own default without --config (rolling detectors on). */
export type ValueSource = "default" | "looplens" | "global" | "agent" | "--set" | "adjusted";

export interface ConfigNotice {
  /** Where the offending value was written: a file path or `--set`. */
  readonly origin: string;
  readonly key: string;
  readonly message: string;
}

export interface EffectiveConfig {
  readonly config: ResolvedConfig;
  /** Where each dotted key's value came from. */
  readonly sources: Readonly<Record<string, ValueSource>>;
  readonly notices: readonly ConfigNotice[];
}

export function isPositiveInt(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

/** A raw block as read from a file (or built from `--set`), plus where it was written. */
export interface RawBlock {
  readonly origin: string;
  readonly source: Exclude<ValueSource, "default" | "adjusted">;
  readonly values: Record<string, unknown>;
}

type Flat = Map<string, { value: unknown; block: RawBlock }>;

/** Flattens a block to dotted keys one level deep (`detectors.pingPong`), the depth the runtime merges at. */
function flatten(block: RawBlock, into: Flat): void {
  for (const [key, value] of Object.entries(block.values)) {
    if ((key === "detectors" || key === "postCompactionGuard") && isPlainObject(value)) {
      for (const [sub, subValue] of Object.entries(value)) into.set(`${key}.${sub}`, { value: subValue, block });
    } else {
      into.set(key, { value, block });
    }
  }
}

/**
 * Resolves the effective config from blocks applied in order (global, agent, --set): a later block
 * wins field by field. `--set` blocks must have been validated strictly by the caller.
 */
export function resolveConfig(blocks: readonly RawBlock[]): EffectiveConfig {
  const flat: Flat = new Map();
  for (const block of blocks) flatten(block, flat);

  const notices: ConfigNotice[] = [];
  const sources: Record<string, ValueSource> = {};
  const pick = <T>(key: string, fallback: T, accept: (v: unknown) => v is T, expected: string): T => {
    const entry = flat.get(key);
    if (!entry || entry.value === undefined) {
      sources[key] = "default";
      return fallback;
    }
    if (accept(entry.value)) {
      sources[key] = entry.block.source;
      return entry.value;
    }
    sources[key] = "default";
    notices.push({
      origin: entry.block.origin,
      key,
      message: `${key}: ${describeValue(entry.value)} is not ${expected}; using the default ${String(fallback)}`,
    });
    return fallback;
  };
  const isBool = (v: unknown): v is boolean => typeof v === "boolean";

  const enabledEntry = flat.get("enabled");
  const enabled =
    enabledEntry && enabledEntry.value !== undefined ? pick<boolean | undefined>("enabled", undefined, isBool, "a boolean") : undefined;
  if (!enabledEntry || enabledEntry.value === undefined) sources["enabled"] = "default";

  const num = (field: string, fallback: number) => pick(field, fallback, isPositiveInt, "a positive integer");
  const historySize = num("historySize", DEFAULT_CONFIG.historySize);
  const warningThreshold = num("warningThreshold", DEFAULT_CONFIG.warningThreshold);
  let criticalThreshold = num("criticalThreshold", DEFAULT_CONFIG.criticalThreshold);
  const unknownToolThreshold = num("unknownToolThreshold", DEFAULT_CONFIG.unknownToolThreshold);
  let globalCircuitBreakerThreshold = num("globalCircuitBreakerThreshold", DEFAULT_CONFIG.globalCircuitBreakerThreshold);
  const windowSize = num("postCompactionGuard.windowSize", DEFAULT_CONFIG.postCompactionGuard.windowSize);
  const detectors = Object.fromEntries(
    DETECTOR_FIELDS.map((f) => [f, pick(`detectors.${f}`, DEFAULT_CONFIG.detectors[f], isBool, "a boolean")]),
  ) as Record<DetectorField, boolean>;

  // Ordering is enforced after defaults, critical first, then the breaker against the new critical.
  if (criticalThreshold <= warningThreshold) {
    const adjusted = warningThreshold + 1;
    notices.push({
      origin: "resolution",
      key: "criticalThreshold",
      message: `criticalThreshold ${criticalThreshold} is not above warningThreshold ${warningThreshold}; raised to ${adjusted}`,
    });
    criticalThreshold = adjusted;
    sources["criticalThreshold"] = "adjusted";
  }
  if (globalCircuitBreakerThreshold <= criticalThreshold) {
    const adjusted = criticalThreshold + 1;
    notices.push({
      origin: "resolution",
      key: "globalCircuitBreakerThreshold",
      message: `globalCircuitBreakerThreshold ${globalCircuitBreakerThreshold} is not above criticalThreshold ${criticalThreshold}; raised to ${adjusted}`,
    });
    globalCircuitBreakerThreshold = adjusted;
    sources["globalCircuitBreakerThreshold"] = "adjusted";
  }

  return {
    config: {
      enabled,
      historySize,
      warningThreshold,
      criticalThreshold,
      unknownToolThreshold,
      globalCircuitBreakerThreshold,
      detectors,
      postCompactionGuard: { windowSize },
    },
    sources,
    notices,
  };
}

export function describeValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/** Flat view of a resolved config by dotted key (for reports and sweep grids). */
export function configEntries(config: ResolvedConfig): Array<[string, boolean | number | undefined]> {
  return [
    ["enabled", config.enabled],
    ...NUMERIC_FIELDS.map((f): [string, number] => [f, config[f]]),
    ...DETECTOR_FIELDS.map((f): [string, boolean] => [`detectors.${f}`, config.detectors[f]]),
    ["postCompactionGuard.windowSize", config.postCompactionGuard.windowSize],
  ];
}
