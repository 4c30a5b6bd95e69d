/** The newest generation as a replay profile (generations.md): its hashing, config reading and run engine. */
import type { ResolvedConfig } from "../../config.js";
import type { ProfileSession, ReplayProfile, RunEngine } from "../profile.js";
import { resolveNewestConfig } from "./config.js";
import { NewestRun } from "./engine.js";
import { createNewestHashing } from "./hashing.js";
import { NewestHistory } from "./history.js";
import { NEWEST_VERDICTS } from "./verdicts.js";

/** A session of this profile: a class, not a closure, so that a replay's state can be saved (resuming a grown file). */
export class NewestSession implements ProfileSession {
  constructor(private readonly history: NewestHistory) {}

  startRun(config: ResolvedConfig, run: string): RunEngine {
    return new NewestRun(config, this.history, run);
  }
}

export const NEWEST_PROFILE: ReplayProfile = {
  name: "newest",
  createHashing: createNewestHashing,
  verdicts: NEWEST_VERDICTS,
  openSession(): ProfileSession {
    return new NewestSession(new NewestHistory());
  },
  resolveConfig: resolveNewestConfig,
};
