/**
 * Cleanups for a process that ends early (earlyEnd.ts): run on SIGTERM, after which the process
 * still ends by the signal; and no listener is left once nothing is registered.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";
import { cleanUpOnEarlyEnd } from "../../src/pipeline/earlyEnd.js";
import { ROOT } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

it("listens to exit and the signals only while something is registered", () => {
  const before = ["exit", "SIGINT", "SIGTERM", "SIGHUP"].map((event) => process.listenerCount(event));
  const forgetFirst = cleanUpOnEarlyEnd(() => {});
  const forgetSecond = cleanUpOnEarlyEnd(() => {});
  expect(process.listenerCount("SIGTERM")).toBe(before[2]! + 1);
  forgetFirst();
  expect(process.listenerCount("SIGINT")).toBe(before[1]! + 1);
  forgetSecond();
  forgetSecond(); // twice is harmless
  expect(["exit", "SIGINT", "SIGTERM", "SIGHUP"].map((event) => process.listenerCount(event))).toEqual(before);
});

it("a signal runs the cleanups, then ends the process by that signal", () => {
  const marker = join(tempDir("looplens-early-end-"), "cleaned");
  // The compiled module (npm test builds dist/ first), in a process of its own that is sent SIGTERM.
  const module = pathToFileURL(join(ROOT, "dist/pipeline/earlyEnd.js")).href;
  const script = `import { writeFileSync } from "node:fs"; import { cleanUpOnEarlyEnd } from ${JSON.stringify(module)};
    cleanUpOnEarlyEnd(() => writeFileSync(${JSON.stringify(marker)}, "")); setTimeout(() => {}, 60000); process.kill(process.pid, "SIGTERM");`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000, killSignal: "SIGKILL" }); // not re-raised: killed at the timeout
  expect(result.signal).toBe("SIGTERM");
  expect(existsSync(marker)).toBe(true);
});
