/**
 * `check --format json|ndjson` (the difference as data), `check --fail-on`, and snapshots written
 * before machine outputs said `critical` for a block (read as the same).
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { runMain } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

let dir: string;
const fixture = (name: string) => join(dir, name);

beforeEach(async () => {
  dir = tempDir("looplens-checkfmt-");
  for (const name of ["poll-loop.jsonl", "healthy.jsonl"]) cpSync(join(ROOT, "fixtures", name), fixture(name));
  expect((await runMain(["check", fixture("poll-loop.jsonl"), fixture("healthy.jsonl"), "--update"])).status).toBe(0);
});

interface FixtureLine {
  input: string;
  snapshot: string;
  status: string;
  changes?: { runs: { added: unknown[]; removed: unknown[] }; findings: { added: Array<Record<string, unknown>>; removed: Array<Record<string, unknown>> }; fields: Record<string, { before: unknown; after: unknown }> };
}

const lines = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line) as FixtureLine);

describe("check --format", () => {
  it("ndjson: one line per fixture with its status; exit 1 on a difference as with the table", async () => {
    const same = await runMain(["check", fixture("poll-loop.jsonl"), fixture("healthy.jsonl"), "-f", "ndjson"]);
    expect(same.status).toBe(0);
    expect(lines(same.stdout).map((l) => [l.input, l.status])).toEqual([[fixture("poll-loop.jsonl"), "unchanged"], [fixture("healthy.jsonl"), "unchanged"]]);
    writeFileSync(fixture("new.jsonl"), readFileSync(fixture("healthy.jsonl")));
    const missing = await runMain(["check", fixture("new.jsonl"), "-f", "ndjson"]);
    expect(missing.status).toBe(1);
    expect(lines(missing.stdout)).toEqual([{ input: fixture("new.jsonl"), snapshot: fixture("new.jsonl.looplens.json"), status: "missing" }]);
  });

  it("a changed fixture lists the findings added and removed and the fields that changed", async () => {
    const result = await runMain(["check", fixture("poll-loop.jsonl"), "-f", "ndjson", "--set", "criticalThreshold=15"]);
    expect(result.status).toBe(1);
    const [line] = lines(result.stdout);
    expect(line!.status).toBe("changed");
    const changes = line!.changes!;
    expect(changes.fields.config).toMatchObject({ before: { criticalThreshold: 20 }, after: { criticalThreshold: 15 } });
    expect(changes.findings.added.some((f) => f.level === "critical" && f.call === 16)).toBe(true);
    expect(changes.findings.removed.some((f) => f.level === "critical" && f.call === 21)).toBe(true);
    expect(changes.runs.removed).toEqual([expect.objectContaining({ run: "poll-1", firstStop: { kind: "critical", call: 21 } })]);
    expect(changes.runs.added).toEqual([expect.objectContaining({ run: "poll-1", firstStop: { kind: "critical", call: 16 } })]);
    // The table of the same check shows the same difference as a unified diff.
    const table = await runMain(["check", fixture("poll-loop.jsonl"), "--set", "criticalThreshold=15"]);
    expect(table.stdout).toContain('-    "criticalThreshold": 20,');
    expect(table.stdout).toContain('+    "criticalThreshold": 15,');
  });

  it("json: one document with the fixtures and the tally", async () => {
    const result = await runMain(["check", fixture("poll-loop.jsonl"), fixture("healthy.jsonl"), "-f", "json", "--set", "criticalThreshold=15"]);
    expect(result.status).toBe(1);
    const doc = JSON.parse(result.stdout) as { fixtures: FixtureLine[]; summary: Record<string, number> };
    expect(doc.fixtures.map((f) => f.status)).toEqual(["changed", "changed"]);
    expect(doc.summary).toEqual({ fixtures: 2, unchanged: 0, changed: 2, missing: 0, created: 0, updated: 0 });
  });
});

describe("check --fail-on", () => {
  it("exit 1 when a fixture's findings reach the level, even with every snapshot unchanged", async () => {
    expect((await runMain(["check", fixture("healthy.jsonl"), "--fail-on", "warning"])).status).toBe(0);
    const result = await runMain(["check", fixture("poll-loop.jsonl"), fixture("healthy.jsonl"), "--fail-on", "block"]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("2 unchanged, 0 changed, 0 missing");
    expect(result.stderr).toMatch(/^✖ \d+ findings at or above block in 1 run\n$/);
    expect((await runMain(["check", fixture("poll-loop.jsonl"), "--fail-on", "abort"])).status).toBe(0);
  });
});

describe("snapshots from before `critical`", () => {
  it("the committed fixture snapshots still say `block` and still pass", async () => {
    const committed = readFileSync(join(ROOT, "fixtures", "poll-loop.jsonl.looplens.json"), "utf8");
    expect(committed).toContain('"kind":"block"');
    expect((await runMain(["check", join(ROOT, "fixtures", "poll-loop.jsonl")])).status).toBe(0);
  });

  it("a snapshot naming a first stop `block` is read as the same; --update rewrites it", async () => {
    const path = fixture("poll-loop.jsonl.looplens.json");
    const current = readFileSync(path, "utf8");
    expect(current).toContain('"firstStop":{"kind":"critical","call":21}');
    writeFileSync(path, current.replace('"kind":"critical"', '"kind":"block"'));
    expect((await runMain(["check", fixture("poll-loop.jsonl")])).status).toBe(0);
    const update = await runMain(["check", fixture("poll-loop.jsonl"), "--update"]);
    expect(update.stdout).toContain("0 created, 1 updated, 0 unchanged");
    expect(readFileSync(path, "utf8")).toBe(current);
  });
});
