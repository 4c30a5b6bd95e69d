/**
 * What the CLI bundle does before any command runs: string-width makes an Intl.Segmenter (and an
 * RGI emoji regular expression) when its module is evaluated, ~20 ms of every start-up's CPU, so the
 * bundle evaluates it on its first call only (scripts/bundle.mjs) and textFit.ts makes its own
 * segmenter on first use. A run that renders no wide text (`--version`, a kept output) makes none;
 * a report that does is the same as the unbundled build's. And the bundle is split: the commands'
 * work (src/commands/commandWork.ts) is a chunk that `--version`, `--help` and a kept output never load,
 * nor do they load the adapters (their flags read adapters/formatNames.ts, the folder listing
 * adapters/inputFileNames.ts; discovery is imported on a miss).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, ROOT } from "../helpers/cli.js";

/** Loaded before the CLI: says on stderr when a segmenter is made. */
const WATCH_SEGMENTERS = `data:text/javascript,${encodeURIComponent(
  "const Made = Intl.Segmenter; Intl.Segmenter = class extends Made { constructor(...a) { super(...a); process.stderr.write('[segmenter made]\\n'); } };",
)}`;
const MADE = "[segmenter made]";

/** Loaded before the CLI: says on stderr each file of the bundle that is loaded (a module hook, on its own thread: a write to fd 2). */
const HOOKS = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; export async function load(url, context, next) { if (url.includes('/dist/bundle/')) writeSync(2, `[loaded ${url.slice(url.lastIndexOf('/') + 1)}]\\n`); return next(url, context); }",
)}`;
const WATCH_CHUNKS = `data:text/javascript,${encodeURIComponent(`import { register } from "node:module"; register(${JSON.stringify(HOOKS)});`)}`;

/** The bundle's files a run loaded, and its stderr without the hook's lines. */
function loadedBy(args: readonly string[]) {
  const result = run(["--import", WATCH_CHUNKS, BIN, ...args]);
  const loaded = [...result.stderr.matchAll(/^\[loaded (.+)\]$/gm)].map((match) => match[1]!);
  return { ...result, loaded: new Set(loaded), stderr: result.stderr.replace(/^\[loaded .+\]\n/gm, "") };
}

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

  it("loads the commands' work and the adapters only when a command runs it: not for --version, --help or a kept output", () => {
    const input = join(dir, "kept");
    mkdirSync(input);
    for (const name of ["generic-repeat.jsonl", "healthy.jsonl"]) writeFileSync(join(input, name), readFileSync(join(ROOT, "fixtures", name)));
    const version = loadedBy(["--version"]);
    const help = loadedBy(["analyze", "--help"]);
    const cold = loadedBy(["analyze", "-f", "json", input]);
    const warm = loadedBy(["analyze", "-f", "json", input]);
    expect([version.status, help.status, cold.status, warm.status]).toEqual([0, 0, 0, 0]);
    expect(warm.stdout).toBe(cold.stdout);
    expect(version.loaded.has("cli.js")).toBe(true);
    // The cold run loaded the work: chunks the others did not, and the larger part of the CLI (the
    // work imported statically, the others would load all of it but a lazily required dependency's).
    const work = [...cold.loaded].filter((file) => !version.loaded.has(file));
    for (const other of [help, warm]) expect([...other.loaded].filter((file) => work.includes(file))).toEqual([]);
    const bytes = (files: ReadonlySet<string>) => [...files].reduce((sum, file) => sum + statSync(join(ROOT, "dist/bundle", file)).size, 0);
    expect(bytes(warm.loaded)).toBeLessThan(0.75 * bytes(cold.loaded));
    // No adapter is evaluated but on a miss: the descriptors' names (the bundle keeps names) are in the files a run loads only if the registry is.
    const adapters = /\b(openclawSessionAdapter|claudeCodeAdapter|geminiCliAdapter)\b/;
    const holdsAdapters = (files: ReadonlySet<string>) => [...files].some((file) => adapters.test(readFileSync(join(ROOT, "dist/bundle", file), "utf8")));
    expect([cold, version, help, warm].map((other) => holdsAdapters(other.loaded))).toEqual([true, false, false, false]);
  });

});
