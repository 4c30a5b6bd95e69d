/**
 * What model turns used (spec: cost.md §1), normalised across formats, and sums of it over many
 * turns.
 *
 * One turn's usage, `Usage`: every field optional, and a field the format did not record is ABSENT,
 * never 0 (a report says "not recorded" rather than printing a zero that was never written). The
 * token parts are disjoint, so that they add up to the total whatever the format:
 * - `input`: prompt tokens neither read from nor written to a cache (formats whose input count
 *   includes cached tokens — Codex, Gemini, OpenHands — have them subtracted by their adapter);
 * - `output`: generated tokens, reasoning/thinking included;
 * - `cacheRead`, `cacheWrite`: prompt tokens read from / written to the provider's cache;
 * - `total`: the total the format recorded, else the sum of the parts it recorded;
 * - `cost`: money, only when the format records it (OpenClaw: USD) — never estimated from a price
 *   table. `0` is a real zero (a local model), not "not recorded".
 *
 * Sums, `UsageSum`: `turns` counts every turn summed, whether or not it recorded anything (a model
 * response is a turn even when its usage is missing). Each field is the sum over the turns that
 * recorded it, and stays absent when none did. Turns that record cost and turns that do not can
 * meet in one sum (a session read from several builds, canonical events written by hand): the
 * sum is then of the recorded ones, and `tokenTurns` / `costTurns` count how many recorded tokens
 * (a `total`) and money, so a report can say "partly recorded" instead of passing a part for the
 * whole. (Token parts are not counted one by one: `total` is what reports show, and a turn that
 * records any part has one.)
 *
 * Arithmetic: token counts are integers and add exactly (far below 2^53). Money is added in the
 * order turns are given, as a naive left-to-right sum would, so that a sum equals the one a reader
 * computes from the same per-turn figures to the last bit; callers keep turn order (runCost.ts).
 */

/** The normalised fields, in the order they are written out (JSON, tables). */
export const USAGE_FIELDS = ["input", "output", "cacheRead", "cacheWrite", "total", "cost"] as const;
export type UsageField = (typeof USAGE_FIELDS)[number];
/** The token parts that add up to `total`. */
export const TOKEN_PARTS = ["input", "output", "cacheRead", "cacheWrite"] as const;

export type Usage = { readonly [F in UsageField]?: number };

export interface UsageSum extends Usage {
  /** Turns summed, each once, whatever they recorded. */
  readonly turns: number;
  /** Turns among them that recorded tokens (a `total`). */
  readonly tokenTurns: number;
  /** Turns among them that recorded money. */
  readonly costTurns: number;
}

export const EMPTY_SUM: UsageSum = Object.freeze({ turns: 0, tokenTurns: 0, costTurns: 0 });

/** A count a format records: a finite number ≥ 0; anything else is "not recorded". */
export function recordedNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The uncached prompt tokens, for formats whose prompt count includes the cached ones (`cached`:
 * the cache reads and writes it recorded). An inconsistent record (more cached than prompt) leaves
 * none rather than a negative count.
 */
export function uncachedInput(prompt: number | undefined, ...cached: Array<number | undefined>): number | undefined {
  if (prompt === undefined) return undefined;
  let rest = prompt;
  for (const count of cached) rest -= count ?? 0;
  return Math.max(0, rest);
}

/**
 * A turn's usage from the fields a format recorded (already mapped to the normalised names; values
 * that are not counts are dropped). `total` is filled from the parts when not recorded. Returns
 * `undefined` when nothing was recorded, so "no usage" has one representation.
 */
export function normaliseUsage(fields: { readonly [F in UsageField]?: unknown }): Usage | undefined {
  const usage: { -readonly [F in UsageField]?: number } = {};
  let parts: number | undefined;
  for (const field of TOKEN_PARTS) {
    const value = recordedNumber(fields[field]);
    if (value === undefined) continue;
    usage[field] = value;
    parts = (parts ?? 0) + value;
  }
  const total = recordedNumber(fields.total) ?? parts;
  if (total !== undefined) usage.total = total;
  const cost = recordedNumber(fields.cost);
  if (cost !== undefined) usage.cost = cost;
  return isEmpty(usage) ? undefined : usage;
}

