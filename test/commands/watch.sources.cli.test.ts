/**
 * `looplens watch` on the other places transcripts live: the SQLite store (a Gateway commits new rows
 * to its write-ahead log), the default state directory, and an agent's home (`--agent-home`).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { rowsOfTranscript, storeStates, walStore } from "../helpers/sqliteStoreBuilder.js";
import { isReady, jsonLines, killWatchChildren, startWatch, watchFolder } from "../helpers/watchChild.js";

afterEach(killWatchChildren);

const TRANSCRIPT = readFileSync("fixtures/openclaw/agents/main/sessions/7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51.jsonl", "utf8");
const PING_PONG = readFileSync("fixtures/ping-pong.jsonl", "utf8");
const findings = (lines: readonly string[]) => jsonLines(lines).filter((line) => line.type === undefined);

describe("watch: the SQLite transcript store", () => {
  it("new rows committed to the write-ahead log are read: the session's new findings, and a new session's", async () => {
    const state = watchFolder();
    const folder = join(state, "agents", "main", "agent");
    mkdirSync(folder, { recursive: true });
    const db = join(folder, "openclaw-agent.sqlite");
    const rows = rowsOfTranscript("s1", TRANSCRIPT);
    const cut = 20;
    const more = [...rows.slice(cut), ...rowsOfTranscript("s2", TRANSCRIPT).map((row) => ({ ...row, seq: row.seq + 1000 }))];
    const { earlier, later } = await storeStates({ rows: rows.slice(0, cut), windows: [["s1", "agent:main:main"], ["s2", "agent:main:main"]] }, more);
    const { db: file, wal } = walStore(earlier, later);
    writeFileSync(db, file);
    const watch = startWatch([join(state, "agents"), "-f", "ndjson"]);
    const ready = JSON.parse(await watch.waitFor(isReady));
    writeFileSync(`${db}-wal`, wal);
    await watch.waitUntil(() => findings(watch.lines).length + ready.findings === 24);
    const printed = findings(watch.lines);
    // What was printed plus what was read silently is what analyze reads in the final store.
    const final = runCli(["analyze", join(state, "agents"), "--format", "ndjson"]);
    expect(final.stdout.trim().split("\n")).toHaveLength(24);
    const expected = jsonLines(final.stdout.split("\n")).filter((finding) => Number(finding.line) > cut || finding.file === `${db}#s2`);
    const sorted = (list: ReadonlyArray<Record<string, unknown>>) => list.map((finding) => JSON.stringify(finding)).sort();
    expect(sorted(printed.map(({ observedAt: _, ...rest }) => rest))).toEqual(sorted(expected));
    expect(printed.some((finding) => finding.file === `${db}#s2`)).toBe(true);
  });
});

describe("watch: where it looks by default", () => {
  it("with no path, the OpenClaw state directory ($OPENCLAW_STATE_DIR), named on the first line", async () => {
    const state = watchFolder();
    mkdirSync(join(state, "agents", "main", "sessions"), { recursive: true });
    const watch = startWatch(["-f", "ndjson"], { OPENCLAW_STATE_DIR: state });
    await watch.waitFor(isReady);
    expect(watch.stderr()).toMatch(new RegExp(`watching ${state}: 0 files, 0 runs active in the last 10 min`));
    writeFileSync(join(state, "agents", "main", "sessions", "s1.jsonl"), PING_PONG);
    await watch.waitFor((line) => line.includes('"level":"critical"'));
  });

  it("--agent-home reads an agent's default folder, as analyze does", async () => {
    const home = watchFolder();
    const projects = join(home, ".claude", "projects", "-home-u-app");
    mkdirSync(projects, { recursive: true });
    const watch = startWatch(["-f", "ndjson", "--agent-home", "claude-code"], { HOME: home, CLAUDE_CONFIG_DIR: "" });
    await watch.waitFor(isReady);
    writeFileSync(join(projects, "0b5c3d2e.jsonl"), readFileSync("fixtures/agents/claude-code/loop-v2.0.jsonl"));
    await watch.waitUntil(() => findings(watch.lines).length === 12);
    expect(findings(watch.lines).every((finding) => finding.agent === "claude-code")).toBe(true);
  });
});
