/**
 * A replay saved at any event and restored (in another process's worth of objects: encoded to bytes
 * and decoded) goes on exactly as the replay that never stopped: the same runs, findings, timelines
 * and usage, handed out at the same moments, under every profile.
 */
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../../../src/core/events.js";
import type { ReplayedRun } from "../../../src/core/findings.js";
import { EventPreparer } from "../../../src/core/prepare.js";
import type { ProfileRequest } from "../../../src/core/profiles/choice.js";
import { selectProfiles } from "../../../src/core/profiles/selection.js";
import { Replayer } from "../../../src/core/replay.js";
import { ReplayBindings, REPLAY_CLASSES } from "../../../src/pipeline/cache/resumeClasses.js";
import { decodeState, encodeState } from "../../../src/pipeline/cache/stateCodec.js";
import { canonicalText, prng, randomSessions } from "../../helpers/randomSessions.js";
import { configWith, identityDigest } from "../../helpers/replay.js";

function eventsOf(seed: number): LoopEvent[] {
  const text = randomSessions(seed, 3).map((session) => canonicalText(session)).join("");
  const lines = text.split("\n").filter((line) => line !== "");
  // Versions so that `auto` replays some runs as `newest`; turns with usage so that run costs are kept.
  return lines.map((line, i) => {
    const event = { file: "t.jsonl", line: i + 1, ...JSON.parse(line) } as Record<string, unknown>;
    if (event.type === "tool_call" && i % 3 === 0) event.turn = `t${i}`;
    if (event.type === "tool_call" && i % 6 === 0) event.usage = { input: i, output: 1 };
    if (event.type === "run_start") event.harnessVersion = i % 2 === 0 ? "2026.6.1" : "2026.3.0";
    return event as unknown as LoopEvent;
  });
}

interface Replay {
  readonly preparer: EventPreparer;
  readonly replayer: Replayer;
  readonly bindings: ReplayBindings;
}

function replayFrom(profile: ProfileRequest, settled: ReplayedRun[], saved?: { bytes: Buffer; names: string[] }): Replay {
  const profiles = selectProfiles(profile, identityDigest);
  const config = configWith();
  const configFor = () => config;
  const onSettled = (run: ReplayedRun) => void settled.push(run);
  const bindings = new ReplayBindings({ onSettled, profileFor: profiles.profileFor });
  const config2 = bindings.config(configFor);
  const hashing = bindings.hashing(profiles.hashingFor);
  bindings.bound.set(config2, "configFor");
  bindings.bound.set(hashing, "hashingFor");
  if (saved === undefined) {
    return { preparer: new EventPreparer(hashing), replayer: new Replayer(config2, profiles.profileFor, { timelines: true, onSettled }), bindings };
  }
  const values = bindings.rebind(saved.names, config2, hashing);
  const state = decodeState(saved.bytes, REPLAY_CLASSES, values) as { preparer: EventPreparer; replayer: Replayer };
  return { ...state, bindings };
}

function feed({ preparer, replayer }: Replay, events: readonly LoopEvent[]): void {
  for (const event of events) {
    const disposition = preparer.prepare(event);
    if (disposition.used) replayer.push(disposition.prepared, event);
  }
}

describe("a replay saved and restored", () => {
  for (const profile of ["configurable", "newest", "auto"] as const) {
    it(`goes on as if it never stopped (profile ${profile})`, () => {
      const random = prng(7);
      for (let seed = 1; seed <= 4; seed++) {
        const events = eventsOf(seed);
        const settled: ReplayedRun[] = [];
        const whole = replayFrom(profile, settled);
        feed(whole, events);
        const expected = JSON.stringify([settled, whole.replayer.finish()]);
        for (let tries = 0; tries < 6; tries++) {
          const cut = Math.floor(random() * (events.length + 1));
          const before: ReplayedRun[] = [];
          const first = replayFrom(profile, before);
          feed(first, events.slice(0, cut));
          const bytes = encodeState({ preparer: first.preparer, replayer: first.replayer }, REPLAY_CLASSES, first.bindings.bound);
          const after: ReplayedRun[] = [...before];
          const resumed = replayFrom(profile, after, { bytes, names: first.bindings.names });
          feed(resumed, events.slice(cut));
          const got = JSON.stringify([after, resumed.replayer.finish()]);
          expect(got, `seed ${seed}, cut at ${cut}`).toBe(expected);
        }
      }
    });
  }
});
