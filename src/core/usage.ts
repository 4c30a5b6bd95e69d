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
  return usageOf(fields.input, fields.output, fields.cacheRead, fields.cacheWrite, fields.total, fields.cost);
}

/**
 * `normaliseUsage` with the fields as arguments: what an adapter calls once per model response.
 * Named fields written in one order, so that turns share a few shapes (a loop over field names
 * made every read and write a lookup by name, and cost a tenth of reading usage: bench --usage).
 */
export function usageOf(input: unknown, output: unknown, cacheRead: unknown, cacheWrite: unknown, total: unknown, cost: unknown): Usage | undefined {
  const usage: { -readonly [F in UsageField]?: number } = {};
  let parts: number | undefined;
  const i = recordedNumber(input);
  if (i !== undefined) parts = 0 + (usage.input = i);
  const o = recordedNumber(output);
  if (o !== undefined) parts = (parts ?? 0) + (usage.output = o);
  const r = recordedNumber(cacheRead);
  if (r !== undefined) parts = (parts ?? 0) + (usage.cacheRead = r);
  const w = recordedNumber(cacheWrite);
  if (w !== undefined) parts = (parts ?? 0) + (usage.cacheWrite = w);
  const t = recordedNumber(total) ?? parts;
  if (t !== undefined) usage.total = t;
  const c = recordedNumber(cost);
  if (c !== undefined) usage.cost = c;
  return t === undefined && c === undefined ? undefined : usage;
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
 * (runCost.ts adds every turn of a 200,000-call run to several of them, the summary every run).
 * Six plain number fields and a mask of which were recorded, not a map of field names: an add is
 * six named reads, where looping over the names cost a tenth of reading usage (bench --usage).
 * `addUsage` is this, once.
 */
export class UsageTotals {
  private turns = 0;
  private tokenTurns = 0;
  private costTurns = 0;
  /** Bit i set: `USAGE_FIELDS[i]` was recorded by a turn summed (absent is not 0). */
  private recorded = 0;
  private input = 0;
  private output = 0;
  private cacheRead = 0;
  private cacheWrite = 0;
  private total = 0;
  private cost = 0;

  constructor(from?: UsageSum) {
    if (from !== undefined) this.merge(from);
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
    const recorded = this.recorded;
    if (recorded === 0) return out;
    if (recorded & 1) out.input = this.input;
    if (recorded & 2) out.output = this.output;
    if (recorded & 4) out.cacheRead = this.cacheRead;
    if (recorded & 8) out.cacheWrite = this.cacheWrite;
    if (recorded & 16) out.total = this.total;
    if (recorded & 32) out.cost = this.cost;
    return out;
  }

  private addFields(usage: Usage): void {
    // An absent field plus a recorded one is the recorded one (absent is not 0; and `0 + -0` is not -0).
    const { input, output, cacheRead, cacheWrite, total, cost } = usage;
    const held = this.recorded;
    let recorded = held;
    if (input !== undefined) {
      this.input = held & 1 ? this.input + input : input;
      recorded |= 1;
    }
    if (output !== undefined) {
      this.output = held & 2 ? this.output + output : output;
      recorded |= 2;
    }
    if (cacheRead !== undefined) {
      this.cacheRead = held & 4 ? this.cacheRead + cacheRead : cacheRead;
      recorded |= 4;
    }
    if (cacheWrite !== undefined) {
      this.cacheWrite = held & 8 ? this.cacheWrite + cacheWrite : cacheWrite;
      recorded |= 8;
    }
    if (total !== undefined) {
      this.total = held & 16 ? this.total + total : total;
      recorded |= 16;
    }
    if (cost !== undefined) {
      this.cost = held & 32 ? this.cost + cost : cost;
      recorded |= 32;
    }
    this.recorded = recorded;
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
