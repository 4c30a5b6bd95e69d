/** The replay profiles by name (the one place that lists them). */
import { CONFIGURABLE_PROFILE } from "./configurable.js";
import { NEWEST_PROFILE } from "./newest/profile.js";
import type { ProfileName, ReplayProfile } from "./profile.js";

export const PROFILES: Readonly<Record<ProfileName, ReplayProfile>> = {
  configurable: CONFIGURABLE_PROFILE,
  newest: NEWEST_PROFILE,
};
