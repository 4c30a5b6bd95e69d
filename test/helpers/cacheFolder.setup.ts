/**
 * vitest global setup: every test run's CLIs (spawned or in process) keep their result cache in one
 * folder inside the run's own temporary directory (tempDirCheck.ts, listed before this file so that
 * TMPDIR already points there), never the user's ~/.cache/looplens. Removed at the end, before the
 * check that the temporary directory is left empty (teardowns run in reverse order). The whole suite
 * thus also runs with the cache warm wherever a test analyses the same input twice.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "looplens-test-cache-"));
  process.env.LOOPLENS_CACHE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
