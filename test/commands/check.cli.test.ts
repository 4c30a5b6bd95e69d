/** `looplens check` through the real CLI: snapshot round trips, diffs, and every exit status. */
import { cpSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

let dir: string;
const snap = (name: string) => join(dir, `${name}.looplens.json`);
const check = (...args: string[]) => runCli(["check", ...args], { cwd: dir });

beforeEach(() => {
  dir = tempDir("looplens-check-");
  for (const name of ["poll-loop.jsonl", "healthy.jsonl"]) cpSync(join(ROOT, "fixtures", name), join(dir, name));
});

describe("check", () => {
  it("the bundled fixtures match their committed snapshots", () => {
    const names = ["compaction-loop", "generic-repeat", "healthy", "ping-pong", "poll-loop", "unknown-tool"].map((n) => `fixtures/${n}.jsonl`);
    const result = runCli(["check", ...names]);
    expect(result.stdout).toContain("check: 6 fixtures: 6 unchanged, 0 changed, 0 missing");
    expect(result.status).toBe(0);
  });

  it("missing snapshots are a difference (exit 1); --update creates them; then check passes (exit 0)", () => {
    const missing = check(".");
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain("✗ poll-loop.jsonl: no snapshot poll-loop.jsonl.looplens.json (looplens check --update creates it)");
    expect(missing.stdout).toContain("check: 2 fixtures: 0 unchanged, 0 changed, 2 missing");
    expect(readdirSync(dir).filter((f) => f.endsWith(".looplens.json"))).toEqual([]);

    const update = check(".", "--update");
    expect(update.status).toBe(0);
    expect(update.stdout).toContain("check: 2 fixtures: 2 created, 0 updated, 0 unchanged");

    const pass = check(".");
    expect(pass.status).toBe(0);
    expect(pass.stdout).toBe("✓ healthy.jsonl\n✓ poll-loop.jsonl\n\ncheck: 2 fixtures: 2 unchanged, 0 changed, 0 missing\n");

    const again = check(".", "--update");
    expect(again.stdout).toContain("0 created, 0 updated, 2 unchanged");
  });

  it("the snapshot records the config and the findings, without paths, version or messages", () => {
    check("poll-loop.jsonl", "--update");
    const text = readFileSync(snap("poll-loop.jsonl"), "utf8");
    const doc = JSON.parse(text);
    expect(doc.input).toBe("poll-loop.jsonl");
    expect(doc.config).toMatchObject({ enabled: true, warningThreshold: 10, criticalThreshold: 20, "detectors.pingPong": true });
    expect(doc.lines).toEqual({ read: 46, used: 46, ignored: 0, skipped: 0 });
    expect(doc.runs).toEqual([{ run: "poll-1", agent: "main", session: "sess-poll", calls: 22, compactions: 0, firstStop: { kind: "critical", call: 21 } }]);
    expect(doc.findings).toHaveLength(12);
    expect(doc.findings[10]).toEqual({
      run: "poll-1",
      call: 21,
      line: 42,
      tool: "command_status",
      detector: "known_poll_no_progress",
      level: "critical",
      count: 20,
      threshold: { name: "criticalThreshold", value: 20 },
      afterStop: false,
    });
    // One line per run and per finding.
    expect(text).toContain('\n  "runs": [\n    {"run":"poll-1","agent":"main",');
    expect(text.split("\n").filter((line) => line.startsWith('    {"run":"poll-1","call":'))).toHaveLength(12);
    expect(text).not.toContain(dir);
    expect(text).not.toMatch(/"version"|"message"|"argsHash"|"file"/);
    // Stable: the same input named by an absolute path gives the same bytes.
    runCli(["check", join(dir, "poll-loop.jsonl"), "--update"], { cwd: ROOT });
    expect(readFileSync(snap("poll-loop.jsonl"), "utf8")).toBe(text);
  });

  it("a changed fixture prints a unified diff of the findings and exits 1", () => {
    check(".", "--update");
    // Cut the transcript after call 20: the run is no longer blocked.
    const lines = readFileSync(join(dir, "poll-loop.jsonl"), "utf8").split("\n");
    writeFileSync(join(dir, "poll-loop.jsonl"), `${lines.slice(0, 41).join("\n")}\n`);
    const result = check(".");
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("✓ healthy.jsonl");
    expect(result.stdout).toContain("✗ poll-loop.jsonl: findings differ from poll-loop.jsonl.looplens.json");
    expect(result.stdout).toContain("--- poll-loop.jsonl.looplens.json (snapshot)\n+++ poll-loop.jsonl (now)\n@@ ");
    expect(result.stdout).toMatch(/\n- {2}"lines": \{"read":46,"used":46,"ignored":0,"skipped":0\},\n\+ {2}"lines": \{"read":41,"used":41,"ignored":0,"skipped":0\},/);
    expect(result.stdout).toContain(
      '\n-    {"run":"poll-1","agent":"main","session":"sess-poll","calls":22,"compactions":0,"firstStop":{"kind":"critical","call":21}}' +
        '\n+    {"run":"poll-1","agent":"main","session":"sess-poll","calls":20,"compactions":0,"firstStop":null}',
    );
    expect(result.stdout).toMatch(/\n- {4}\{"run":"poll-1","call":21,"line":42,[^\n]*"level":"critical"[^\n]*\n- {4}\{"run":"poll-1","call":22,[^\n]*\n\+ {4}\{"run":"poll-1","call":20,/);
    expect(result.stdout).toContain("check: 2 fixtures: 1 unchanged, 1 changed, 0 missing");

    expect(check(".", "--update").stdout).toContain("0 created, 1 updated, 1 unchanged");
    expect(check(".").status).toBe(0);
  });

  it("a config change shows up as a diff, from --set or from --config", () => {
    check("poll-loop.jsonl", "--update");
    const viaSet = check("poll-loop.jsonl", "--set", "criticalThreshold=15");
    expect(viaSet.status).toBe(1);
    expect(viaSet.stdout).toContain('-    "criticalThreshold": 20,\n+    "criticalThreshold": 15,');
    expect(viaSet.stdout).toMatch(/\n- {4}\{"run":"poll-1",[^\n]*"firstStop":\{"kind":"critical","call":21\}\}\n\+ {4}\{"run":"poll-1",[^\n]*"firstStop":\{"kind":"critical","call":16\}\}\n/);

    writeFileSync(join(dir, "openclaw.json"), "// only the breaker moves\n{ tools: { loopDetection: { enabled: true, globalCircuitBreakerThreshold: 40 } } }\n");
    const viaFile = check("poll-loop.jsonl", "--config", "openclaw.json");
    expect(viaFile.status).toBe(1);
    expect(viaFile.stdout).toContain('-    "globalCircuitBreakerThreshold": 30,\n+    "globalCircuitBreakerThreshold": 40,');
  });

  it("records the effective config of each agent whose override applied", () => {
    writeFileSync(join(dir, "openclaw.json"), '{ tools: { loopDetection: { enabled: true } }, agents: { list: [{ id: "main", tools: { loopDetection: { criticalThreshold: 15 } } }] } }');
    expect(check("poll-loop.jsonl", "--config", "openclaw.json", "--update").status).toBe(0);
    const doc = JSON.parse(readFileSync(snap("poll-loop.jsonl"), "utf8"));
    expect(doc.config.criticalThreshold).toBe(20);
    expect(doc.agentConfigs.main).toMatchObject({ enabled: true, criticalThreshold: 15 });
    expect(doc.runs[0].firstStop).toEqual({ kind: "critical", call: 16 });
    expect(doc.findings.find((f: { level: string }) => f.level === "critical").threshold).toEqual({ name: "criticalThreshold", value: 15 });
  });

  it("compares as data: a reformatted snapshot still matches; an invalid one is a difference", () => {
    check("healthy.jsonl", "--update");
    writeFileSync(snap("healthy.jsonl"), JSON.stringify(JSON.parse(readFileSync(snap("healthy.jsonl"), "utf8"))));
    expect(check("healthy.jsonl").status).toBe(0);

    writeFileSync(snap("healthy.jsonl"), "{ not json");
    const invalid = check("healthy.jsonl");
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toMatch(/✗ healthy\.jsonl: snapshot healthy\.jsonl\.looplens\.json is not valid JSON \(.+\); --update rewrites it/);
    expect(check("healthy.jsonl", "--update").stdout).toContain("1 updated");
    expect(check("healthy.jsonl").status).toBe(0);
  });

  it("snapshots named among the inputs (a shell glob) are not inputs", () => {
    check(".", "--update");
    const result = check("healthy.jsonl", "healthy.jsonl.looplens.json");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("check: 1 fixture: 1 unchanged");
  });

  it("exit 2: standard input, a missing path, a bad --set", () => {
    const stdin = runCli(["check", "-"], { cwd: dir, input: readFileSync(join(dir, "healthy.jsonl")) });
    expect(stdin.status).toBe(2);
    expect(stdin.stderr).toMatch(/standard input has none/);
    const missing = check("nope.jsonl");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot read nope\.jsonl: no such file/);
    const bad = check(".", "--set", "criticalThreshold=0");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--set criticalThreshold: "0" is not a positive integer/);
    for (const r of [stdin, missing, bad]) expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});
