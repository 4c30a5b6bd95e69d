/**
 * When a transcript user message was written, as the run naming of a transcript (runNaming.ts)
 * records it and a sidecar's runs are matched by it (sidecarRuns.ts).
 */
/** When a transcript user message was written: its `message.timestamp` as keys take it, and in ms. */
export interface UserTime {
  /** `message.timestamp` (transcriptCopies.ts `keyTime`): what a snapshot's copy of the message has too. */
  readonly key: number | string | undefined;
  /** `message.timestamp`, else the entry's `timestamp`, in epoch ms. */
  readonly ms: number | undefined;
}

/** The user time of a message from its `message.timestamp` and its entry's `timestamp` (as keys take them). */
export function userTime(messageTime: number | string | undefined, entryTime: number | string | undefined): UserTime {
  return { key: messageTime, ms: epochMs(messageTime) ?? epochMs(entryTime) };
}

/** A recorded time (epoch ms, or a date string) in epoch ms; undefined when it names no time. */
export function epochMs(time: number | string | undefined): number | undefined {
  if (time === undefined) return undefined;
  const ms = typeof time === "number" ? time : Date.parse(time);
  return Number.isFinite(ms) ? ms : undefined;
}
