/**
 * What a watch tells its reporters (src/reporters/watch*.ts), in the order it happens. Reporters
 * stamp the time they print at; nothing here is text yet.
 */
import type { InputFormat } from "../../adapters/adapter.js";
import type { Diagnostic, Finding, FindingLevel } from "../../core/findings.js";
import type { FindingRevised, RunNamed } from "./findingLedger.js";
import type { RunDigest } from "./unitFollower.js";

export type WatchEvent =
  /** The first event: what is watched, found before existing content is read. */
  | { readonly type: "watching"; readonly paths: readonly string[]; readonly files: number; readonly activeRuns: number; readonly mode: "inotify" | "polling"; readonly folders: number }
  /** Existing content was read: what follows is new (findings of existing content were printed before it with `--from-start`). */
  | { readonly type: "ready"; readonly files: number; readonly findings: number }
  | { readonly type: "finding"; readonly finding: Finding; readonly format: InputFormat | undefined }
  | ({ readonly type: "run_named" } & RunNamed)
  | ({ readonly type: "finding_revised" } & FindingRevised)
  /** A file with printed findings now has another name (the live transcript archived as `.reset.<ts>`). */
  | { readonly type: "file_renamed"; readonly from: string; readonly to: string }
  | { readonly type: "notice"; readonly text: string }
  | { readonly type: "diagnostic"; readonly diagnostic: Diagnostic };

export type WatchSink = (event: WatchEvent) => void;

/** Counts by level. */
export type LevelCounts = Record<FindingLevel, number>;

/** What the status line and the closing summary show. */
export interface WatchStats {
  readonly startedAt: number;
  readonly files: number;
  readonly units: number;
  readonly runs: number;
  /** Units written to in the last ACTIVE_MS (each has a run going on). */
  readonly activeRuns: number;
  readonly lastEvent: { readonly file: string; readonly at: number } | undefined;
  /** Findings seen (existing content included) and printed, by level. */
  readonly seen: LevelCounts;
  readonly printed: LevelCounts;
  readonly diagnostics: number;
  /** Runs with findings, for the worst-runs list. */
  readonly runsWithFindings: readonly RunDigest[];
  readonly mode: "inotify" | "polling";
}

/** "Active" runs: their session was written to this recently (watch.md: "active in the last 10 min"). */
export const ACTIVE_MS = 10 * 60_000;

export const noLevels = (): LevelCounts => ({ warning: 0, critical: 0, abort: 0 });
