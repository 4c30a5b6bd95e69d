/**
 * The per-run profile choice as the pipeline uses it: the preparer hashes a run, and the replayer
 * replays it, under the same profile, both asking this one function of the run's recorded version.
 */
import type { Digest, Hashing } from "../hashing.js";
import type { HashingForRun } from "../prepare.js";
import type { ProfileForRun } from "../replay.js";
import { chooseProfile, type ProfileRequest } from "./choice.js";
import { PROFILES } from "./index.js";
import type { ProfileName } from "./profile.js";

export interface ProfileSelection {
  readonly hashingFor: HashingForRun;
  readonly profileFor: ProfileForRun;
}

/** `request` undefined: no `--profile` given, the default generation (reported as "default"). */
export function selectProfiles(request: ProfileRequest | undefined, digest: Digest): ProfileSelection {
  const hashings = new Map<ProfileName, Hashing>();
  const profileFor: ProfileForRun =
    request === undefined ? () => ({ profile: "configurable", reason: "default" }) : (version) => chooseProfile(request, version);
  return {
    profileFor,
    hashingFor(version) {
      const name = profileFor(version).profile;
      let hashing = hashings.get(name);
      if (!hashing) {
        hashing = PROFILES[name].createHashing(digest);
        hashings.set(name, hashing);
      }
      return hashing;
    },
  };
}
