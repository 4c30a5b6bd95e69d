/**
 * Temporary folders for tests: made under the system's temporary directory and removed when the
 * test file is done (vitest.config.ts runs `removeTempDirs` after each file: tempDirCleanup.ts), so
 * a test never has to remember. The run as a whole is checked to leave nothing (tempDirCheck.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/** A fresh folder `<tmp>/<prefix>XXXXXX`, removed after the test file. */
export function tempDir(prefix = "looplens-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
