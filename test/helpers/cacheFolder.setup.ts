/**
 * vitest global setup: every test run's CLIs (spawned or in process) keep their result cache in a
 * temporary folder of the run, never the user's ~/.cache/looplens, removed at the end. The whole
 * suite thus also runs with the cache warm wherever a test analyses the same input twice.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "looplens-test-cache-"));
  process.env.LOOPLENS_CACHE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
