/**
 * The package as a user gets it: the built checkout packed by `npm pack`, installed globally into a
 * temporary prefix and into a project's devDependencies, offline (the package has no dependencies
 * to fetch), then the installed tool run as a user would: `looplens`, `man looplens`, completions,
 * `npx looplens`. What it prints must be what the checkout's own build prints.
 *
 * The pack skips the lifecycle scripts (`--ignore-scripts`): `npm test` has just built dist/, and
 * a rebuild here would rewrite the bundle under the other test files running it.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { BIN, ROOT } from "../helpers/cli.js";
import { requireProgram } from "../helpers/systemProgram.js";

const npm = requireProgram("npm", { for: "the packed-install tests", install: "npm comes with Node" });
// Without npm, nothing else is looked up: one skip line, naming npm.
const man = npm.path === null ? npm : requireProgram("man", { for: "the installed man page check", install: "apt-get install -y man-db" });
const bash = npm.path === null ? npm : requireProgram("bash", { for: "the installed bash completion check" });

/** The installed package folder, node_modules and all, must stay under this (`du -s`). */
const MAX_FOOTPRINT = 5 * 1024 * 1024;

/**
 * What the package ships: what the installed tool loads (the launcher, the CLI and worker bundles,
 * sql.js's WebAssembly), the library's bundles (`looplens`, `looplens/vitest`, `looplens/jest`
 * and their shared chunks) with their declarations, its man page, and the documents npm and a
 * reader expect (the MIT licence package.json names among them).
 */
const SHIPPED = ["CHANGELOG.md", "LICENSE", "README.md", "bin/looplens", "dist/bundle/cli.js", "dist/bundle/index.js", "dist/bundle/jest.js", "dist/bundle/sql-wasm.wasm", "dist/bundle/vitest.js", "dist/bundle/worker.js", "dist/looplens.1", "package.json"];
/** The CLI's chunks (its commands' work: scripts/bundle.mjs) and the library's shared ones. */
const CHUNK = /^dist\/bundle\/(cli|library)-\w+\.js$/;
const DECLARATION = /^dist\/types\/.+\.d\.ts$/;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let dir = "";
let prefix = "";

/**
 * The environment of a user's shell: none of the `npm_*` variables that `npm test` passes down
 * (`npm_config_local_prefix` would point a child npm at this checkout), a cache of the test's own,
 * and the global prefix's bin/ first on PATH.
 */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return {
    ...env,
    PATH: [join(prefix, "bin"), env.PATH].join(delimiter),
    NO_COLOR: "1",
    FORCE_COLOR: undefined,
    npm_config_cache: join(dir, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_loglevel: "warn",
    ...extra,
  };
}

