/**
 * What replay keeps for previews (preview.ts): references to the newest call and outcome of each
 * recent pattern of a run, never copies, and the preview made for the pattern last.
 */
import { findingPreview, type FindingPreview, type RawCall, type RawOutcome } from "./preview.js";

/** The newest call and outcome of one pattern (tool and args hash). */
export interface PatternRefs {
  call?: RawCall;
  outcome?: RawOutcome;
  /** The outcome's result hash: while it stays the same, so does the preview. */
  outcomeHash?: string;
  /** The preview last made for the pattern, and the outcome hash it was made with. */
  preview?: { readonly outcomeHash: string | undefined; readonly value: FindingPreview };
}

/**
 * The preview of a pattern's finding, made once per outcome: the many findings of one loop (a
 * verdict on every call past the threshold) share it. Same args hash, same arguments in all but
 * what hashing ignores (an `update_plan`'s wording).
 */
export function patternPreview(refs: PatternRefs, call: RawCall | undefined): FindingPreview {
  const cached = refs.preview;
  if (cached !== undefined && cached.outcomeHash === refs.outcomeHash) return cached.value;
  const value = findingPreview(call ?? refs.call, refs.outcome);
  refs.preview = { outcomeHash: refs.outcomeHash, value };
  return value;
}

/**
 * The newest call and outcome of each recent pattern of a run, as references. Bounded by two
 * generations of `limit` patterns: when the current one fills up it becomes the previous one and the
 * older is dropped, so each event costs one map look-up and the memory held stays small.
 */
export class RecentPatterns {
  /**
   * The current generation: its first pattern held in two fields, the others in a Map made for the
   * second. Every open run has a RecentPatterns, most runs repeat few patterns, and a Map is ~330
   * bytes with its table (a file of 300,000 runs that never end holds them all to its end).
   */
  private firstKey: string | undefined;
  private firstRefs: PatternRefs | undefined;
  private others: Map<string, PatternRefs> | undefined;
  /** The generation before the current one, and the unknown tools' outcomes, made when first needed. */
  private previous: Map<string, PatternRefs> | undefined;

  constructor(private readonly limit = 32) {}

  /** The pattern's refs, made (or carried over from the previous generation) if needed. */
  refs(argsHash: string): PatternRefs {
    let refs = this.current(argsHash);
    if (refs !== undefined) return refs;
    refs = this.previous?.get(argsHash) ?? {};
    if (this.currentSize() >= this.limit) this.startGeneration();
    if (this.firstKey === undefined) {
      this.firstKey = argsHash;
      this.firstRefs = refs;
    } else {
      (this.others ??= new Map()).set(argsHash, refs);
    }
    return refs;
  }

  /** The pattern's refs, if they are still held (without making them). */
  peek(argsHash: string): PatternRefs | undefined {
    return this.current(argsHash) ?? this.previous?.get(argsHash);
  }

  private current(argsHash: string): PatternRefs | undefined {
    return argsHash === this.firstKey ? this.firstRefs : this.others?.get(argsHash);
  }

  private currentSize(): number {
    return this.firstKey === undefined ? 0 : 1 + (this.others?.size ?? 0);
  }

  /** The current generation becomes the previous one (the older is dropped). */
  private startGeneration(): void {
    const previous = this.others ?? new Map<string, PatternRefs>();
    if (this.firstKey !== undefined) previous.set(this.firstKey, this.firstRefs!);
    this.previous = previous;
    this.firstKey = undefined;
    this.firstRefs = undefined;
    this.others = undefined;
  }

  /**
   * The newest "no such tool" outcome of each tool: an unknown-tool streak spans calls whose
   * arguments differ, so the pattern's own outcome may be missing. Only such outcomes are kept.
   */
  private unknownTools: Map<string, RawOutcome> | undefined;

  noteUnknownTool(tool: string, outcome: RawOutcome): void {
    const known = (this.unknownTools ??= new Map());
    if (known.size >= this.limit && !known.has(tool)) known.clear();
    known.set(tool, outcome);
  }

  unknownToolOutcome(tool: string): RawOutcome | undefined {
    return this.unknownTools?.get(tool);
  }
}
