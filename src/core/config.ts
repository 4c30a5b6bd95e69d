/**
 * `tools.loopDetection` resolution, exactly as the runtime reads it (spec: detection.md "Configuration"):
 * per-agent block merged field by field over the global block (`detectors` and `postCompactionGuard`
 * one level deeper), numeric fields accepted only as positive integers (else the default, with a
 * notice), then ordering clamps (critical above warning, breaker above critical), each with a notice.
 *
 * Pure: callers parse files and pass plain objects in; notices come back as data.
 */
import { isPlainObject, own } from "./plainObject.js";
import { describeValue } from "./quote.js";

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
/** `fixed`: a constant of the replay profile's generation, whatever the config says (profile newest). */
export type ValueSource = "default" | "looplens" | "global" | "agent" | "--set" | "adjusted" | "fixed";

export interface ConfigNotice {
  /** Where the offending value was written: a file path or `--set`. */
  readonly origin: string;
  readonly key: string;
  readonly message: string;
  /** Set on the notices of the ordering clamps (a value raised above the one below it). */
  readonly adjustment?: true;
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
  /** A file path, `--set` or `looplens default`. */
  readonly origin: string;
  /** Path of the block inside its file (`tools.loopDetection`, `agents.list[0].tools.loopDetection`). */
  readonly where?: string;
  /** The agent whose override this block is. */
  readonly agent?: string;
  readonly source: Exclude<ValueSource, "default" | "adjusted" | "fixed">;
  readonly values: Record<string, unknown>;
}

interface Written {
  readonly value: unknown;
  readonly block: RawBlock;
}

/**
 * The value a block writes for a dotted key, merged the runtime's way: one level deep for
 * `detectors` and `postCompactionGuard`. Own properties only (`__proto__` is data, not a prototype).
 */
function writtenIn(block: RawBlock, key: string): unknown {
  const [head, sub] = key.split(".", 2) as [string, string | undefined];
  const value = own(block.values, head);
  if (sub === undefined) return value;
  return isPlainObject(value) ? own(value, sub) : undefined;
}

/** The field as the user wrote it: `tools.loopDetection.warningThreshold`, or the bare key. */
function fieldName(block: RawBlock, key: string): string {
  return block.where ? `${block.where}.${key}` : key;
}

/**
 * Resolves the effective config from blocks applied in order (looplens default, global, agent,
 * --set): a later block wins field by field. `--set` blocks must have been validated strictly by the
 * caller. An invalid value in a file falls back to the default, as the runtime does, with a notice.
 */
export function resolveConfig(blocks: readonly RawBlock[]): EffectiveConfig {
  const notices: ConfigNotice[] = [];
  const sources: Record<string, ValueSource> = {};
  const winners = new Map<string, Written>();

  const pick = <T>(key: string, fallback: T, accept: (v: unknown) => v is T, expected: string): T => {
    const written = blocks.flatMap((block): Written[] => {
      const value = writtenIn(block, key);
      return value === undefined ? [] : [{ value, block }];
    });
    const winner = written.at(-1);
    const invalid = ({ value, block }: Written, outcome: string) =>
      notices.push({ origin: block.origin, key: fieldName(block, key), message: `${fieldName(block, key)}: ${describeValue(value)} is not ${expected}; ${outcome}` });
    sources[key] = "default";
    if (winner === undefined) return fallback;
    // Invalid values that a later block overrides are still worth fixing.
    const overrider = winner.block.where ? fieldName(winner.block, key) : winner.block.origin;
    for (const earlier of written.slice(0, -1)) if (!accept(earlier.value)) invalid(earlier, `overridden by ${overrider}`);
    winners.set(key, winner);
    if (accept(winner.value)) {
      sources[key] = winner.block.source;
      return winner.value;
    }
    invalid(winner, `using the default ${String(fallback)}`);
    return fallback;
  };
  const isBool = (v: unknown): v is boolean => typeof v === "boolean";
  const num = (field: string, fallback: number) => pick(field, fallback, isPositiveInt, "a positive integer");

  const enabled = pick<boolean | undefined>("enabled", undefined, isBool, "true or false");
  const historySize = num("historySize", DEFAULT_CONFIG.historySize);
  const warningThreshold = num("warningThreshold", DEFAULT_CONFIG.warningThreshold);
  let criticalThreshold = num("criticalThreshold", DEFAULT_CONFIG.criticalThreshold);
  const unknownToolThreshold = num("unknownToolThreshold", DEFAULT_CONFIG.unknownToolThreshold);
  let globalCircuitBreakerThreshold = num("globalCircuitBreakerThreshold", DEFAULT_CONFIG.globalCircuitBreakerThreshold);
  const windowSize = num("postCompactionGuard.windowSize", DEFAULT_CONFIG.postCompactionGuard.windowSize);
  const detectors = Object.fromEntries(
    DETECTOR_FIELDS.map((f) => [f, pick(`detectors.${f}`, DEFAULT_CONFIG.detectors[f], isBool, "true or false")]),
  ) as Record<DetectorField, boolean>;

  // A clamp is blamed on the latest block that wrote one of the compared fields (the defaults are ordered),
  // and names the agent when that block is its override.
  const blame = (...keys: string[]): { origin: string; context: string } => {
    const latest = keys
      .map((k) => winners.get(k)?.block)
      .filter((b): b is RawBlock => b !== undefined)
      .sort((a, b) => blocks.indexOf(a) - blocks.indexOf(b))
      .at(-1);
    return { origin: latest?.origin ?? "defaults", context: latest?.agent !== undefined ? `agent ${latest.agent}: ` : "" };
  };
  /** Raises `value` to one above `below` when it is not above it, with a notice blaming `blameKeys`. */
  const raiseAbove = (key: string, value: number, belowKey: string, below: number, blameKeys: string[]): number => {
    if (value > below) return value;
    const adjusted = below + 1;
    const { origin, context } = blame(...blameKeys);
    notices.push({
      origin,
      key,
      adjustment: true,
      message: `${context}${key} ${value} is not above ${belowKey} ${below}; raised to ${adjusted}`,
    });
    sources[key] = "adjusted";
    return adjusted;
  };
  // Ordering is enforced after defaults, critical first, then the breaker against the new critical.
  criticalThreshold = raiseAbove("criticalThreshold", criticalThreshold, "warningThreshold", warningThreshold, ["warningThreshold", "criticalThreshold"]);
  globalCircuitBreakerThreshold = raiseAbove(
    "globalCircuitBreakerThreshold",
    globalCircuitBreakerThreshold,
    "criticalThreshold",
    criticalThreshold,
    ["warningThreshold", "criticalThreshold", "globalCircuitBreakerThreshold"],
  );

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

/** Flat view of a resolved config by dotted key (for reports and sweep grids). */
export function configEntries(config: ResolvedConfig): Array<[string, boolean | number | undefined]> {
  return [
    ["enabled", config.enabled],
    ...NUMERIC_FIELDS.map((f): [string, number] => [f, config[f]]),
    ...DETECTOR_FIELDS.map((f): [string, boolean] => [`detectors.${f}`, config.detectors[f]]),
    ["postCompactionGuard.windowSize", config.postCompactionGuard.windowSize],
  ];
}
