/**
 * Drives src/core directly (no CLI, no adapters): canonical event lines → EventPreparer → Replayer.
 * Unit tests use the identity digest: it is injective, so equal hashes mean equal serializations and
 * a failing assertion shows readable hashes. The sample integration test uses the real xxhash.
 */
import { resolveConfig, type ResolvedConfig } from "../../src/core/config.js";
import type { LoopEvent } from "../../src/core/events.js";
import type { Finding, ReplayedRun } from "../../src/core/findings.js";
import { createHashing, type Digest, type Hashing } from "../../src/core/hashing.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { Replayer, type ConfigForAgent } from "../../src/core/replay.js";
import type { EventLine } from "./events.js";

export const identityDigest: Digest = (text) => text;
export const hashing: Hashing = createHashing(identityDigest);

/** A resolved config with the rolling detectors on (looplens' own default) unless `values` says otherwise. */
export function configWith(values: Record<string, unknown> = {}): ResolvedConfig {
  return resolveConfig([{ origin: "test", source: "looplens", values: { enabled: true, ...values } }]).config;
}

/** Canonical event lines as the core sees them: each gets `file` and its 1-based `line`. */
export function toLoopEvents(lines: readonly EventLine[], file = "test.jsonl"): LoopEvent[] {
  return lines.map((line, i) => ({ file, line: i + 1, ...line }) as unknown as LoopEvent);
}

export interface Replayed {
  readonly runs: ReplayedRun[];
  /** Reasons of the events the preparer did not use (results that match no call). */
  readonly ignored: string[];
}

export function replayLines(
  lines: readonly EventLine[],
  config: ResolvedConfig | ConfigForAgent = configWith(),
  digest: Digest = identityDigest,
): Replayed {
  const preparer = new EventPreparer(createHashing(digest));
  const replayer = new Replayer(typeof config === "function" ? config : () => config);
  const ignored: string[] = [];
  for (const event of toLoopEvents(lines)) {
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared);
    else ignored.push(disposition.reason);
  }
  return { runs: replayer.finish(), ignored };
}

export type Row = [run: string, call: number, detector: string, level: string, count: number, afterStop: boolean];

export function rows(findings: readonly Finding[]): Row[] {
  // Replayed findings always have a run and a call (only live ones from Gateway logs lack them).
  return findings.map((f) => [f.run ?? "", f.call ?? 0, f.detector, f.level, f.count, f.afterStop]);
}

/** Every finding of every run, as compact rows. */
export function findingsOf(lines: readonly EventLine[], config?: ResolvedConfig | ConfigForAgent): Row[] {
  return rows(replayLines(lines, config).runs.flatMap((run) => [...run.findings]));
}

export const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
