/**
 * The units of a command split by the cache: those whose results it held (read on the main thread,
 * before any unit is handed out, so that a warm run starts no worker and replays nothing) and those
 * left to analyse, in input order; the fresh results are put back in their places afterwards.
 */
import type { InputUnit } from "../../adapters/discovery.js";

export class KnownUnits<R> {
  private constructor(
    private readonly results: Array<R | undefined>,
    /** Indexes (into the input's units) of the units the cache did not hold, in input order. */
    readonly missing: readonly number[],
    /** Those units. */
    readonly missingUnits: readonly InputUnit[],
  ) {}

  /** Looks every unit up (`lookup`: its result, or undefined to analyse it), in input order. */
  static look<R>(units: readonly InputUnit[], lookup: (unit: InputUnit) => R | undefined): KnownUnits<R> {
    const results = units.map(lookup);
    const missing = results.flatMap((result, i) => (result === undefined ? [i] : []));
    return new KnownUnits(results, missing, missing.map((i) => units[i]!));
  }

  /** The held results with their input indexes, in input order. */
  *held(): Generator<[number, R]> {
    for (const [i, result] of this.results.entries()) if (result !== undefined) yield [i, result];
  }

  /** Every unit's result in input order, `fresh` being those of `missing`, in its order. */
  fill(fresh: readonly R[]): R[] {
    const all = [...this.results];
    this.missing.forEach((index, i) => (all[index] = fresh[i]));
    return all as R[];
  }
}
