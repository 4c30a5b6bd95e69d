/**
 * The package as a user gets it: packed, unpacked into a separate project's node_modules (its
 * dependencies, typescript and vitest linked from this repo's: no network), type-checked under
 * `moduleResolution` node16 and bundler, and a vitest test there using `analyze`, `format` and the
 * matchers run; a jest test's use of `looplens/jest` type-checks against @types/jest, and the
 * matchers run on jest's own `expect` (jest's runner itself is not installed here). Everything
 * lives in a temp folder removed after the file.
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
  writeFileSync(join(dir, "loops.jest.ts"), JEST_TYPES);
  copyFileSync(join(ROOT, "docs", "examples", "jest.ts"), join(dir, "docs-example.jest.ts"));
  writeFileSync(join(dir, "jest-run.mjs"), JEST_RUN);
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

/** A jest test as a jest user writes it (@types/jest's globals): type-checked only, jest itself is not here. */
const JEST_TYPES = `import "looplens/jest";
import type { LoopFindingQuery } from "looplens/jest";

test("loops", async () => {
  await expect("fixtures/healthy.jsonl").toHaveNoLoopFindings({ atOrAbove: "warning" });
  await expect("fixtures/ping-pong.jsonl").toHaveLoopFinding({ detector: "ping_pong", level: "block", call: 20 });
  await expect("fixtures/ping-pong.jsonl").not.toHaveLoopFinding({ detector: "generic_repeat" });
  const query: LoopFindingQuery = { detector: "ping_pong" };
  await expect(["fixtures/ping-pong.jsonl"]).toHaveLoopFinding(query, { maxLineBytes: 1 << 20 });
  // @ts-expect-error: no such detector (the matchers are typed, not any)
  await expect("fixtures/ping-pong.jsonl").toHaveLoopFinding({ detector: "ping-pong" });
});
`;

/** looplens/jest run on jest's own expect (the \`expect\` package), where jest puts it: on the global. */
const JEST_RUN = `import { expect } from "expect";
globalThis.expect = expect;
await import("looplens/jest");
await expect("fixtures/healthy.jsonl").toHaveNoLoopFindings();
await expect("fixtures/ping-pong.jsonl").toHaveLoopFinding({ detector: "ping_pong", level: "block", call: 20 });
const message = await expect("fixtures/ping-pong.jsonl").toHaveNoLoopFindings().then(() => "", (error) => error.message);
if (!/but it has 11:[\\s\\S]*ping_pong/.test(message)) throw new Error("no failure with the findings table: " + message);
console.log("jest matchers ok");
`;

function tsconfig(resolution: "node16" | "bundler", test: "vitest" | "jest" = "vitest"): string {
  const module = resolution === "node16" ? "node16" : "esnext";
  const types = test === "jest" ? ["node", "jest"] : ["node"];
  const files = test === "jest" ? ["loops.jest.ts", "docs-example.jest.ts"] : ["loops.test.ts"];
  return JSON.stringify({ compilerOptions: { target: "es2022", module, moduleResolution: resolution, strict: true, noEmit: true, types, skipLibCheck: false }, files });
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

    // looplens/jest: typed on @types/jest's Matchers under both resolutions, and run on jest's expect.
    for (const resolution of ["node16", "bundler"] as const) {
      writeFileSync(join(dir, `tsconfig.jest.${resolution}.json`), tsconfig(resolution, "jest"));
      expect(() => run(tsc, ["-p", `tsconfig.jest.${resolution}.json`], dir), `jest, ${resolution}`).not.toThrow();
    }
    expect(run("jest-run.mjs", [], dir)).toBe("jest matchers ok\n");
  });
});
