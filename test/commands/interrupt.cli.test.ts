/**
 * An interrupted run leaves nothing half-done: SIGINT or SIGTERM sent to the real CLI in the middle
 * of a large analysis (its runs already spilling to disk, its `-o` report being written) ends it as
 * killed by that signal, with the old report as it was, no temporary report file beside it, and no
 * spill folder left in its temporary directory (pipeline/earlyEnd.ts, reportFile.ts, spillFiles.ts).
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT } from "../helpers/cli.js";
import { tempDir } from "../helpers/tempDir.js";

const OLD_REPORT = "the old report\n";
/** Enough runs that the analysis is still going when its spill file has grown past its first batch. */
const RUNS = 6000;

let input: string;

beforeAll(() => {
  input = join(tempDir("looplens-interrupt-input-"), "many.jsonl");
  const run = readFileSync(join(ROOT, "fixtures/poll-loop.jsonl"), "utf8");
  const fd = openSync(input, "w");
  for (let i = 0; i < RUNS; i++) writeSync(fd, run.replaceAll('"poll-1"', `"poll-${i}"`));
  closeSync(fd);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The spill files in the child's temporary directory, and their bytes. */
function spilledBytes(tmp: string): number {
  let bytes = 0;
  for (const folder of readdirSync(tmp).filter((name) => name.startsWith("looplens-runs-"))) {
    for (const file of readdirSync(join(tmp, folder))) bytes += statSync(join(tmp, folder, file)).size;
  }
  return bytes;
}

/** The CLI analysing the large input with `extra` arguments, its runs spilling to disk in `tmp` after the first ten. */
function startAnalysis(extra: readonly string[], tmp: string) {
  const child = spawn(process.execPath, [BIN, input, "-f", "json", ...extra], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, TMPDIR: tmp, LOOPLENS_PLAIN_RUNS_IN_MEMORY: "10", LOOPLENS_FINDINGS_IN_MEMORY: "10" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let ended = false;
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  void exited.then(() => (ended = true));
  return {
    /** Sends `signal` once `midRun()` holds, and resolves to the signal that ended the process. */
    async interruptWhen(midRun: () => boolean, signal: NodeJS.Signals): Promise<NodeJS.Signals | null> {
      while (!midRun()) {
        if (ended) throw new Error(`the analysis ended before it could be interrupted: ${stderr}`);
        await sleep(20);
      }
      child.kill(signal);
      return exited;
    },
    stderr: () => stderr,
  };
}

describe("a run interrupted mid-way", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal}: ends by the signal, the old -o report intact, no temporary file, no spill folder`, async () => {
      const outDir = tempDir("looplens-interrupt-out-");
      const tmp = tempDir("looplens-interrupt-tmp-");
      const out = join(outDir, "report.json");
      writeFileSync(out, OLD_REPORT);
      const analysis = startAnalysis(["-o", out], tmp);
      // Mid-run: the report's temporary file is open beside it and the spill file is past its first batch.
      const endedBy = await analysis.interruptWhen(() => readdirSync(outDir).some((name) => name.endsWith(".tmp")) && spilledBytes(tmp) > 1 << 20, signal);
      expect(endedBy, analysis.stderr()).toBe(signal);
      expect(readFileSync(out, "utf8")).toBe(OLD_REPORT);
      expect(readdirSync(outDir)).toEqual(["report.json"]);
      expect(readdirSync(tmp)).toEqual([]);
    }, 120_000);
  }

  it("without -o, the spill folder goes too", async () => {
    const tmp = tempDir("looplens-interrupt-tmp-");
    const analysis = startAnalysis([], tmp);
    expect(await analysis.interruptWhen(() => spilledBytes(tmp) > 1 << 20, "SIGTERM")).toBe("SIGTERM");
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);
});
