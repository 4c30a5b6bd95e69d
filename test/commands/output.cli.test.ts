/**
 * Where the report goes, how wide and in what colour: `-o/--output-file` (diagnostics stay on
 * stderr; the file replaced only by a run that completes), `--color auto|always|never` with
 * `--no-color`, NO_COLOR, FORCE_COLOR and TERM=dumb, and the width of a terminal or of $COLUMNS.
 */
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportColumns } from "../../src/commands/output.js";
import { runCli, runMain } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

const ANSI = /\u001b\[/;
const tmp = () => tempDir("looplens-out-");

/** The CLI in-process with stdout as a terminal (so that "auto" means colour), NO_COLOR unset unless given. */
const onTerminal = (args: string[], env: NodeJS.ProcessEnv = {}) => runMain(args, { stdoutIsTTY: true, env: { NO_COLOR: undefined, ...env } });

describe("-o/--output-file", () => {
  it("writes the report to the file, nothing to stdout; diagnostics stay on stderr", async () => {
    const dir = tmp();
    const input = join(dir, "bad.jsonl");
    writeFileSync(input, `${readFileSync("fixtures/poll-loop.jsonl", "utf8")}{broken\n`);
    const out = join(dir, "report.json");
    const result = await runMain(["analyze", input, "-f", "json", "-o", out]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/bad\.jsonl:47: /);
    const plain = await runMain(["analyze", input, "-f", "json"]);
    expect(readFileSync(out, "utf8")).toBe(plain.stdout);
  });

  it("works for every command that writes a report", async () => {
    const dir = tmp();
    for (const [name, args] of [
      ["events", ["events", "fixtures/ping-pong.jsonl"]],
      ["sweep", ["sweep", "fixtures/ping-pong.jsonl", "--vary", "criticalThreshold=10,20", "-f", "ndjson"]],
      ["config", ["config", "-f", "json"]],
      ["check", ["check", "fixtures/ping-pong.jsonl", "-f", "ndjson"]],
    ] as const) {
      const file = join(dir, `${name}.out`);
      const written = await runMain([...args, "--output-file", file]);
      const printed = await runMain([...args]);
      expect(written.stdout, name).toBe("");
      expect(readFileSync(file, "utf8").replace(/"version": "[^"]*"/, ""), name).toBe(printed.stdout.replace(/"version": "[^"]*"/, ""));
      expect(printed.stdout.length, name).toBeGreaterThan(0);
    }
  });

  it("a file is no terminal: no colour unless --color always", async () => {
    const dir = tmp();
    await onTerminal(["analyze", "fixtures/poll-loop.jsonl", "-o", join(dir, "plain.txt")]);
    expect(readFileSync(join(dir, "plain.txt"), "utf8")).not.toMatch(ANSI);
    await onTerminal(["analyze", "fixtures/poll-loop.jsonl", "-o", join(dir, "colour.txt"), "--color", "always"]);
    expect(readFileSync(join(dir, "colour.txt"), "utf8")).toMatch(ANSI);
  });

  it("an input named as the output is refused before it is emptied", async () => {
    const input = join(tmp(), "events.jsonl");
    writeFileSync(input, readFileSync("fixtures/ping-pong.jsonl"));
    const result = await runMain(["events", input, "-o", input]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`looplens: --output-file ${input} is also an input: name another file (see looplens events --help)\n`);
    expect(readFileSync(input, "utf8")).toBe(readFileSync("fixtures/ping-pong.jsonl", "utf8"));
  });

  it("a command that fails before writing leaves no empty report file; an existing file is kept", async () => {
    const dir = tmp();
    const out = join(dir, "report.json");
    const missing = join(dir, "no-such-input.jsonl");
    const failed = await runMain(["analyze", missing, "-f", "json", "-o", out]);
    expect(failed.status).toBe(2);
    expect(existsSync(out)).toBe(false);
    writeFileSync(out, "old report\n");
    expect((await runMain(["analyze", missing, "-f", "json", "-o", out])).status).toBe(2);
    expect(existsSync(out)).toBe(true);
  });

  it("is replaced only by a run that ends with a report: one that ends in exit 2 leaves the old file", async () => {
    const dir = tmp();
    const input = join(dir, "bad.jsonl");
    writeFileSync(input, `${readFileSync("fixtures/poll-loop.jsonl", "utf8")}{broken\n`);
    const out = join(dir, "report.json");
    writeFileSync(out, "old report\n");
    const strict = await runMain(["analyze", input, "-f", "json", "--strict", "-o", out]);
    expect(strict.status).toBe(2);
    expect(readFileSync(out, "utf8")).toBe("old report\n");
    expect(readdirSync(dir).sort()).toEqual(["bad.jsonl", "report.json"]); // no temporary file left
    expect((await runMain(["analyze", input, "-f", "json", "-o", out])).status).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toHaveProperty("runs");
    expect(readdirSync(dir).sort()).toEqual(["bad.jsonl", "report.json"]);
  });

  it("keeps what it replaces: a link stays a link to the new report, the permission bits stay", async () => {
    const dir = tmp();
    const real = join(dir, "real.txt");
    writeFileSync(real, "old\n");
    chmodSync(real, 0o640);
    const link = join(dir, "latest.txt");
    symlinkSync(real, link);
    expect((await runMain(["analyze", "fixtures/poll-loop.jsonl", "-o", link])).status).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toContain("poll-loop.jsonl");
    expect(statSync(real).mode & 0o777).toBe(0o640);
  });

  it("a device is written to, not replaced (-o /dev/null)", async () => {
    const result = await runMain(["analyze", "fixtures/poll-loop.jsonl", "-o", "/dev/null"]);
    expect([result.status, result.stdout]).toEqual([0, ""]);
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
  });

  it("a file that cannot be written is an error naming it (exit 2)", async () => {
    const result = await runMain(["analyze", "fixtures/poll-loop.jsonl", "-o", join(tmp(), "no", "such", "dir.txt")]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^looplens: cannot write the report to .*dir\.txt: ENOENT\n$/);
  });
});

describe("--color", () => {
  const coloured = async (args: string[], env: NodeJS.ProcessEnv = {}) => ANSI.test((await onTerminal(["analyze", "fixtures/poll-loop.jsonl", ...args], env)).stdout);

  it("auto (the default): colour on a terminal, none on a pipe", async () => {
    expect(await coloured([])).toBe(true);
    expect(await coloured(["--color", "auto"])).toBe(true);
    expect(ANSI.test((await runMain(["analyze", "fixtures/poll-loop.jsonl"], { env: { NO_COLOR: "" } })).stdout)).toBe(false);
  });

  it("never and --no-color turn it off; NO_COLOR too, unless --color always", async () => {
    expect(await coloured(["--color", "never"])).toBe(false);
    expect(await coloured(["--no-color"])).toBe(false);
    expect(await coloured([], { NO_COLOR: "1" })).toBe(false);
    expect(await coloured(["--color", "always"], { NO_COLOR: "1" })).toBe(true);
  });

  it("FORCE_COLOR colours a pipe; --color never wins over it", async () => {
    expect(ANSI.test((await runMain(["analyze", "fixtures/poll-loop.jsonl"], { env: { NO_COLOR: "", FORCE_COLOR: "1" } })).stdout)).toBe(true);
    expect(ANSI.test((await runMain(["analyze", "fixtures/poll-loop.jsonl", "--color", "never"], { env: { NO_COLOR: "", FORCE_COLOR: "1" } })).stdout)).toBe(false);
  });

  it("FORCE_COLOR=0 (or false) and TERM=dumb turn it off on a terminal; FORCE_COLOR=1 beats TERM=dumb", async () => {
    expect(await coloured([], { FORCE_COLOR: "0" })).toBe(false);
    expect(await coloured([], { FORCE_COLOR: "false" })).toBe(false);
    expect(await coloured([], { TERM: "dumb" })).toBe(false);
    expect(await coloured([], { TERM: "dumb", FORCE_COLOR: "1" })).toBe(true);
    expect(await coloured(["--color", "always"], { FORCE_COLOR: "0" })).toBe(true);
    expect(await coloured([], { TERM: "xterm-256color" })).toBe(true);
  });

  it("a bad value names the choices and the command's help", async () => {
    const result = await runMain(["analyze", "fixtures", "--color", "sometimes"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Allowed choices are auto, always, never. (see looplens analyze --help)");
  });
});

describe("width", () => {
  it("a terminal's own width; 80 when it reports 0; elsewhere $COLUMNS when it is a whole number above 0", () => {
    expect(reportColumns(true, 120, {})).toBe(120);
    expect(reportColumns(true, 0, {})).toBe(80);
    expect(reportColumns(true, 0, { COLUMNS: "50" })).toBe(80);
    expect(reportColumns(true, 120, { COLUMNS: "50" })).toBe(120);
    expect(reportColumns(false, undefined, { COLUMNS: "50" })).toBe(50);
    expect(reportColumns(false, undefined, { COLUMNS: " 50 " })).toBe(50);
    for (const columns of [undefined, "", "0", "-5", "wide", "12.5"]) expect(reportColumns(false, undefined, { COLUMNS: columns }), String(columns)).toBeUndefined();
  });

  it("COLUMNS narrows the report on a pipe and in a -o file", () => {
    const widest = (text: string) => Math.max(...text.split("\n").map((line) => [...line].length));
    const args = ["analyze", "--all", "fixtures/poll-loop.jsonl", "fixtures/ping-pong.jsonl"];
    const wide = runCli(args);
    expect(widest(wide.stdout)).toBeGreaterThan(60);
    const narrow = runCli(args, { env: { COLUMNS: "60" } });
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(60);
    const out = join(tmp(), "narrow.txt");
    expect(runCli([...args, "-o", out], { env: { COLUMNS: "60" } }).status).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(narrow.stdout);
  });
});
