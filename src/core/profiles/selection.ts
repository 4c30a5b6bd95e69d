/**
 * The per-run profile choice as the pipeline uses it: the preparer hashes a run, and the replayer
 * replays it, under the same profile, both asking this one function of the run's recorded version.
 */
import type { Digest, Hashing } from "../hashing.js";
import type { HashingForRun } from "../prepare.js";
import type { ProfileForRun } from "../replay.js";
import { chooseProfile, type ProfileRequest } from "./choice.js";
import { PROFILES } from "./index.js";
import type { ProfileChoice, ProfileName } from "./profile.js";

const DEFAULT_CHOICE: ProfileChoice = Object.freeze({ profile: "configurable", reason: "default" });

export interface ProfileSelection {
  readonly hashingFor: HashingForRun;
  readonly profileFor: ProfileForRun;
}

/** `request` undefined: no `--profile` given, the default generation (reported as "default"). */
export function selectProfiles(request: ProfileRequest | undefined, digest: Digest): ProfileSelection {
  const hashings = new Map<ProfileName, Hashing>();
  // One choice object per recorded version, shared by the runs (a run report keeps it: one per run was ~50 bytes each).
  const choices = new Map<string | undefined, ProfileChoice>();
  const profileFor: ProfileForRun =
    request === undefined
      ? () => DEFAULT_CHOICE
      : (version) => {
          let choice = choices.get(version);
          if (!choice) choices.set(version, (choice = chooseProfile(request, version)));
          return choice;
        };
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
