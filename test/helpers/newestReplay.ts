/**
 * Drives the newest profile's core directly: canonical event lines → EventPreparer (newest hashing)
 * → Replayer (newest engine), with the identity digest (injective, so equal hashes mean equal
 * serializations).
 */
import type { RawBlock, ResolvedConfig } from "../../src/core/config.js";
import type { ReplayedRun } from "../../src/core/findings.js";
import { EventPreparer } from "../../src/core/prepare.js";
import { resolveNewestConfig } from "../../src/core/profiles/newest/config.js";
import { createNewestHashing } from "../../src/core/profiles/newest/hashing.js";
import { Replayer } from "../../src/core/replay.js";
import type { EventLine } from "./events.js";
import { identityDigest, rows, toLoopEvents, type Row } from "./replay.js";

export const newestHashing = createNewestHashing(identityDigest);

/** The newest generation's config from one block (`enabled: true` unless `values` says otherwise). */
export function newestConfig(values: Record<string, unknown> = {}): ResolvedConfig {
  const block: RawBlock = { origin: "test", source: "global", values: { enabled: true, ...values } };
  return resolveNewestConfig([block]).config;
}

export function replayNewest(lines: readonly EventLine[], config: ResolvedConfig = newestConfig()): ReplayedRun[] {
  const preparer = new EventPreparer(newestHashing);
  const replayer = new Replayer(() => config, () => ({ profile: "newest", reason: "test" }));
  for (const event of toLoopEvents(lines)) {
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared);
  }
  return replayer.finish();
}

export function newestFindings(lines: readonly EventLine[], config?: ResolvedConfig): Row[] {
  return rows(replayNewest(lines, config).flatMap((run) => [...run.findings]));
}
