/**
 * Sessions parked out of memory (core/sessionParking.ts, pipeline/parkedSessions.ts) come back as
 * they left: over random canonical event files whose runs interleave and mostly never end (with
 * findings and their previews, compactions, usage, session-less runs, several open runs a session),
 * every format with two sessions held at most is the output with parking off, and sessions were
 * parked. A replay that parked keeps no resume point, and the grown file is then read in full, right.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resumedUnits } from "../../src/pipeline/cache/resumeUnit.js";
import { ReplayBindings } from "../../src/pipeline/cache/resumeClasses.js";
import { ParkedSessionFile, sessionsParked } from "../../src/pipeline/parkedSessions.js";
import { runMain } from "../helpers/cli.js";
import { canonicalText, prng, randomSessions } from "../helpers/randomSessions.js";
import { tempDir } from "../helpers/tempDir.js";
import { FORMATS } from "./cache/cacheBench.js";

/** Two sessions held at most: every other one is parked as soon as another is touched. */
const PARKING = { LOOPLENS_RESIDENT_SESSIONS: "2" };
const NO_PARKING = { LOOPLENS_RESIDENT_SESSIONS: "1000000" };

/**
 * Random sessions' events, their runs cut into parts (two parts of a session may be open at once),
 * one session in three without a session id (its runs have a history each), interleaved a few lines
 * at a time, with compactions here and there and few run ends (most runs never end).
 */
function interleavedEvents(seed: number): string {
  const random = prng(seed);
  const streams = randomSessions(seed, 7).map((session, s) => {
    let part = 0;
    return canonicalText(session)
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => {
        const event = JSON.parse(line) as Record<string, unknown>;
        if (event.type === "tool_call" && random() < 0.1) part = (part + 1) % 3;
        event.run = `${String(event.run)}/${part}`;
        if (s % 3 === 2) delete event.session;
        if (event.type === "tool_call" && random() < 0.25) Object.assign(event, { turn: `t${s}-${part}`, usage: { input: 10 + s, output: 3 } });
        return event;
      });
  });
  const lines: string[] = [];
  while (streams.some((stream) => stream.length > 0)) {
    const stream = streams[Math.floor(random() * streams.length)]!;
    for (let n = 1 + Math.floor(random() * 3); n > 0 && stream.length > 0; n--) {
      const event = stream.shift()!;
      lines.push(JSON.stringify(event));
      if (random() < 0.04) lines.push(JSON.stringify({ type: "compaction", run: event.run, ...(event.session !== undefined && { session: event.session }) }));
      if (random() < 0.02) lines.push(JSON.stringify({ type: "run_end", run: event.run, ...(event.session !== undefined && { session: event.session }) }));
    }
  }
  return lines.join("\n") + "\n";
}

const analyze = (args: readonly string[], env: NodeJS.ProcessEnv) => runMain(["analyze", "--all", ...args], { env: { LOOPLENS_WORKERS: "0", ...env } });

