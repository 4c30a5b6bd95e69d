/** Random normalised usage of one turn, as a format could record it: any field may be missing. */
import fc from "fast-check";
import { normaliseUsage, type Usage } from "../../src/core/usage.js";

const tokens = fc.option(fc.nat({ max: 2_000_000 }), { nil: undefined });
/** Money as formats record it: cents and fractions of a cent, and the real zero of a local model. */
const money = fc.option(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 20, noNaN: true }), fc.integer({ min: 0, max: 5000 }).map((c) => c / 10_000)), { nil: undefined });

export const usageArbitrary: fc.Arbitrary<Usage> = fc
  .record({ input: tokens, output: tokens, cacheRead: tokens, cacheWrite: tokens, total: tokens, cost: money })
  .map((fields) => normaliseUsage(fields) ?? { output: 0, total: 0 });
