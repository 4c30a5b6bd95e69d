/**
 * The whole output of `analyze`, kept: a warm re-run of the same command on the same files prints
 * it without reading any unit's entry, and prints what looplens prints without the cache whatever
 * changed in between: the render options (colour, width), the config file (only its header, or
 * what replay uses), the diagnostics and `--fail-on` on stderr and the exit status, a corrupted
 * kept output; and through the real CLI, where the kept bytes go to standard output as they are.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readUsage } from "../../../src/pipeline/cache/cacheUsage.js";
import { PACK_SUFFIX, PACKS_FOLDER } from "../../../src/pipeline/cache/packFile.js";
import { dropEntry, isReport, replaceEntry, storedEntries } from "./storedEntries.js";
import { runCli, runMain } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/tempDir.js";
import { bothWays, makeInputs } from "./cacheBench.js";

async function expectSame(args: readonly string[], cacheDir: string, why: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const { cached, fresh } = await bothWays(["analyze", ...args], cacheDir, env);
  expect(cached.stdout, why).toBe(fresh.stdout);
  expect(cached.stderr, `${why} (stderr)`).toBe(fresh.stderr);
  expect(cached.status, `${why} (status)`).toBe(fresh.status);
}

describe("the kept output of a command", () => {
  it("is printed again without reading a unit, and is what looplens prints without the cache", async () => {
    const root = tempDir("looplens-cache-report-");
    const inputs = makeInputs(root);
    const cacheDir = join(root, "cache");
    const args = ["-f", "json", "--fail-on", "warning", inputs];
    await expectSame(args, cacheDir, "cold");
    const reports = storedEntries(cacheDir).filter(isReport);
    expect(reports).toHaveLength(1);
    // Without any unit's entry, the same command is still all hits: its output was kept whole.
    for (const entry of storedEntries(cacheDir)) if (!isReport(entry)) dropEntry(cacheDir, entry);
    await expectSame(args, cacheDir, "warm, from the kept output");
    expect(readUsage(cacheDir)?.last?.misses).toBe(0);
    expect(readUsage(cacheDir)?.last?.hits).toBeGreaterThan(10);
    // A corrupted kept output is not printed: the command runs again (every unit a miss now), the same.
    const bytes = reports[0]!.bytes();
    bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0x01;
    replaceEntry(cacheDir, reports[0]!, bytes);
    await expectSame(args, cacheDir, "kept output corrupted");
    expect(readUsage(cacheDir)?.last?.hits).toBe(0);
    await expectSame(args, cacheDir, "warm again");
    expect(readUsage(cacheDir)?.last?.misses).toBe(0);
  }, 600_000);

  it("is another output for other render options, and stays right when only the config's header changes", async () => {
    const root = tempDir("looplens-cache-report-");
    const inputs = makeInputs(root);
    const cacheDir = join(root, "cache");
    const config = join(root, "openclaw.json5");
    const table = ["--config", config, inputs];
    writeFileSync(config, "{ tools: { loopDetection: { enabled: true, warningThreshold: 6 } } }\n");
    for (let round = 0; round < 2; round++) {
      await expectSame(table, cacheDir, `table, round ${round}`);
      await expectSame(table, cacheDir, `table, 120 columns, round ${round}`, { COLUMNS: "120" });
      await expectSame(["--color", "always", ...table], cacheDir, `colour, round ${round}`);
      await expectSame(["-f", "markdown", ...table], cacheDir, `markdown, round ${round}`);
    }
    // A default set in the file: replay is the same (the same effective config), the header not (where the value came from).
    await expectSame(["-f", "json", ...table], cacheDir, "json");
    writeFileSync(config, "{ tools: { loopDetection: { enabled: true, warningThreshold: 6, criticalThreshold: 20, historySizeX: 3 } } }\n");
    await expectSame(["-f", "json", ...table], cacheDir, "a default set in the config file, and a notice");
    await expectSame(table, cacheDir, "a default set in the config file, and a notice (table)");
    writeFileSync(config, "{ tools: { loopDetection: { enabled: true, warningThreshold: 9 } } }\n");
    await expectSame(table, cacheDir, "a threshold changed");
    await expectSame(["-q", ...table], cacheDir, "quiet");
  }, 600_000);

  it("is not kept for a window back from now (its key would be new every run), and is for a date", async () => {
    const root = tempDir("looplens-cache-report-");
    const inputs = makeInputs(root);
    const cacheDir = join(root, "cache");
    const reports = () => storedEntries(cacheDir).filter(isReport).length;
    // (Not compared with a run without the cache: the window's date, printed, moves between the two.)
    for (const window of [["--since", "3650d"], ["--until", "1h"]]) {
      const { status } = await runMain(["analyze", "-f", "json", ...window, inputs], { env: { LOOPLENS_CACHE_DIR: cacheDir } });
      expect(status, window.join(" ")).toBe(0);
    }
    expect(readUsage(cacheDir)?.last?.misses).toBe(0); // the sessions' entries are used
    expect(reports()).toBe(0);
    await expectSame(["-f", "json", "--since", "2016-01-01", inputs], cacheDir, "--since 2016-01-01");
    expect(reports()).toBe(1);
  }, 600_000);

  it("goes out as its bytes from the real CLI, the same as without the cache", () => {
    const root = tempDir("looplens-cache-report-");
    const inputs = makeInputs(root);
    const env = { LOOPLENS_CACHE_DIR: join(root, "cache"), LOOPLENS_WORKERS: "0" };
    const fresh = runCli(["analyze", "-f", "html", "--no-cache", inputs], { env });
    const cold = runCli(["analyze", "-f", "html", inputs], { env });
    const warm = runCli(["analyze", "-f", "html", inputs], { env });
    expect(readUsage(env.LOOPLENS_CACHE_DIR)?.last?.misses).toBe(0);
    for (const run of [cold, warm]) {
      expect(run.stdout).toBe(fresh.stdout);
      expect(run.stderr).toBe(fresh.stderr);
      expect(run.status).toBe(fresh.status);
    }
    // With -o, a kept output goes to the file (standard output's bytes writer is not the file's).
    const file = join(root, "report.html");
    for (const round of ["cold", "warm"]) {
      const run = runCli(["analyze", "-f", "html", "-o", file, inputs], { env });
      expect(run.stdout, round).toBe("");
      expect(readFileSync(file, "utf8"), round).toBe(fresh.stdout);
    }
    expect(readUsage(env.LOOPLENS_CACHE_DIR)?.last?.misses).toBe(0);
    // The output was spooled to a temporary file of the cache as it was written (outputSpool.ts): none is left.
    expect(readdirSync(join(env.LOOPLENS_CACHE_DIR, PACKS_FOLDER)).filter((name) => !name.endsWith(PACK_SUFFIX))).toEqual([]);
  }, 120_000);
});
