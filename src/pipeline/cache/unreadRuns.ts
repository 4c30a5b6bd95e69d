/**
 * A unit's runs that a command left unread because the output it kept last time holds their text
 * (outputSplice.ts): only what the summary counts of them, from the unit's entry (analysisEntry.ts
 * `RunTotals`), as spilled runs are counted from their segments (summary.ts `addSpilled`).
 * They add up as spilled runs' counts do (countedRuns.ts): a unit's usage totals carry their cost
 * exactly, so the unit's sum added at once gives what adding its runs one by one gives.
 */
import { addCounted, type CountedRuns } from "../countedRuns.js";

export type UnreadRuns = CountedRuns;

/** Two units' unread runs together. */
export const addUnread = addCounted;
