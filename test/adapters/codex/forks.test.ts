/**
 * A forked Codex rollout (`session_meta.forked_from_id`) starts with the parent's items written
 * again (new line timestamps, same payloads), then its own turns. Read together, each executed call
 * is replayed once and the copied items are duplicates; read alone, the fork replays them all.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { expandUnits } from "../../../src/adapters/discovery.js";
import { inOpenClawSessionsFolder } from "../../../src/adapters/openclaw/identity.js";
import { analyzePaths, totalCalls, verdicts } from "../../helpers/inProcess.js";
import { RolloutBuilder, type CallSpec } from "./rolloutBuilder.js";
import { tempDir } from "../../helpers/tempDir.js";

const PARENT = "019fc8be-3658-7ca3-9e29-0000000000a1";
const FORK = "019fc8be-3658-7ca3-9e29-0000000000b2";

const shell = (id: string, command: string): CallSpec => ({ id, name: "shell", args: { command: ["bash", "-lc", command] } });

/** The lines of a rollout after its own session_meta. */
const body = (builder: RolloutBuilder) => builder.text().trimEnd().split("\n").slice(1);

/** The same line written again later: Codex stamps each line when it writes it. */
const rewritten = (line: string) => JSON.stringify({ ...JSON.parse(line), timestamp: "2026-01-02T05:00:00.000Z" });

/** A parent and its fork under `folders` (Codex's own layout by default); `instructions` goes into the fork's session_meta. */
function family(folders: readonly string[] = ["sessions", "2026", "01", "02"], instructions?: string) {
  const dir = join(tempDir("looplens-codex-fork-"), ...folders);
  mkdirSync(dir, { recursive: true });
  const parent = new RolloutBuilder(PARENT, "0.146").userTurn("make the tests pass");
  for (let i = 1; i <= 12; i++) parent.call(shell(`call_p${i}`, "npm test")).output(shell(`call_p${i}`, "npm test"), { text: "1 failing", exitCode: 1 });
  parent.endTurn();
  const parentLines = parent.text().trimEnd().split("\n");
  const forkMeta = { id: FORK, ...(instructions !== undefined ? { instructions } : {}), forked_from_id: PARENT, timestamp: "2026-01-02T05:00:00.000Z", cwd: "/tmp/w", originator: "codex_cli_rs", cli_version: "0.146.0", source: "cli" };
  const own = new RolloutBuilder(FORK, "0.146").userTurn("try another way").call(shell("call_f1", "git diff")).output(shell("call_f1", "git diff"), { text: "", exitCode: 0 }).endTurn();
  const forkLines = [JSON.stringify({ timestamp: "2026-01-02T05:00:00.000Z", type: "session_meta", payload: forkMeta }), ...parentLines.map(rewritten), ...body(own)];
  // later turns of the parent, after the fork was made
  parent.userTurn("now lint").call(shell("call_p13", "npm run lint")).output(shell("call_p13", "npm run lint"), { text: "ok", exitCode: 0 }).endTurn();
  const parentPath = join(dir, `rollout-2026-01-02T03-04-05-${PARENT}.jsonl`);
  const forkPath = join(dir, `rollout-2026-01-02T05-00-00-${FORK}.jsonl`);
  writeFileSync(parentPath, parent.text());
  writeFileSync(forkPath, forkLines.join("\n") + "\n");
  return { dir, parent: parentPath, fork: forkPath, copied: parentLines.length };
}