/** True when nothing was recorded: no token field and no money (a sum's `turns` may still be > 0). */
export function isEmpty(usage: Usage): boolean {
  for (const field of USAGE_FIELDS) if (usage[field] !== undefined) return false;
  return true;
}

/** `sum` with one more turn; `usage` undefined: a turn that recorded nothing. */
export function addUsage(sum: UsageSum, usage: Usage | undefined): UsageSum {
  const next = new UsageTotals(sum);
  next.add(usage);
  return next.sum();
}

/** Two sums as one (their turns are distinct: a turn belongs to one run, one pattern row…). */
export function mergeSums(a: UsageSum, b: UsageSum): UsageSum {
  const next = new UsageTotals(a);
  next.merge(b);
  return next.sum();
}

/**
 * A sum being built, turn after turn, without an object per turn: what accumulators keep
 * (runCost.ts adds every turn of a 200,000-call run to several of them). `addUsage` is this, once.
 */
export class UsageTotals {
  private turns = 0;
  private tokenTurns = 0;
  private costTurns = 0;
  private readonly fields: { [F in UsageField]?: number } = {};

  constructor(from: UsageSum = EMPTY_SUM) {
    this.merge(from);
  }

  add(usage: Usage | undefined): void {
    this.turns++;
    if (usage === undefined) return;
    this.addFields(usage);
    if (usage.total !== undefined) this.tokenTurns++;
    if (usage.cost !== undefined) this.costTurns++;
  }

  merge(sum: UsageSum): void {
    this.turns += sum.turns;
    this.tokenTurns += sum.tokenTurns;
    this.costTurns += sum.costTurns;
    this.addFields(sum);
  }

  sum(): UsageSum {
    // Fields in USAGE_FIELDS order whatever order they were first recorded in.
    const out: { -readonly [K in keyof UsageSum]: UsageSum[K] } = { turns: this.turns, tokenTurns: this.tokenTurns, costTurns: this.costTurns };
    for (const field of USAGE_FIELDS) {
      const value = this.fields[field];
      if (value !== undefined) out[field] = value;
    }
    return out;
  }

  private addFields(usage: Usage): void {
    for (const field of USAGE_FIELDS) {
      const value = usage[field];
      if (value === undefined) continue;
      const held = this.fields[field];
      // An absent field plus a recorded one is the recorded one: absent is not 0.
      this.fields[field] = held === undefined ? value : held + value;
    }
  }
}

/**
 * A sum as machine outputs write it (`run.usage`, `run.usageOnFlagged`, `run.usageAfterStop` of
 * `--format json`): `{turns, input, output, cacheRead, cacheWrite, total, cost, turnsWithoutTokens,
 * turnsWithoutCost}` in that order — the count first, the token parts in the order a turn spends
 * them (prompt, completion, then the cache), their total, then money, then how complete the figures
 * are. Fields not recorded are absent. `turnsWithoutTokens` / `turnsWithoutCost` appear only when
 * the figure is partial (recorded by some of the turns, not all): absent figure, absent count.
 */
export function usageJson(sum: UsageSum): Record<string, number> {
  const out: Record<string, number> = { turns: sum.turns };
  for (const field of USAGE_FIELDS) {
    const value = sum[field];
    if (value !== undefined) out[field] = value;
  }
  if (sum.total !== undefined && sum.tokenTurns < sum.turns) out.turnsWithoutTokens = sum.turns - sum.tokenTurns;
  if (sum.cost !== undefined && sum.costTurns < sum.turns) out.turnsWithoutCost = sum.turns - sum.costTurns;
  return out;
}
