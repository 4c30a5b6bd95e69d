/**
 * What the first pass over a trajectory (trajectoryLines.ts `scanTrajectory`) learns about the file
 * before any line is replayed, and, when the file is a sidecar read with its session's transcripts,
 * of its runs (gathered by sidecarRuns.ts `SidecarRunCollector`, used by its `SidecarPairing`).
 * Types only, so that the pass and the pairing both name them without importing each other.
 */
/** What the first pass learns about the file, before any line is replayed. */
export interface TrajectoryScan {
  /** The file has runtime tool events (so transcript tool events, and snapshots, are copies). */
  readonly runtimeTools: boolean;
  /** The file has transcript `tool.call`/`tool.result` events (an export bundle's copy of the session). */
  readonly transcriptTools: boolean;
  /** A runtime `model.completed` has a `messagesSnapshot` holding a tool call or a tool result. */
  readonly snapshotTools: boolean;
  /** The file has compaction events. */
  readonly compactions: boolean;
  /** Run names of the transcript events (segments of `user.message`), see runNaming.ts. */
  readonly names: Array<string | undefined>;
  /**
   * `trace.metadata.data.harness.version` (the OpenClaw build that wrote the file, e.g. `2026.4.29`),
   * from the first `trace.metadata` that has one: `--profile auto` picks the generation by it.
   */
  readonly harnessVersion: string | undefined;
  /** The first `sessionKey` of a runtime line: where the session's runs came in (sessionStore.ts `channelOf`). */
  readonly sessionKey: string | undefined;
  /** What names the runs of the transcripts read with the file (sidecarRuns.ts), when the scan was asked for it. */
  readonly runFacts: SidecarRunFacts | undefined;
}

/** What a sidecar's first pass learns of its runs, for the transcripts read with it. */
export interface SidecarRunFacts {
  /** Every runtime `prompt.submitted` with a runId, in file order, with its time. */
  readonly prompts: ReadonlyArray<{ readonly runId: string; readonly ms: number | undefined }>;
  /** A snapshot's user message `timestamp` → the run of the first snapshot that held it. */
  readonly userTimes: ReadonlyMap<number | string, string>;
  /** The first few call ids (sidecarRuns.ts EVIDENCE_CALLS) of each run (in its snapshots or tool events) → the run. */
  readonly evidence: ReadonlyMap<string, string>;
}