describe("Codex forks across files", () => {
  it("a scan groups a fork with the rollout it was forked from", async () => {
    const { dir, parent, fork } = family();
    expect(await expandUnits([dir])).toEqual([[parent, fork]]);
  });

  it("a fork whose file sorts before its parent's is read after it (forked_from_id names the parent)", async () => {
    const { dir, parent, fork } = family();
    const first = join(dir, `rollout-2026-01-01T00-00-00-${FORK}.jsonl`);
    (await import("node:fs")).renameSync(fork, first);
    expect(first < parent).toBe(true);
    expect(await expandUnits([dir])).toEqual([[parent, first]]);
    const analysis = await analyzePaths([dir]);
    expect(totalCalls(analysis)).toBe(14);
    expect(analysis.runs.map((run) => run.session)).toEqual([PARENT, PARENT, FORK]);
  });

  it("a session_meta longer than the first chunk of the head still groups the fork", async () => {
    const { dir, parent, fork } = family(undefined, "Rule: keep edits small — « précis ».\n".repeat(600));
    expect((await import("node:fs")).readFileSync(fork, "utf8").indexOf("\n")).toBeGreaterThan(20_000);
    expect(await expandUnits([dir])).toEqual([[parent, fork]]);
  });

  it("files directly in an OpenClaw agent's sessions/ folder are not opened for fork tags (no agent with forks writes there)", async () => {
    const { dir, parent, fork } = family(["agents", "main", "sessions"]);
    expect(inOpenClawSessionsFolder(parent)).toBe(true);
    expect(inOpenClawSessionsFolder(join("sessions", "2026", "01", "02", "rollout-x.jsonl"))).toBe(false);
    expect(inOpenClawSessionsFolder(join("agents", "main", "sessions", "2026", "rollout-x.jsonl"))).toBe(false);
    expect(await expandUnits([dir])).toEqual([[parent], [fork]]);
  });

  it("a path with `.` or `..` among its last folders is told as its resolved path", () => {
    for (const path of [["agents", "main", "sessions", "..", "sessions", "s.jsonl"], ["agents", "main", "x", "..", "sessions", "s.jsonl"], ["state", "agents", "main", "sessions", ".", "s.jsonl"], ["agents", "main", "sessions", "s.jsonl"]]) {
      expect(inOpenClawSessionsFolder(path.join(sep)), path.join("/")).toBe(true);
    }
    expect(inOpenClawSessionsFolder(["agents", "main", "sessions", "sub", "..", "..", "s.jsonl"].join(sep))).toBe(false);
  });

  it("read together, every call is replayed once: the copied items are duplicates", async () => {
    const { dir, parent, copied } = family();
    const analysis = await analyzePaths([dir]);
    expect(totalCalls(analysis)).toBe(14);
    expect(analysis.transcript.duplicates).toBe(copied);
    expect(analysis.transcript.copies).toBe(0);
    expect(analysis.runs.map((run) => [run.session, run.run, run.calls])).toEqual([
      [PARENT, RolloutBuilder.turnId(PARENT, 1), 12],
      [PARENT, RolloutBuilder.turnId(PARENT, 2), 1],
      [FORK, RolloutBuilder.turnId(FORK, 1), 1],
    ]);
    const alone = verdicts(await analyzePaths([parent]));
    expect(alone.length).toBeGreaterThan(0);
    expect(verdicts(analysis)).toEqual(alone);
  });

  it("read alone, the fork replays the parent's items it holds as its own", async () => {
    const { fork } = family();
    const analysis = await analyzePaths([fork]);
    expect(totalCalls(analysis)).toBe(13);
    expect(analysis.transcript.duplicates).toBe(0);
    expect(analysis.runs.every((run) => run.session === FORK)).toBe(true);
    expect(verdicts(analysis).length).toBeGreaterThan(0);
  });

  it("the copy ends at the first item the parent does not have: a later repeat of a parent item is the fork's own", async () => {
    const { dir, parent } = family();
    const lines = (await import("node:fs")).readFileSync(parent, "utf8").trimEnd().split("\n");
    const meta = { id: "019fc8be-3658-7ca3-9e29-0000000000c3", forked_from_id: PARENT, timestamp: "x", cwd: "/tmp/w", originator: "codex_cli_rs", cli_version: "0.146.0", source: "cli" };
    const again = new RolloutBuilder(meta.id, "0.146").userTurn("redo").call(shell("call_g1", "ls")).output(shell("call_g1", "ls"), { text: "a", exitCode: 0 }).endTurn();
    // two copied items, the fork's own turn, then a line equal to one of the parent's
    const path = join(dir, `rollout-2026-01-02T06-00-00-${meta.id}.jsonl`);
    writeFileSync(path, [JSON.stringify({ timestamp: "x", type: "session_meta", payload: meta }), lines[1], lines[2], ...body(again), lines[3]].join("\n") + "\n");
    const analysis = await analyzePaths([parent, path]);
    expect(analysis.transcript.duplicates).toBe(2);
    expect(analysis.runs.filter((run) => run.session === meta.id).map((run) => run.calls)).toEqual([1]);
  });

  it("a rollout copied under another name replays nothing again", async () => {
    const { dir, parent } = family();
    const copy = join(dir, `copy-of-rollout-${PARENT}.jsonl`);
    writeFileSync(copy, (await import("node:fs")).readFileSync(parent));
    const lines = (await import("node:fs")).readFileSync(parent, "utf8").trimEnd().split("\n").length;
    const together = await analyzePaths([parent, copy]);
    const alone = await analyzePaths([parent]);
    expect(together.runs.map((run) => [run.run, run.calls])).toEqual(alone.runs.map((run) => [run.run, run.calls]));
    expect(together.transcript.duplicates).toBe(lines - 1);
    expect(verdicts(together)).toEqual(verdicts(alone));
  });
});
