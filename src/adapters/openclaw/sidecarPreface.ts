/**
 * The first pass over a session's trajectory sidecar when a unit holds it with its transcripts
 * (sidecarRuns.ts): made before the transcripts are read, since it names their runs, and handed to
 * both adapters through the unit's history (adapter.ts `UnitPreface`). Not tallied: the sidecar's
 * own reading, last, accounts for its lines. Not with another forced format.
 */
import type { InputFormat, UnitHistory } from "../adapter.js";
import { InputError } from "../io/lineSource.js";
import { describeReadError, fileSource } from "../io/sources.js";
import { sidecarOfTranscripts } from "./sessionFiles.js";
import { SidecarPairing } from "./sidecarRuns.js";
import { scanTrajectory } from "./trajectoryLines.js";

export const TRAJECTORY_FORMAT = "openclaw-trajectory";

export async function sidecarPreface(unit: readonly string[], forced: InputFormat | undefined): Promise<(() => SidecarPairing) | undefined> {
  const sidecar = sidecarOfTranscripts(unit);
  if (sidecar === undefined || (forced !== undefined && forced !== TRAJECTORY_FORMAT)) return undefined;
  let source;
  try {
    source = await fileSource(sidecar);
  } catch (error) {
    throw new InputError(describeReadError(sidecar, error));
  }
  try {
    const scan = await scanTrajectory(source, true);
    // A pairing for each reading of the unit (a ReadAgain starts it over), from the one pass.
    return () => new SidecarPairing(sidecar, scan);
  } finally {
    source.release?.();
  }
}

/** The unit's sidecar pairing, when its files are a session's transcripts read with their sidecar. */
export function sidecarOf(unit: UnitHistory): SidecarPairing | false {
  return unit.preface instanceof SidecarPairing ? unit.preface : false;
}
