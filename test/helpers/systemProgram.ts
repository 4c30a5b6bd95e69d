/**
 * Tests that run a system program (Chromium, tmux, zsh, fish, sqlite3, man, bash): on a machine
 * with only Node and the npm packages they are skipped, with one line on stderr naming what is
 * missing; with `LOOPLENS_REQUIRE_SYSTEM_TESTS=1` (set by .ci/run after installing them) a missing
 * program fails them instead, so CI cannot pass without having looked.
 *
 *   const tmux = requireProgram("tmux", { for: "the terminal-width tests" });
 *   tmux.describe("reports under a real terminal", () => { … });
 *   zsh.it("the script parses", () => { … });
 *
 * Programs are looked up on $PATH (so a PATH without one shows what a machine without it does).
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, it, type TestFunction } from "vitest";

export const REQUIRE_SYSTEM_TESTS = "LOOPLENS_REQUIRE_SYSTEM_TESTS";

/** The executable file `name` in one of $PATH's folders, or null. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const folder of (env.PATH ?? "").split(delimiter)) {
    if (folder === "") continue;
    const path = join(folder, name);
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return path;
    } catch {
      // not in this folder
    }
  }
  return null;
}

export interface ProgramNeed {
  /** What the tests use it for, for the skip line ("the terminal-width tests"). */
  readonly for: string;
  /** How to install it (default: `apt-get install -y <name>`). */
  readonly install?: string;
  /** Finds the program (default: `onPath(name)`); returns its path or null. */
  readonly find?: () => string | null;
}

export interface RequiredProgram {
  /** Where the program is, or null when missing. */
  readonly path: string | null;
  /** `describe`, or a skipped one (or one failing test, when required) when the program is missing. */
  readonly describe: (name: string, body: () => void) => void;
  /** `it`, likewise. */
  readonly it: (name: string, test: TestFunction, timeout?: number) => void;
}

/** Whether missing programs fail the tests that need them (`LOOPLENS_REQUIRE_SYSTEM_TESTS=1`). */
export const systemTestsRequired = (env: NodeJS.ProcessEnv = process.env) => env[REQUIRE_SYSTEM_TESTS] === "1";

export function requireProgram(name: string, need: ProgramNeed, env: NodeJS.ProcessEnv = process.env): RequiredProgram {
  const path = need.find ? need.find() : onPath(name, env);
  if (path !== null) return { path, describe: (title, body) => describe(title, body), it: (title, test, timeout) => it(title, test, timeout) };
  const install = need.install ?? `apt-get install -y ${name}`;
  if (systemTestsRequired(env)) {
    const failure = () => {
      throw new Error(`${name} is not installed, and ${REQUIRE_SYSTEM_TESTS}=1 requires ${need.for} to run (${install}; .ci/run installs it)`);
    };
    return { path, describe: (title) => describe(title, () => it(`needs ${name}`, failure)), it: (title) => it(title, failure) };
  }
  // One line for the whole file, however many tests it skips.
  process.stderr.write(`skipped: ${need.for}: ${name} is not installed (${install}; ${REQUIRE_SYSTEM_TESTS}=1 makes this a failure)\n`);
  return { path, describe: (title, body) => describe.skip(title, body), it: (title, test) => it.skip(title, test) };
}
