/** The newest generation as a replay profile (generations.md): its hashing, config reading and run engine. */
import type { ProfileSession, ReplayProfile } from "../profile.js";
import { resolveNewestConfig } from "./config.js";
import { NewestRun } from "./engine.js";
import { createNewestHashing } from "./hashing.js";
import { NewestHistory } from "./history.js";
import { NEWEST_VERDICTS } from "./verdicts.js";

export const NEWEST_PROFILE: ReplayProfile = {
  name: "newest",
  createHashing: createNewestHashing,
  verdicts: NEWEST_VERDICTS,
  openSession(): ProfileSession {
    const history = new NewestHistory();
    return { startRun: (config, run) => new NewestRun(config, history, run) };
  },
  resolveConfig: resolveNewestConfig,
};
