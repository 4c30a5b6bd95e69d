/**
 * Global setup (vitest.config.ts): the run gets a temporary directory of its own, and must leave it
 * empty. TMPDIR points into a fresh `looplens-test-run-*` folder before any test worker starts, so
 * every worker, every CLI a test spawns and every worker thread of it makes its temporary files
 * there; at the end, whatever is left fails the run, named, and the folder is removed.
 *
 * A folder of its own rather than /tmp listed before and after: other test runs on the same machine
 * (other checkouts, other engineers) write `looplens-*` folders to /tmp at the same time. Not
 * vacuous: a watcher counts what was made there during the run (the closing line says how much),
 * and tempDirCheck.test.ts checks that a test and a process it spawns really write there.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's own temporary directory (what os.tmpdir() is in every worker). */
    testTmpDir: string;
  }
}

const SHOWN = 20;

export function setup(project: TestProject): () => void {
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), "looplens-test-run-"));
  process.env.TMPDIR = dir;
  project.provide("testTmpDir", dir);
  const made = new Set<string>();
  const watcher = watch(dir, (_event, name) => {
    if (name !== null && existsSync(join(dir, name))) made.add(name);
  });
  return () => {
    watcher.close();
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    if (left.length > 0) {
      const names = left.slice(0, SHOWN).join(", ") + (left.length > SHOWN ? `, … (${left.length} in all)` : "");
      // An error thrown here is printed but leaves the exit status 0: the status is set instead.
      process.stderr.write(`FAIL: the tests left ${left.length} entr${left.length === 1 ? "y" : "ies"} in the temporary directory: ${names}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`temporary directory: ${made.size} entries made during the run, none left\n`);
  };
}
