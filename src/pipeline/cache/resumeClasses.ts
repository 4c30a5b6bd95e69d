/**
 * The classes a replay's working state is made of (stateCodec.ts), and the process's values it
 * points at, bound by name: what a replay saved at a file's old end holds, so that it goes on with
 * the appended lines as if it had never stopped.
 *
 * A class that holds replay state and is missing here makes every state that holds one of its
 * objects unsavable (the file is then read in full: slower, never wrong), which is why a new class
 * of state shows itself in the resume tests rather than in a wrong report.
 */
import { LineTally, UnitHistory } from "../../adapters/adapter.js";
import { ADAPTERS } from "../../adapters/registry.js";
import { KeySet, IdSet } from "../../adapters/shared/keySets.js";
import { nameOf } from "../../adapters/shared/runFacts.js";
import type { ResolvedConfig } from "../../core/config.js";
import { ShelvedRuns } from "../../core/findingShelf.js";
import { FirstKept } from "../../core/firstKept.js";
import type { Hashing } from "../../core/hashing.js";
import { HistoryState, SessionHistory } from "../../core/history.js";
import { IntColumn } from "../../core/intColumn.js";
import { NONE } from "../../core/none.js";
import { PendingCalls, PendingCounts } from "../../core/pendingCalls.js";
import { PostCompactionGuard } from "../../core/postCompactionGuard.js";
import { EventPreparer, type HashingForRun } from "../../core/prepare.js";
import { ConfigurableRun, ConfigurableSession } from "../../core/profiles/configurable.js";
import { NewestRun } from "../../core/profiles/newest/engine.js";
import { NewestGuard } from "../../core/profiles/newest/guard.js";
import { NewestHistory } from "../../core/profiles/newest/history.js";
import { NewestSession } from "../../core/profiles/newest/profile.js";
import type { ProfileName } from "../../core/profiles/profile.js";
import { RecentPatterns } from "../../core/recentPatterns.js";
import { Replayer, type ConfigForAgent } from "../../core/replay.js";
import { NO_OPEN, PatternTotals, RunCostTally } from "../../core/runCost.js";
import { RunTurns } from "../../core/runTurns.js";
import { SessionHistories } from "../../core/sessionHistories.js";
import { SessionParking } from "../../core/sessionParking.js";
import { SettledQueue } from "../../core/settledQueue.js";
import { TimelineRecorder } from "../../core/timeline.js";
import { UsageTotals } from "../../core/usage.js";
import type { StateClasses } from "./stateCodec.js";
import { askKey } from "../askedAgents.js";

/**
 * Shared constants compared by identity, carried by name (stateCodec.ts refuses other frozen arrays):
 * restored as copies, NO_OPEN (copied on first write) would be one fresh array shared by every tally
 * of the state, written into by each. `nameOf`: the function a run writer's run identities name runs with.
 */
export const REPLAY_CONSTANTS: Readonly<Record<string, unknown>> = { NONE, NO_OPEN, nameOf };

export const REPLAY_CLASSES: StateClasses = {
  Replayer,
  // Its shelf bound by name; a run whose findings are on it holds a pipeline list the codec refuses, so no state is saved then.
  ShelvedRuns,
  EventPreparer,
  SettledQueue,
  SessionHistories,
  // Its store bound by name (pipeline/parkedSessions.ts); a replay that parked a session keeps no point.
  SessionParking,
  SessionHistory,
  HistoryState,
  TimelineRecorder,
  RunTurns,
  RunCostTally,
  PatternTotals,
  UsageTotals,
  RecentPatterns,
  PostCompactionGuard,
  ConfigurableRun,
  ConfigurableSession,
  NewestSession,
  NewestRun,
  NewestHistory,
  NewestGuard,
  PendingCalls,
  PendingCounts,
  IntColumn,
  FirstKept,
  LineTally,
  UnitHistory,
  // The state classes of the formats that resume (their adapters name them: adapter.ts `stateClasses`).
  ...Object.assign({}, ...ADAPTERS.map((adapter) => adapter.stateClasses)),
  KeySet,
  IdSet,
};

/**
 * The process's values a replay points at, named as they were asked for: configs by agent and
 * profile, hashings by the run version they were chosen for. Wrap the resolver and the hashing
 * choice a replay is given in `config` and `hashing`; `bound` is then what encoding needs, and
 * `restore` names today's values for decoding (asking the resolver again, in the order first asked).
 */
export class ReplayBindings {
  readonly bound = new Map<unknown, string>();
  private readonly asked: Array<{ readonly name: string; readonly ask: () => unknown }> = [];

  constructor(functions: Readonly<Record<string, unknown>>) {
    for (const [name, value] of Object.entries({ ...REPLAY_CONSTANTS, ...functions })) if (value !== undefined) this.bound.set(value, name);
  }

  config(configFor: ConfigForAgent): ConfigForAgent {
    return (agent, profile) => this.named(`config:${askKey(agent, profile)}`, () => configFor(agent, profile)) as ResolvedConfig;
  }

  hashing(hashingFor: HashingForRun): HashingForRun {
    return (version) => this.named(`hashing:${version === undefined ? "" : `=${version}`}`, () => hashingFor(version)) as Hashing;
  }

  private named(name: string, ask: () => unknown): unknown {
    const value = ask();
    if (typeof value === "object" && value !== null && !this.bound.has(value)) {
      this.bound.set(value, name);
      this.asked.push({ name, ask });
    }
    return value;
  }

  /** The names saved with a state, to be bound again on restore (`rebind`). */
  get names(): string[] {
    return this.asked.map(({ name }) => name);
  }

  /**
   * Today's values of the names a state was saved with, asked of `configFor` and `hashingFor` (this
   * object's wrappers, so that they are bound again for the next save) in the order first asked, and
   * every value bound so far. Throws on a name that is not one of ours.
   */
  rebind(names: readonly string[], configFor: ConfigForAgent, hashingFor: HashingForRun): Map<string, unknown> {
    for (const name of names) {
      if (name.startsWith("config:")) {
        const [profile, agent, isNull] = name.slice("config:".length).split("\u0000");
        configFor(isNull === "true" ? null : agent!, profile as ProfileName);
      } else if (name.startsWith("hashing:")) {
        const version = name.slice("hashing:".length);
        hashingFor(version === "" ? undefined : version.slice(1));
      } else throw new Error(`unknown binding ${name}`);
    }
    return this.values();
  }

  /** Every value bound so far, by name: what decoding a state saved through these bindings needs. */
  values(): Map<string, unknown> {
    const values = new Map<string, unknown>();
    for (const [value, name] of this.bound) values.set(name, value);
    return values;
  }
}
