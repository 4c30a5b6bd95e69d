/**
 * The run's temporary-directory check (tempDirCheck.ts) looks where tests and the CLI write: this
 * worker's os.tmpdir(), and a spawned process's (the CLI's), are the run's own folder, which tempDir() uses.
 */
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import { expect, inject, it } from "vitest";
import { spawnSync } from "node:child_process";
import { removeTempDirs, tempDir } from "./tempDir.js";

it("tests and the processes they spawn make their temporary files in the run's own folder", () => {
  const runDir = inject("testTmpDir");
  expect(runDir).toMatch(/looplens-test-run-/);
  expect(tmpdir()).toBe(runDir);
  const made = tempDir("looplens-tmpdir-check-");
  expect(dirname(made)).toBe(runDir);
  const spawned = spawnSync(process.execPath, ["-e", 'process.stdout.write(require("node:os").tmpdir())'], { encoding: "utf8" });
  expect(spawned.stdout).toBe(runDir);
  removeTempDirs();
  expect(existsSync(made)).toBe(false);
});
