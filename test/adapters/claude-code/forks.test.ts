/**
 * A Claude Code session forked with `--fork-session` (or resumed into a new file): the new file
 * starts with the parent's entries copied under the new session id, with their uuids, timestamps
 * and messages. Read together (a folder scan), each executed call is replayed once and the copies
 * are counted as duplicates; read alone, the fork replays all its calls. `check` reads them as
 * analyze does: one fixture for the family.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expandUnits } from "../../../src/adapters/discovery.js";
import { Conversation, projectFolder, removeProjectFolders, writeConversation as write } from "../../helpers/claudeCodeConversation.js";
import { analyzePaths, totalCalls, verdicts } from "../../helpers/inProcess.js";
import { runMain } from "../../helpers/cli.js";

afterAll(removeProjectFolders);

const PARENT = "7b1d0c3e-1111-4a2b-9c3d-00000000aa01";
const FORK = "7b1d0c3e-2222-4a2b-9c3d-00000000bb02";

/** A parent that loops on `npm test` (12 identical calls) and then moves on, and a fork of its first run. */
function family() {
  const dir = projectFolder();
  const parent = new Conversation("7b1d0c3e").prompt("Make the tests pass");
  for (let i = 1; i <= 12; i++) parent.bash(`toolu_p${i}`, "npm test", "1 failing");
  const shared = parent.entries.length;
  parent.prompt("Now run the linter").bash("toolu_p13", "npm run lint", "ok");
  const fork = new Conversation("9c4e1f20").continueFrom(parent, shared).prompt("Try a different approach").bash("toolu_f1", "git diff", "");
  return { dir, parent: write(dir, PARENT, parent), fork: write(dir, FORK, fork) };
}

