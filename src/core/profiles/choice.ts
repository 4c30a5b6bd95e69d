/**
 * `--profile configurable|newest|auto`: which generation a run replays under, chosen once per run.
 * `auto` reads the OpenClaw build the input records (a trajectory's `trace.metadata.data.harness.version`,
 * carried to replay on the run's `run_start` event as `harnessVersion`).
 *
 * The version boundary. generations.md dates neither generation by release, so the boundary comes
 * from what the project knows about each side:
 * - the configurable generation is the one looplens was built and checked against, on real
 *   2026.4 and 2026.5 recordings (inputs.md cites real 2026.4 and 2026.5 transcripts, and the
 *   fixtures' trajectories are 2026.5 builds);
 * - the newest generation (tuning retired in #111382, write churn #122631, nonces #130261) is the
 *   one of builds after those: issue 14 names a 2026.8 build as one that decides differently.
 * Builds from 2026.6.0 on are therefore replayed as `newest`: the first release after the last
 * one whose recordings the configurable generation is known to match. Anything before, and any
 * version that does not parse, stays `configurable` (today's behaviour), with the reason said.
 */
import type { ProfileChoice, ProfileName } from "./profile.js";

export type ProfileRequest = ProfileName | "auto";
export const PROFILE_REQUESTS: readonly ProfileRequest[] = ["configurable", "newest", "auto"];

/** The first OpenClaw release replayed as `newest` under `--profile auto` (see above). */
export const NEWEST_FROM_VERSION: readonly [number, number, number] = [2026, 6, 0];
const BOUNDARY_TEXT = NEWEST_FROM_VERSION.join(".");

/** `2026.4.29`, `v2026.5.2-beta.1`: year, month, patch as numbers; undefined when it is no such version. */
export function parseHarnessVersion(text: string): [number, number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+.][0-9A-Za-z.+-]*)?$/.exec(text.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** The profile of one run: the one asked for, or under `auto` the one its recorded build runs. */
export function chooseProfile(request: ProfileRequest, harnessVersion: string | undefined): ProfileChoice {
  if (request !== "auto") return { profile: request, reason: `--profile ${request}` };
  if (harnessVersion === undefined) return { profile: "configurable", reason: "auto: the input records no OpenClaw version" };
  const version = parseHarnessVersion(harnessVersion);
  if (version === undefined) return { profile: "configurable", reason: `auto: OpenClaw version ${JSON.stringify(harnessVersion)} not understood` };
  return compareVersions(version, NEWEST_FROM_VERSION) >= 0
    ? { profile: "newest", reason: `auto: recorded by OpenClaw ${harnessVersion} (>= ${BOUNDARY_TEXT})` }
    : { profile: "configurable", reason: `auto: recorded by OpenClaw ${harnessVersion} (< ${BOUNDARY_TEXT})` };
}