function run(command: string, args: readonly string[], cwd: string, extra: NodeJS.ProcessEnv = {}): Run {
  const result = spawnSync(command, args, { cwd, env: userEnv(extra), encoding: "utf8", input: "", maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const installed = (args: readonly string[], extra?: NodeJS.ProcessEnv) => run(join(prefix, "bin", "looplens"), args, dir, extra);
const checkout = (args: readonly string[]) => run(process.execPath, [BIN, ...args], dir);

/** `npm install` printed nothing about install scripts (npm's allowScripts notice names `prepare`). */
function expectNoScriptWarning(install: Run): void {
  expect(install.stderr).not.toMatch(/install-scripts|prepare/i);
}

/** Disk use of a folder, as `du -s` counts it. */
function diskUse(path: string): number {
  const stat = lstatSync(path);
  const own = stat.blocks * 512;
  return stat.isDirectory() ? readdirSync(path).reduce((sum, name) => sum + diskUse(join(path, name)), own) : own;
}

/** Tests that spawn npm or several installed runs: minutes, not seconds, on a loaded machine. */
const SLOW = 120_000;

/** What `npm install` needs in any case: offline (nothing to fetch), no audit or funding requests. */
const OFFLINE = ["--offline", "--no-audit", "--no-fund"];

let tarball = "";
let packed: string[] = [];
let globalInstall: Run;

npm.describe("the packed package", () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "looplens-install-"));
    prefix = join(dir, "prefix");
    const pack = run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], ROOT);
    expect(pack.stderr).toBe("");
    expect(pack.status).toBe(0);
    const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(dir, info!.filename);
    packed = info!.files.map((file) => file.path).sort();
    globalInstall = run("npm", ["install", "--global", "--prefix", prefix, ...OFFLINE, tarball], dir);
    cpSync(join(ROOT, "fixtures"), join(dir, "fixtures"), { recursive: true });
  }, 180_000);

  afterAll(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  npm.it("ships only what the installed tool loads", () => {
    const declarations = packed.filter((path) => DECLARATION.test(path));
    const chunks = packed.filter((path) => CHUNK.test(path));
    expect(declarations).toContain("dist/types/index.d.ts");
    expect(declarations).toContain("dist/types/vitest.d.ts");
    expect(declarations).toContain("dist/types/jest.d.ts");
    for (const kind of ["cli", "library"]) expect(chunks.filter((path) => path.startsWith(`dist/bundle/${kind}-`)).length, kind).toBeGreaterThan(0);
    expect(packed.filter((path) => !DECLARATION.test(path) && !CHUNK.test(path))).toEqual([...SHIPPED].sort());
    // The licence package.json names, in its words.
    expect((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { license: string }).license).toBe("MIT");
    expect(readFileSync(join(ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License\n/);
  });

  npm.it("installs globally offline, with no install-script warning, in a few megabytes", () => {
    expect(globalInstall.stderr).toBe("");
    expectNoScriptWarning(globalInstall);
    expect(globalInstall.status).toBe(0);
    const folder = join(prefix, "lib", "node_modules", "looplens");
    expect(readdirSync(folder)).not.toContain("node_modules");
    expect(diskUse(folder)).toBeLessThanOrEqual(MAX_FOOTPRINT);
  });

  npm.it("runs as `looplens` from the prefix's bin/, on fixtures outside the checkout, as the checkout does", () => {
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(installed(["--version"]).stdout.trim()).toBe(version.version);

    // Every fixture format and the SQLite store (sql.js and its WebAssembly from the bundle), on
    // worker threads too (the worker bundle).
    const args = ["analyze", "--all", "-f", "json", "fixtures"];
    const expected = checkout(args);
    expect(expected.status).toBe(0);
    const report = JSON.parse(expected.stdout) as { runs: Array<{ file: string }> };
    expect(report.runs.some((one) => one.file.includes(".sqlite#"))).toBe(true);
    for (const workers of ["0", "2"]) expect(installed(args, { LOOPLENS_WORKERS: workers })).toEqual(expected);

    const check = installed(["check", "fixtures"]);
    expect(check.stdout).toMatch(/\b0 changed, 0 missing\b/);
    expect(check.status).toBe(0);
  }, SLOW);

  npm.it("links the man page where `man` finds it", () => {
    const linked = join(prefix, "share", "man", "man1", "looplens.1");
    expect(readFileSync(linked, "utf8")).toBe(readFileSync(join(ROOT, "dist", "looplens.1"), "utf8"));
  });

  man.it("`man looplens` finds the installed page through PATH, as man-db derives its search path", () => {
    // No MANPATH: man-db looks in <dir>/share/man beside each <dir>/bin on PATH, so a prefix whose
    // bin/ is on PATH needs no more. With MANPATH set, it must name <prefix>/share/man.
    const installedPage = realpathSync(join(prefix, "lib", "node_modules", "looplens", "dist", "looplens.1"));
    for (const manpath of [undefined, join(prefix, "share", "man")]) {
      const where = run("man", ["-w", "looplens"], dir, { MANPATH: manpath });
      expect(where.status).toBe(0);
      expect(realpathSync(where.stdout.trim())).toBe(installedPage);
    }
  });

  man.it("`man -M <prefix>/share/man looplens` shows the page the checkout built", () => {
    const render = (args: readonly string[]) => run("man", args, dir, { MANPAGER: "cat", MANWIDTH: "80", MANPATH: undefined });
    const shown = render(["-M", join(prefix, "share", "man"), "looplens"]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toMatch(/^LOOPLENS\(1\)/);
    expect(shown).toEqual(render(["-l", join(ROOT, "dist", "looplens.1")]));
  });

  npm.it("prints the completion scripts the checkout prints", () => {
    for (const shell of ["bash", "zsh", "fish"]) expect(installed(["completion", shell])).toEqual(checkout(["completion", shell]));
  });

  bash.it("completes in bash from the installed tool's script", () => {
    const script = "source <(looplens completion bash) && complete -p looplens && COMP_WORDS=(looplens an) COMP_CWORD=1 && _looplens && echo \"${COMPREPLY[*]}\"";
    const completed = run("bash", ["-c", script], dir);
    expect(completed.stderr).toBe("");
    const [registered, offered] = completed.stdout.trim().split("\n");
    expect(registered).toMatch(/^complete .*-F _looplens looplens$/);
    expect(offered).toBe("analyze");
  });

  npm.it("runs as `npx looplens` in a project that installed it as a devDependency", () => {
    const project = join(dir, "project");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "a-project", version: "1.0.0", private: true }));
    const install = run("npm", ["install", "--save-dev", ...OFFLINE, tarball], project);
    expect(install.stderr).toBe("");
    expectNoScriptWarning(install);
    expect(install.status).toBe(0);
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
    expect(Object.keys(manifest.devDependencies ?? {})).toEqual(["looplens"]);

    const input = join("..", "fixtures", "ping-pong.jsonl");
    const viaNpx = run("npx", ["--offline", "looplens", "analyze", input], project);
    expect(viaNpx).toEqual(run(process.execPath, [BIN, "analyze", input], project));
    expect(viaNpx.status).toBe(0);
    expect(viaNpx.stdout).toMatch(/ping/i);
    expect(existsSync(join(project, "node_modules", ".bin", "looplens"))).toBe(true);
  }, SLOW);
});