describe("Claude Code forks across files", () => {
  it("a scan groups a fork with its parent, parent first", async () => {
    const { dir, parent, fork } = family();
    expect(await expandUnits([dir])).toEqual([[parent, fork]]);
  });

  it("read together, every call is replayed once: the copies are duplicates, the loop is found once", async () => {
    const { dir, parent } = family();
    const analysis = await analyzePaths([dir]);
    expect(totalCalls(analysis)).toBe(14);
    // 1 prompt + 12 calls + 12 results copied into the fork
    expect(analysis.transcript).toEqual({ copies: 0, duplicates: 25, reconstructedCalls: 0 });
    expect(analysis.runs.map((run) => [run.session, run.calls])).toEqual([
      [PARENT, 12],
      [PARENT, 1],
      [FORK, 1],
    ]);
    // the parent's findings, and none in the fork (its copy of the loop is not replayed again)
    const alone = verdicts(await analyzePaths([parent]));
    expect(alone.map(([, , detector]) => detector)).toContain("generic_repeat");
    expect(verdicts(analysis)).toEqual(alone);
    expect(analysis.diagnostics.map((d) => d.reason)).toContain("25 entries of this session held by more than one of its files; each replayed once");
  });

  it("read alone, the fork replays all its calls (the copied loop included)", async () => {
    const { fork } = family();
    const analysis = await analyzePaths([fork]);
    expect(totalCalls(analysis)).toBe(13);
    expect(analysis.transcript.duplicates).toBe(0);
    expect(analysis.runs.map((run) => [run.session, run.calls])).toEqual([
      [FORK, 12],
      [FORK, 1],
    ]);
    expect(verdicts(analysis).map(([, , detector]) => detector)).toContain("generic_repeat");
  });

  it("sessions that only begin alike are not a family: another first call, or placeholder uuids", async () => {
    const { dir, parent } = family();
    // the parent's first entry (same uuid, timestamp, prompt), then a call of its own
    const sameStart = new Conversation("7b1d0c3e").prompt("Make the tests pass").bash("toolu_o1", "npm test", "1 failing");
    const other = write(dir, "7b1d0c3e-3333-4a2b-9c3d-00000000cc03", sameStart);
    // generated transcripts: the same placeholder uuid, timestamp, prompt and first call
    const placeholder = (session: string) => {
      const entries = [
        { type: "user", message: { role: "user", content: "next task" } },
        { type: "assistant", message: { id: "msg-1", role: "assistant", content: [{ type: "tool_use", id: "call-1", name: "Bash", input: { command: "ls" } }] } },
      ];
      const lines = entries.map((entry, i) => JSON.stringify({ parentUuid: i === 0 ? null : "u-1", isSidechain: false, sessionId: session, ...entry, uuid: `u-${i + 1}`, timestamp: "t1" }));
      const path = join(dir, `${session}.jsonl`);
      writeFileSync(path, lines.join("\n") + "\n");
      return path;
    };
    const generated = [placeholder("g-1"), placeholder("g-2")];
    const units = await expandUnits([dir]);
    for (const path of [other, ...generated]) expect(units).toContainEqual([path]);
    expect(units.find((unit) => unit.includes(parent))).toHaveLength(2);
  });

  it("a fork whose copy starts at a compaction is found by the boundary's uuid in its folder, and read after its parent even when it sorts first", async () => {
    const dir = projectFolder();
    const parent = new Conversation("7b1d0c3e").prompt("Make the tests pass");
    for (let i = 1; i <= 12; i++) parent.bash(`toolu_p${i}`, "npm test", "1 failing");
    const boundary = parent.entries.length;
    parent.compaction().prompt("Go on");
    for (let i = 1; i <= 12; i++) parent.bash(`toolu_q${i}`, "npm run build", "error TS2345");
    const fork = new Conversation("9c4e1f20").continueFrom(parent, parent.entries.length, boundary).prompt("Try a different approach").bash("toolu_f1", "git diff", "");
    // the fork's name sorts before the parent's
    const forkPath = write(dir, "0a000000-2222-4a2b-9c3d-00000000bb02", fork);
    const parentPath = write(dir, PARENT, parent);
    const other = write(dir, "7b1d0c3e-3333-4a2b-9c3d-00000000cc03", new Conversation("5e5e5e5e").prompt("Unrelated").bash("toolu_o1", "ls", "a"));
    expect(await expandUnits([dir])).toEqual([[parentPath, forkPath], [other]]);
    const analysis = await analyzePaths([forkPath, parentPath]);
    expect(totalCalls(analysis)).toBe(12 + 12 + 1);
    // boundary + prompt + 12 calls and 12 results copied (the compact summary is a quiet entry, not counted)
    expect(analysis.transcript.duplicates).toBe(26);
    expect(analysis.runs.filter((run) => run.session !== PARENT).map((run) => run.calls)).toEqual([1]);
    expect(verdicts(analysis)).toEqual(verdicts(await analyzePaths([parentPath])));
  });

  it("a fork whose head (64 lines) holds no call joins the files that begin with the same entry", async () => {
    const dir = projectFolder();
    const parent = new Conversation("7b1d0c3e").prompt("Plan first, then make the tests pass");
    for (let i = 0; i < 70; i++) parent.say(`Step ${i} of the plan`);
    for (let i = 1; i <= 12; i++) parent.bash(`toolu_p${i}`, "npm test", "1 failing");
    const fork = new Conversation("9c4e1f20").continueFrom(parent).prompt("Try a different approach").bash("toolu_f1", "git diff", "");
    // a session that begins with the same entry and never called a tool, and a fork of it that did
    const quiet = new Conversation("3f3f3f3f").prompt("Only talk");
    const quietFork = new Conversation("4a4a4a4a").continueFrom(quiet).prompt("Now act").bash("toolu_g1", "ls", "a");
    const paths = {
      parent: write(dir, PARENT, parent),
      fork: write(dir, FORK, fork),
      quiet: write(dir, "3f3f3f3f-1111-4a2b-9c3d-00000000dd04", quiet),
      quietFork: write(dir, "4a4a4a4a-1111-4a2b-9c3d-00000000ee05", quietFork),
    };
    expect(await expandUnits([dir])).toEqual([[paths.quiet, paths.quietFork], [paths.parent, paths.fork]]);
    const analysis = await analyzePaths([paths.parent, paths.fork]);
    expect(totalCalls(analysis)).toBe(13);
    expect(verdicts(analysis)).toEqual(verdicts(await analyzePaths([paths.parent])));
  });

  it("check reads a fork with its parent: one snapshot, beside the parent, each call once", async () => {
    const { dir, parent, fork } = family();
    const snapshot = (path: string) => JSON.parse(readFileSync(`${path}.looplens.json`, "utf8")) as { runs: Array<{ session: string; calls: number }> };
    expect((await runMain(["check", "--update", dir])).status).toBe(0);
    expect(snapshot(parent).runs.map((run) => [run.session, run.calls])).toEqual([
      [PARENT, 12],
      [PARENT, 1],
      [FORK, 1],
    ]);
    expect(existsSync(`${fork}.looplens.json`)).toBe(false);
    expect((await runMain(["check", dir])).status).toBe(0);
    // Named alone, the fork is a fixture of its own, read alone: the copied calls included.
    expect((await runMain(["check", "--update", fork])).status).toBe(0);
    expect(snapshot(fork).runs.map((run) => run.calls)).toEqual([12, 1]);
    // Checked with its parent again, that snapshot is not compared, and check says so.
    const again = await runMain(["check", dir]);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain(`looplens: note: ${fork} is checked with ${parent}, the session it was forked from`);
  });
});
