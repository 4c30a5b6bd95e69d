/**
 * The package as a user gets it: packed, unpacked into a separate project's node_modules (its
 * dependencies, typescript and vitest linked from this repo's: no network), type-checked under
 * `moduleResolution` node16 and bundler, and a vitest test there using `analyze`, `format` and the
 * matchers run. Everything lives in a temp folder removed after the file.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

const REPO_MODULES = join(ROOT, "node_modules");

function run(file: string, args: readonly string[], cwd: string): string {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, NO_COLOR: "1" };
  return execFileSync(process.execPath, [file, ...args], { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** The packed tarball, unpacked as npm would install it, with every repo dependency beside it. */
function consumerProject(): string {
  const dir = tempDir("looplens-consumer-");
  const packed = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8" })) as Array<{ filename: string }>;
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "looplens"), { recursive: true });
  execFileSync("tar", ["-xzf", join(dir, packed[0]!.filename), "-C", join(modules, "looplens"), "--strip-components=1"]);
  for (const name of readdirSync(REPO_MODULES)) {
    if (name === "looplens" || name.startsWith(".")) continue;
    symlinkSync(join(REPO_MODULES, name), join(modules, name));
  }
  mkdirSync(join(dir, "fixtures"));
  for (const fixture of ["ping-pong.jsonl", "healthy.jsonl"]) copyFileSync(join(ROOT, "fixtures", fixture), join(dir, "fixtures", fixture));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  writeFileSync(join(dir, "loops.test.ts"), CONSUMER_TEST);
  return dir;
}

const CONSUMER_TEST = `import { expect, it } from "vitest";
import "looplens/vitest";
import { analyze, format, InputError, type Report, type Finding } from "looplens";

it("analyzes and formats", async () => {
  const report: Report = await analyze("fixtures/ping-pong.jsonl");
  const findings: Finding[] = report.runs.flatMap((run) => run.findings);
  expect(findings.some((f) => f.detector === "ping_pong" && f.level === "critical")).toBe(true);
  expect(format(report, "markdown")).toContain("## looplens report");
  await expect(analyze("fixtures/none.jsonl")).rejects.toBeInstanceOf(InputError);
});

it("matches", async () => {
  await expect("fixtures/healthy.jsonl").toHaveNoLoopFindings({ atOrAbove: "warning" });
  await expect("fixtures/ping-pong.jsonl").toHaveLoopFinding({ detector: "ping_pong", level: "block", call: 20 });
  await expect(expect("fixtures/ping-pong.jsonl").toHaveNoLoopFindings()).rejects.toThrow(/ping_pong/);
});
`;

function tsconfig(resolution: "node16" | "bundler"): string {
  const module = resolution === "node16" ? "node16" : "esnext";
  return JSON.stringify({ compilerOptions: { target: "es2022", module, moduleResolution: resolution, strict: true, noEmit: true, types: ["node"], skipLibCheck: false }, files: ["loops.test.ts"] });
}

describe("a consumer project built from the packed tarball", () => {
  it("type-checks under node16 and bundler resolution and runs the analysis and the matchers in vitest", { timeout: 240_000 }, () => {
    const dir = consumerProject();
    const tsc = join(REPO_MODULES, "typescript", "bin", "tsc");
    for (const resolution of ["node16", "bundler"] as const) {
      writeFileSync(join(dir, `tsconfig.${resolution}.json`), tsconfig(resolution));
      expect(() => run(tsc, ["-p", `tsconfig.${resolution}.json`], dir), resolution).not.toThrow();
    }
    const output = run(join(REPO_MODULES, "vitest", "vitest.mjs"), ["run", "--reporter=verbose", "loops.test.ts"], dir);
    expect(output).toMatch(/Tests\s+2 passed/);
  });
});
