/**
 * What the CLI bundle does before any command runs: string-width makes an Intl.Segmenter (and an
 * RGI emoji regular expression) when its module is evaluated, ~20 ms of every start-up's CPU, so the
 * bundle evaluates it on its first call only (scripts/bundle.mjs) and textFit.ts makes its own
 * segmenter on first use. A run that renders no wide text (`--version`, a kept output) makes none;
 * a report that does is the same as the unbundled build's.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, ROOT } from "../helpers/cli.js";

/** Loaded before the CLI: says on stderr when a segmenter is made. */
const WATCH_SEGMENTERS = `data:text/javascript,${encodeURIComponent(
  "const Made = Intl.Segmenter; Intl.Segmenter = class extends Made { constructor(...a) { super(...a); process.stderr.write('[segmenter made]\\n'); } };",
)}`;
const MADE = "[segmenter made]";

/** The unbundled build (dist/cli.js imports string-width as it is). */
const UNBUNDLED = `const { main } = await import(${JSON.stringify(join(ROOT, "dist/cli.js"))}); process.exitCode = await main([process.argv[0], "looplens", ...process.argv.slice(1)]);`;

const dir = mkdtempSync(join(tmpdir(), "looplens-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: readonly string[]) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", COLUMNS: "60", LOOPLENS_CACHE_DIR: join(dir, "cache") } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("CLI start-up", () => {
  it("makes no segmenter when nothing wide is rendered", () => {
    const result = run(["--import", WATCH_SEGMENTERS, BIN, "--version"]);
    expect(result.status).toBe(0);
    expect(result.stderr).not.toContain(MADE);
  });

  it("measures wide text as the unbundled build does", () => {
    const input = join(dir, "wide.jsonl");
    writeFileSync(input, readFileSync(join(ROOT, "fixtures/generic-repeat.jsonl"), "utf8").replaceAll("npm test", "npm test 👍🏽 测试 ｗｉｄｅ"));
    const args = ["analyze", "--no-cache", input];
    const bundled = run(["--import", WATCH_SEGMENTERS, BIN, ...args]);
    const unbundled = run(["--input-type=module", "-e", UNBUNDLED, ...args]);
    expect(bundled.stdout).toContain("👍🏽");
    expect(bundled.stderr).toContain(MADE);
    expect({ ...bundled, stderr: bundled.stderr.replaceAll(`${MADE}\n`, "") }).toEqual(unbundled);
  });
});
