/**
 * Argument churn (generations.md §6, OpenClaw tool-loop-argument-churn): a model cycling through a
 * few argument variants that all end the same way is as stuck as one repeating a call, but no
 * single signature repeats enough to be caught. Warning only: churn never blocks.
 *
 * (a) no-progress churn: the same tool's recent no-progress outcomes fall into ≥ 2 variants of ≥ 3
 *     calls each, all with one result, and the probe continues one of them.
 * (b) write-mutation churn (PR #122631): consecutive changing writes to one target, each a new body,
 *     with no verifying read in between, and the probe yet another new body.
 *
 * With `marks`, the records the churn counted are marked (detectorScans.ts).
 */
import type { Marks, ScannedRecord } from "../../detectorScans.js";

export type ArgumentChurn =
  | { readonly kind: "none" }
  | { readonly kind: "no-progress"; readonly count: number; readonly variants: number }
  | { readonly kind: "write-mutation"; readonly count: number; readonly variants: number };

export const NO_CHURN: ArgumentChurn = { kind: "none" };
/** Calls a variant needs to count as a stable pattern rather than a one-off. */
const STABLE_VARIANT_CALLS = 3;

export interface ChurnProbe {
  readonly tool: string;
  readonly argsHash: string;
  readonly mutationTarget?: string | undefined;
}

function noProgressChurn(history: readonly ScannedRecord[], probe: ChurnProbe, marks: Marks): ArgumentChurn {
  // Made on the first no-progress record: most calls (successes) never get that far.
  let variants: Map<string, { calls: number; resultHash: string }> | undefined;
  // Kept apart until the churn is known: when there is none, nothing was counted.
  const seen: Marks = marks && [];
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    if (record.tool !== probe.tool) break; // churn is a contiguous same-tool tail
    if (record.resultHash === undefined) continue; // pending calls and vetoes
    if (record.noProgress !== true) break;
    variants ??= new Map();
    const variant = variants.get(record.argsHash);
    if (variant === undefined) variants.set(record.argsHash, { calls: 1, resultHash: record.resultHash });
    else if (variant.resultHash !== record.resultHash) break;
    else variant.calls++;
    seen?.push(i);
  }
  if (variants === undefined) return NO_CHURN;
  let total = 0;
  let stableCalls = 0;
  const stable: Array<{ calls: number; resultHash: string }> = [];
  for (const variant of variants.values()) {
    total += variant.calls;
    if (variant.calls < STABLE_VARIANT_CALLS) continue;
    stable.push(variant);
    stableCalls += variant.calls;
  }
  const oneOutcome = stable.every((variant) => variant.resultHash === stable[0]?.resultHash);
  const continues = (variants.get(probe.argsHash)?.calls ?? 0) >= STABLE_VARIANT_CALLS;
  if (stable.length < 2 || stableCalls !== total || !oneOutcome || !continues) return NO_CHURN;
  if (marks) marks.push(...seen!);
  return { kind: "no-progress", count: total, variants: stable.length };
}

function writeMutationChurn(history: readonly ScannedRecord[], probe: ChurnProbe, marks: Marks): ArgumentChurn {
  if (probe.mutationTarget === undefined) return NO_CHURN;
  let bodies: string[] = []; // distinct args hashes, newest first
  const written: Marks = marks && []; // when marking: the record of each body
  for (let i = history.length - 1; i >= 0; i--) {
    const record = history[i]!;
    if (record.tool !== "write" || record.outcomeKind !== "write-mutation" || record.mutationTarget !== probe.mutationTarget) break;
    const seen = bodies.indexOf(record.argsHash);
    if (seen !== -1) {
      // A repeated body starts a new streak: only the variants since its newer occurrence count.
      bodies = bodies.slice(0, seen + 1);
      break;
    }
    bodies.push(record.argsHash);
    written?.push(i);
  }
  // Writing a body again is not churn.
  if (bodies.length === 0 || bodies.includes(probe.argsHash)) return NO_CHURN;
  if (marks) marks.push(...written!.slice(0, bodies.length));
  return { kind: "write-mutation", count: bodies.length, variants: bodies.length };
}

/** No-progress churn first; write-mutation churn only when there is none. */
export function argumentChurn(history: readonly ScannedRecord[], probe: ChurnProbe, marks?: Marks): ArgumentChurn {
  const churn = noProgressChurn(history, probe, marks);
  return churn.kind !== "none" ? churn : writeMutationChurn(history, probe, marks);
}

export const churnCount = (churn: ArgumentChurn): number => (churn.kind === "none" ? 0 : churn.count);