describe("sessions parked out of memory", () => {
  it("give every format as with parking off, over random files of runs that never end", async () => {
    const dir = tempDir("looplens-parking-");
    for (let seed = 1; seed <= 3; seed++) {
      const file = join(dir, `events-${seed}.jsonl`);
      writeFileSync(file, interleavedEvents(seed));
      for (const [format, extra] of [...FORMATS.map((format) => [format, []] as const), ["json", ["--profile", "newest"]] as const]) {
        const args = ["-f", format, ...extra, file, "--no-cache"];
        const before = sessionsParked();
        const parked = await analyze(args, PARKING);
        expect(sessionsParked(), `seed ${seed} -f ${format} ${extra.join(" ")}: parked`).toBeGreaterThan(before);
        const held = await analyze(args, NO_PARKING);
        expect(parked.stdout, `seed ${seed} -f ${format} ${extra.join(" ")}`).toBe(held.stdout);
        expect(parked.stderr, `seed ${seed} -f ${format} ${extra.join(" ")} (stderr)`).toBe(held.stderr);
        expect(parked.status).toBe(held.status);
      }
    }
    // Sixty analyses: on a loaded shared machine they outlast the default timeout.
  }, 300_000);

  it("keep a session and a session-less run of the same id apart", async () => {
    // Session "x" and the session-less run "x" are parked under the same id, in two indexes: one
    // index would revive one into the other's runs.
    const streams = [
      { run: "a", session: "x", tool: "read" },
      { run: "x", tool: "exec" },
      { run: "b", session: "y", tool: "read" },
      { run: "c", session: "z", tool: "grep" },
    ];
    const lines: string[] = [];
    for (let call = 0; call < 14; call++) {
      for (const { tool, ...identity } of streams) {
        lines.push(JSON.stringify({ type: "tool_call", ...identity, id: `${call}`, tool, args: { path: `/same-${identity.run}` } }));
        lines.push(JSON.stringify({ type: "tool_result", ...identity, id: `${call}`, tool, result: { content: [{ type: "text", text: `same ${identity.run}` }] } }));
      }
    }
    const file = join(tempDir("looplens-parking-"), "events.jsonl");
    writeFileSync(file, lines.join("\n") + "\n");
    const before = sessionsParked();
    const parked = await analyze(["-f", "json", file, "--no-cache"], PARKING);
    expect(sessionsParked()).toBeGreaterThan(before);
    const held = await analyze(["-f", "json", file, "--no-cache"], NO_PARKING);
    expect(parked.stdout).toBe(held.stdout);
    expect(parked.stdout).toContain('"x"');
  });

  it("keep no resume point, and the grown file is read in full", async () => {
    // No run end: an event of a run ended as final has the file read again (and then no point is kept).
    const lines = interleavedEvents(4).split("\n").filter((line) => line !== "" && !line.includes('"run_end"'));
    // Held, the same growth resumes (the check that tells parking apart).
    for (const [env, resumes] of [[NO_PARKING, true], [PARKING, false]] as const) {
      const dir = tempDir("looplens-parking-");
      const file = join(dir, "events.jsonl");
      const cache = { LOOPLENS_CACHE_DIR: join(dir, "cache"), LOOPLENS_CACHE_RESUME_MIN_BYTES: "0", ...env };
      writeFileSync(file, lines.slice(0, 200).join("\n") + "\n");
      await analyze(["-f", "json", file], cache);
      appendFileSync(file, lines.slice(200).join("\n") + "\n");
      const before = resumedUnits();
      const grown = await analyze(["-f", "json", file], cache);
      expect(resumedUnits() > before, `resumed (${env.LOOPLENS_RESIDENT_SESSIONS} sessions held)`).toBe(resumes);
      expect(grown.stdout).toBe((await analyze(["-f", "json", file, "--no-cache"], NO_PARKING)).stdout);
    }
  });

  it("come back from the file as they went in, across its write and read buffers and past their size", () => {
    // The file copies sessions into one 1 MB buffer and reads through another: sessions that cross
    // its end, one larger than it (written and read on its own), taken back in another order.
    const store = new ParkedSessionFile(tempDir("looplens-parking-"), new ReplayBindings({}));
    const random = prng(9);
    const sizes = [...Array.from({ length: 40 }, () => 1 + Math.floor(random() * 90_000)), 2_500_000, 70_000, 5];
    const sessions = sizes.map((size, i) => ({ history: { text: `${i}:`.padEnd(size, String.fromCharCode(97 + (i % 26))) }, runs: [] }));
    const put = (i: number) => expect(store.put(`s${i}`, i % 7 === 3, sessions[i] as never)).toBe(true);
    const take = (i: number) => {
      expect(store.has(`s${i}`, i % 7 === 3)).toBe(true);
      expect(store.take(`s${i}`, i % 7 === 3), `session ${i} (${sizes[i]} bytes)`).toEqual(sessions[i]);
      expect(store.has(`s${i}`, i % 7 === 3)).toBe(false);
    };
    // Half put, the newest taken (a read at the file's end), more put after it and the next taken (past
    // what that read found), then the rest in another order.
    for (let i = 0; i < 20; i++) put(i);
    take(19);
    for (let i = 20; i < sessions.length; i++) put(i);
    take(20);
    for (const i of sessions.map((_, i) => i).sort((a, b) => ((a * 17) % 43) - ((b * 17) % 43))) if (i !== 19 && i !== 20) take(i);
    store.close();
  });

  // The file finds sessions and runs by a hash of their ids (core/idIndex.ts) and confirms a hit by
  // the ids a record names: with every id hashing alike, each must still come back whole and alone.
  for (const [name, hash] of [["their ids' hashes", undefined], ["ids that all hash alike", () => 7]] as const) {
    it(`give each parked run back with its own session, by ${name}`, () => {
      const store = new ParkedSessionFile(tempDir("looplens-parking-"), new ReplayBindings({}), hash);
      const random = prng(11);
      // Session "k" and the session-less run "k" (its own key) are apart; runs of one session come back together.
      const sessions = Array.from({ length: 300 }, (_, i) => {
        const sessionLess = i % 5 === 2;
        const key = i === 8 || i === 12 ? "k" : `s${i}`;
        const runs = sessionLess ? [key] : Array.from({ length: 1 + (i % 3) }, (_, r) => `s${i}-r${r}`);
        return { key, sessionLess, parked: { history: { n: i }, runs: runs.map((run) => ({ state: { run, session: sessionLess ? null : key }, recorder: undefined })) } };
      });
      const held = new Set<number>();
      const put = (i: number) => {
        expect(store.put(sessions[i]!.key, sessions[i]!.sessionLess, sessions[i]!.parked as never)).toBe(true);
        held.add(i);
      };
      sessions.forEach((_, i) => i < 200 && put(i));
      expect(store.takeRun("nobody")).toBeUndefined();
      expect(store.has("nobody", false)).toBe(false);
      // Taken back at random, by a run (any of the session's) or by the session's key, with more parked
      // meanwhile and some parked again.
      for (let round = 0; held.size > 0; round++) {
        const i = [...held][Math.floor(random() * held.size)]!;
        const { key, sessionLess, parked } = sessions[i]!;
        const run = parked.runs[Math.floor(random() * parked.runs.length)]!.state.run;
        const back = random() < 0.5 ? store.takeRun(run) : store.take(key, sessionLess);
        expect(back, `session ${i}`).toEqual(parked);
        held.delete(i);
        expect(store.takeRun(run), `run ${run} of session ${i}, taken`).toBeUndefined();
        if (round % 4 === 0 && i % 5 !== 2) put(i);
        if (round < 100) put(200 + round);
      }
      store.close();
    });
  }
});
