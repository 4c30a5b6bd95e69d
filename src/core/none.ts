/**
 * The empty list shared by whatever has nothing to hold (runs without findings or guard windows, in
 * replay, the spill file and live runs): frozen, so no holder can add to another's.
 */
export const NONE: readonly never[] = Object.freeze([]);
