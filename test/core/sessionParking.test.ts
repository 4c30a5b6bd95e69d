/**
 * A parked session's runs leave the replayer whole (core/sessionParking.ts): the store is handed
 * every open run's `RunState`, and the replayer goes on with what comes back, never with the object
 * it handed over. The store here copies what it is given with the resume codec (as the pipeline's
 * file does) and then spoils the originals: a replayer that kept a parked run's state in its map or
 * queue, or revived a run into the wrong state, reports the spoiled or stale values.
 */
import { describe, expect, it } from "vitest";
import { createHashing } from "../../src/core/hashing.js";
import { EventPreparer } from "../../src/core/prepare.js";
import type { ReplayedRun } from "../../src/core/findings.js";
import { Replayer, type ReplayOptions } from "../../src/core/replay.js";
import type { ParkedSession, SessionStore } from "../../src/core/sessionParking.js";
import { REPLAY_CLASSES, ReplayBindings } from "../../src/pipeline/cache/resumeClasses.js";
import { decodeState, encodeState } from "../../src/pipeline/cache/stateCodec.js";
import { call, result, textResult, type EventLine } from "../helpers/events.js";
import { prng } from "../helpers/randomSessions.js";
import { configWith, identityDigest, toLoopEvents } from "../helpers/replay.js";

class SpoilingStore implements SessionStore {
  private readonly kept = new Map<string, Buffer>();
  /** Each parked run's session key. */
  private readonly runs = new Map<string, string>();
  put(id: string, sessionLess: boolean, session: ParkedSession): boolean {
    this.kept.set(`${sessionLess}:${id}`, encodeState(session, REPLAY_CLASSES, this.bindings.bound));
    for (const { state } of session.runs) this.runs.set(state.run, `${sessionLess}:${id}`);
    for (const { state } of session.runs) Object.assign(state, { calls: -1, agent: "spoiled", findings: [], recordedVetoes: -1 });
    this.puts++;
    return true;
  }
  has(id: string, sessionLess: boolean): boolean {
    return this.kept.has(`${sessionLess}:${id}`);
  }
  take(id: string, sessionLess: boolean): ParkedSession {
    return this.takeKey(`${sessionLess}:${id}`);
  }
  takeRun(run: string): ParkedSession | undefined {
    const key = this.runs.get(run);
    return key === undefined ? undefined : this.takeKey(key);
  }
  private takeKey(key: string): ParkedSession {
    const bytes = this.kept.get(key)!;
    this.kept.delete(key);
    const session = decodeState(bytes, REPLAY_CLASSES, this.bindings.values()) as ParkedSession;
    for (const { state } of session.runs) this.runs.delete(state.run);
    return session;
  }
  puts = 0;
  constructor(private readonly bindings: ReplayBindings) {}
}

/** Runs of a few sessions (and session-less ones) interleaved, looping so that they have findings; few end, some reopen. */
function interleaved(seed: number): EventLine[] {
  const random = prng(seed);
  const lines: EventLine[] = [];
  for (let i = 0; i < 600; i++) {
    const n = Math.floor(random() * 12);
    const run = `r${n}`;
    const identity = n % 4 === 3 ? {} : { session: `s${n % 5}`, agent: "main" };
    const id = `c${i}`;
    const args = { path: `/f${Math.floor(random() * 2)}` };
    lines.push(call(run, id, "read", args, identity), result(run, id, "read", textResult(`same ${args.path}`), identity));
    if (random() < 0.03) lines.push({ type: "run_end", run, ...identity });
  }
  return lines;
}

function replay(lines: readonly EventLine[], parking?: (bindings: ReplayBindings) => ReplayOptions["parking"]): ReplayedRun[] {
  const bindings = new ReplayBindings({});
  const config = configWith();
  const preparer = new EventPreparer(createHashing(identityDigest));
  const replayer = new Replayer(bindings.config(() => config), undefined, { timelines: true, ...(parking && { parking: parking(bindings) }) });
  for (const event of toLoopEvents(lines)) {
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared, event);
  }
  return [...replayer.finishEach()];
}

describe("session parking", () => {
  it("hands over every open run's state whole and goes on with what comes back", () => {
    for (let seed = 1; seed <= 4; seed++) {
      const lines = interleaved(seed);
      let store: SpoilingStore | undefined;
      const parked = replay(lines, (bindings) => ({ resident: 1, store: (store = new SpoilingStore(bindings)) }));
      expect(store!.puts, `seed ${seed}: parked`).toBeGreaterThan(10);
      const held = replay(lines);
      expect(held.some((run) => run.findings.length > 0)).toBe(true);
      expect(JSON.stringify(parked), `seed ${seed}`).toBe(JSON.stringify(held));
    }
  });
});
