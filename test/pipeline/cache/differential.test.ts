/**
 * The cache never changes what looplens prints: over random histories of edits to a folder of every
 * kind of input (appends, truncations, same-size rewrites with the modification time put back, in
 * the middle of a file over 128 KiB and at its ends, renames, deletions, config file and `--set`
 * changes, profile changes, `--since`/`--until` windows, corrupted and truncated entries), every format of `analyze` with the
 * cache equals the same command without it, output, diagnostics and exit status. A JSON output made
 * again after one unit grew splices the kept one (outputSplice.ts): the splice is checked to be used
 * then, and not after another listing or config.
 */
import { appendFileSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandUnits } from "../../../src/adapters/discovery.js";
import { readUsage } from "../../../src/pipeline/cache/cacheUsage.js";
import { cutPack, replaceEntry, storedEntries } from "./storedEntries.js";
import { prng } from "../../helpers/randomSessions.js";
import { tempDir } from "../../helpers/tempDir.js";
import { BIG_FILE, FORK_FAMILY, PAIRED_SESSION, bothWays, expectSameEveryFormat, makeInputs } from "./cacheBench.js";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Text inputs (the SQLite store is binary: it is only touched). */
const textFiles = (inputs: string) => filesUnder(inputs).filter((file) => !file.endsWith(".sqlite") && !file.endsWith(".json5"));

/** Replaces one byte at `at` by another of the same class (a digit by a digit, a letter by a letter), keeping the size and both times. */
function rewriteByte(file: string, at: number): void {
  const bytes = readFileSync(file);
  const { atime, mtime } = statSync(file);
  const byte = bytes[at]!;
  const isDigit = byte >= 0x30 && byte <= 0x39;
  const isLower = byte >= 0x61 && byte <= 0x7a;
  bytes[at] = isDigit ? 0x30 + ((byte - 0x30 + 1) % 10) : isLower ? 0x61 + ((byte - 0x61 + 1) % 26) : byte;
  writeFileSync(file, bytes);
  utimesSync(file, atime, mtime);
}

/** A position of a letter or digit in `[from, to)` of the file (an edit that keeps the JSON valid enough to matter). */
function editablePosition(file: string, random: () => number, from: number, to: number): number {
  const bytes = readFileSync(file);
  for (let tries = 0; tries < 200; tries++) {
    const at = from + Math.floor(random() * (to - from));
    if (/[0-9a-z]/.test(String.fromCharCode(bytes[at]!))) return at;
  }
  return from;
}

type Edit = (inputs: string, random: () => number, state: { args: string[]; config: string; cacheDir: string }) => string;

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const EDITS: Record<string, Edit> = {
  append(inputs, random) {
    const file = pick(textFiles(inputs), random);
    const lines = readFileSync(file, "utf8").split("\n").filter((line) => line !== "");
    appendFileSync(file, `${pick(lines, random)}\n${pick(lines, random)}\n`);
    return `append to ${file}`;
  },
  truncate(inputs, random) {
    const file = pick(textFiles(inputs), random);
    truncateSync(file, Math.floor(statSync(file).size * (0.3 + 0.6 * random())));
    return `truncate ${file}`;
  },
  rewriteMiddle(inputs, random) {
    const file = join(inputs, BIG_FILE);
    const size = statSync(file).size;
    rewriteByte(file, editablePosition(file, random, 70_000, size - 70_000));
    return "same-size rewrite in the middle of the big file, times kept";
  },
  rewriteEnds(inputs, random) {
    const file = random() < 0.5 ? join(inputs, BIG_FILE) : pick(textFiles(inputs), random);
    const size = statSync(file).size;
    const head = random() < 0.5;
    rewriteByte(file, editablePosition(file, random, head ? 0 : Math.max(0, size - 60_000), head ? Math.min(size, 60_000) : size));
    return `same-size rewrite at an end of ${file}, times kept`;
  },
  rename(inputs, random) {
    const file = pick(textFiles(inputs), random);
    const renamed = file.endsWith(".jsonl") ? file.replace(/\.jsonl$/, `.r${Math.floor(random() * 1000)}.jsonl`) : `${file}.1.log`;
    renameSync(file, renamed);
    return `rename ${file}`;
  },
  delete(inputs, random) {
    const files = textFiles(inputs).filter((file) => !file.endsWith("big.jsonl"));
    const file = pick(files, random);
    if (files.length > 4) rmSync(file);
    return `delete ${file}`;
  },
  touchStore(inputs) {
    const store = filesUnder(inputs).find((file) => file.endsWith(".sqlite"))!;
    const later = new Date(statSync(store).mtimeMs + 5000);
    utimesSync(store, later, later);
    return "touch the SQLite store";
  },
  config(_inputs, random, state) {
    writeFileSync(state.config, `{ tools: { loopDetection: { enabled: true, warningThreshold: ${3 + Math.floor(random() * 8)}, criticalThreshold: 25 } }, agents: { list: [{ id: "ops", tools: { loopDetection: { warningThreshold: ${4 + Math.floor(random() * 5)} } } }] } }\n`);
    state.args = state.args.filter((arg) => arg !== "--config" && arg !== state.config).concat(["--config", state.config]);
    return "config file changed";
  },
  set(_inputs, random, state) {
    // Under --profile newest a threshold set on the command line is an error (every run would be one).
    if (state.args.includes("newest")) return "no --set under --profile newest";
    const at = state.args.indexOf("--set");
    if (at >= 0) state.args.splice(at, 2);
    state.args.push("--set", `criticalThreshold=${12 + Math.floor(random() * 10)}`);
    return `--set ${state.args.at(-1)}`;
  },
  profile(_inputs, random, state) {
    const at = state.args.indexOf("--profile");
    if (at >= 0) state.args.splice(at, 2);
    const profile = pick(["newest", "auto", "configurable", "none"], random);
    if (profile !== "none") state.args.push("--profile", profile);
    const set = state.args.indexOf("--set");
    if (profile === "newest" && set >= 0) state.args.splice(set, 2);
    return `profile ${profile}`;
  },
  window(_inputs, random, state) {
    // Units whose cached runs all fall outside --since/--until are counted unread (runWindow.ts).
    for (const flag of ["--since", "--until"]) {
      const at = state.args.indexOf(flag);
      if (at >= 0) state.args.splice(at, 2);
    }
    const window = pick([[], ["--since", "2026-05-02"], ["--until", "2026-05-01T12:00:00Z"], ["--since", "2030-01-01"]], random);
    state.args.push(...window);
    return `window ${window.join(" ") || "none"}`;
  },
  corruptEntry(_inputs, random, state) {
    const entries = storedEntries(state.cacheDir);
    if (entries.length === 0) return "no entry to corrupt";
    const entry = pick(entries, random);
    const bytes = entry.bytes();
    const how = pick(["truncate", "flip", "garbage", "empty", "no stamp", "pack cut", "index garbage"], random);
    if (how === "truncate") replaceEntry(state.cacheDir, entry, bytes.subarray(0, Math.floor(bytes.length * random())));
    if (how === "flip") {
      const at = Math.floor(bytes.length * random());
      bytes[at] = bytes[at]! ^ 0x01;
      replaceEntry(state.cacheDir, entry, bytes);
    }
    if (how === "garbage") replaceEntry(state.cacheDir, entry, Buffer.from("not an entry at all\n#0000000000000000\n"));
    if (how === "empty") replaceEntry(state.cacheDir, entry, Buffer.alloc(0));
    if (how === "no stamp") replaceEntry(state.cacheDir, entry, bytes.subarray(bytes.indexOf(10) + 1));
    if (how === "pack cut") cutPack(entry, random());
    if (how === "index garbage") writeFileSync(join(state.cacheDir, "index.json"), '{"format":1,"entries":{"');
    return `corrupt entry (${how})`;
  },
  nothing() {
    return "no change";
  },
};

describe("the result cache, differentially", () => {
  for (const seed of [1, 2]) {
    it(`prints what looplens prints without it, over a random history of edits (seed ${seed})`, async () => {
      const root = tempDir("looplens-cache-diff-");
      const inputs = makeInputs(root);
      const random = prng(seed);
      const state = { args: [] as string[], config: join(root, "openclaw.json5"), cacheDir: join(root, "cache") };
      // Under seed 2 every one-file unit keeps a point to resume from (by default only files of 1 MiB and more):
      // grown files then resume through every other kind of edit (resumeUnit.test.ts has the appends in detail).
      const env = seed === 2 ? { LOOPLENS_CACHE_RESUME_MIN_BYTES: "0" } : {};
      let hits = 0;
      let lastAt = 0;
      const history: string[] = [];
      await expectSameEveryFormat([...state.args, inputs], state.cacheDir, "cold", env);
      // Every kind of edit, in a random order, after a first run on the unchanged folder; then a few more.
      const names = ["nothing", ...shuffled(Object.keys(EDITS), random), ...Array.from({ length: 3 }, () => pick(Object.keys(EDITS), random))];
      for (const [step, name] of names.entries()) {
        const what = EDITS[name]!(inputs, random, state);
        history.push(what);
        // A later write must be told by its time: wait out the clock tick of the one before.
        await new Promise((resolve) => setTimeout(resolve, 20));
        await expectSameEveryFormat([...state.args, inputs], state.cacheDir, `step ${step}: ${what}`, env);
        const last = readUsage(state.cacheDir)?.last;
        expect(last?.at, "the cache was used").toBeGreaterThan(lastAt);
        lastAt = last!.at;
        if (name === "nothing") expect(last?.misses, `an unchanged folder is all hits, after: ${history.join("; ")}`).toBe(0);
        hits += last?.hits ?? 0;
      }
      expect(hits).toBeGreaterThan(0);
    }, 600_000);
  }

  // The splice (outputSplice.ts) needs a folder without Gateway logs: their live runs end the runs array.
  for (const seed of [3, 4]) {
    it(`splices the kept JSON and NDJSON outputs after a unit changed, and only then, over a random history of edits (seed ${seed})`, async () => {
      const root = tempDir("looplens-cache-splice-");
      const inputs = makeInputs(root);
      rmSync(join(inputs, "gateway"), { recursive: true });
      const random = prng(seed);
      const state = { args: [] as string[], config: join(root, "openclaw.json5"), cacheDir: join(root, "cache") };
      // Seed 4 with runs spilled to disk (a unit's runs read back from the spill file, and its entry's runs past the budget).
      const env = seed === 4 ? { LOOPLENS_PLAIN_RUNS_IN_MEMORY: "3", LOOPLENS_FINDINGS_IN_MEMORY: "5" } : {};
      // JSON and NDJSON, each its own kept output: the units spliced by both.
      const json = async (why: string) => {
        let spliced = Infinity;
        for (const format of ["json", "ndjson"]) {
          const { cached, fresh } = await bothWays(["analyze", "-f", format, ...state.args, inputs], state.cacheDir, env);
          expect(cached.stdout, `${why} (${format})`).toBe(fresh.stdout);
          expect(cached.stderr, `${why} (${format}, stderr)`).toBe(fresh.stderr);
          expect(cached.status, `${why} (${format}, status)`).toBe(fresh.status);
          spliced = Math.min(spliced, readUsage(state.cacheDir)?.last?.spliced ?? 0);
        }
        return spliced;
      };
      const grow = (): string => {
        const file = pick(textFiles(inputs), random);
        const lines = readFileSync(file, "utf8").split("\n").filter((line) => line !== "");
        appendFileSync(file, `${pick(lines, random)}\n`);
        return `append to ${file}`;
      };
      // Edits after which nothing may be spliced: another listing (a file added or removed), or other configs.
      const elsewhere: Record<string, () => string> = {
        add: () => {
          const file = pick(textFiles(inputs).filter((name) => name.endsWith(".jsonl")), random);
          writeFileSync(file.replace(/\.jsonl$/, `.copy${Math.floor(random() * 1000)}.jsonl`), readFileSync(file));
          return `copy ${file}`;
        },
        delete: () => EDITS.delete!(inputs, random, state),
        // Without agent overrides: a header naming those reads every run, and such an output is never kept (reportCache.ts).
        config: () => {
          writeFileSync(state.config, `{ tools: { loopDetection: { enabled: true, warningThreshold: ${3 + Math.floor(random() * 8)}, criticalThreshold: 25 } } }\n`);
          if (!state.args.includes("--config")) state.args.push("--config", state.config);
          return "config file changed";
        },
        set: () => EDITS.set!(inputs, random, state),
      };
      expect(await json("cold"), "nothing kept to splice").toBe(0);
      const history: string[] = [];
      for (let step = 0; step < 10; step++) {
        const name = step % 2 === 0 ? "grow" : pick(Object.keys(elsewhere), random);
        history.push(name === "grow" ? grow() : elsewhere[name]!());
        await new Promise((resolve) => setTimeout(resolve, 20));
        const spliced = await json(`step ${step}: ${history.join("; ")}`);
        if (name === "grow") {
          expect(spliced, `the other units' runs are the kept bytes, after: ${history.join("; ")}`).toBeGreaterThan(5);
          // The spliced output was kept as it was written: the same command again prints it.
          expect(await json(`again after: ${history.join("; ")}`)).toBe(0);
          expect(readUsage(state.cacheDir)?.last?.misses, "a hit of the kept output").toBe(0);
        } else expect(spliced, `no splice after: ${history.join("; ")}`).toBe(0);
      }
    }, 600_000);
  }

  it("splices whole and fractional costs alike: the summary's money is the same sum either way (exactSum.ts)", async () => {
    for (const costs of [[2], [0.1, 0.2, 0.7, 0.013, 0.0031, 1.1, 0.37]]) {
      const cost = costs.join("/");
      const root = tempDir("looplens-cache-splice-cost-");
      const inputs = makeInputs(root);
      rmSync(join(inputs, "gateway"), { recursive: true });
      // Every OpenClaw model turn records a cost (USD), in turn from `costs`. Fractions splice too: the
      // summary's money is an exact sum, whatever the grouping (test/commands/usage.cli.test.ts shows a
      // grouping that plain floating point rounds differently; test/core/exactSum.test.ts the sum).
      const sessions = textFiles(inputs).filter((file) => file.includes(join("agents", "main", "sessions")));
      let turn = 0;
      const next = () => costs[turn++ % costs.length];
      for (const file of sessions) writeFileSync(file, readFileSync(file, "utf8").replaceAll('"totalTokens":1280}', () => `"totalTokens":1280,"cost":{"total":${next()}}}`));
      const cacheDir = join(root, "cache");
      const json = async (why: string) => {
        const { cached, fresh } = await bothWays(["analyze", "-f", "json", inputs], cacheDir);
        expect(cached.stdout, why).toBe(fresh.stdout);
        expect(fresh.stdout, "the cost is in the summary").toContain(`"cost": `);
        return readUsage(cacheDir)?.last?.spliced ?? 0;
      };
      await json(`cold, cost ${cost}`);
      appendFileSync(join(inputs, "events", "healthy.jsonl"), readFileSync(join(inputs, "events", "healthy.jsonl"), "utf8").split("\n")[0] + "\n");
      await new Promise((resolve) => setTimeout(resolve, 20));
      const spliced = await json(`grown, cost ${cost}`);
      expect(spliced, `cost ${cost}: spliced`).toBeGreaterThan(5);
    }
  }, 600_000);

  it("keeps a fork family and a paired session as one unit each: an edit to any of their files reads the whole unit again", async () => {
    const root = tempDir("looplens-cache-units-");
    const inputs = makeInputs(root);
    const cacheDir = join(root, "cache");
    const units = await expandUnits([inputs]);
    const unitOf = (name: string) => units.filter((unit) => unit.some((file) => file.includes(name)));
    const family = unitOf(FORK_FAMILY[0]);
    expect(family).toHaveLength(1);
    expect(family[0]!.map((file) => file.slice(file.lastIndexOf("/") + 1))).toEqual(FORK_FAMILY.map((session) => `${session}.jsonl`));
    const paired = unitOf(PAIRED_SESSION);
    expect(paired).toHaveLength(1);
    expect(paired[0]).toHaveLength(3);
    await expectSameEveryFormat([inputs], cacheDir, "cold");
    await expectSameEveryFormat([inputs], cacheDir, "warm");
    expect(readUsage(cacheDir)?.last?.misses).toBe(0);
    // The fork's own file, then the sidecar: each edit is one miss (the whole unit), and the same output as without the cache.
    for (const file of [family[0]![1]!, paired[0]!.find((path) => path.endsWith(".trajectory.jsonl"))!]) {
      const lines = readFileSync(file, "utf8").split("\n").filter((line) => line !== "");
      appendFileSync(file, `${lines.at(-1)}\n`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { cached, fresh } = await bothWays(["analyze", "--all", "-f", "json", inputs], cacheDir);
      expect(cached.stdout, file).toBe(fresh.stdout);
      expect(readUsage(cacheDir)?.last, file).toMatchObject({ hits: units.length - 1, misses: 1 });
      await expectSameEveryFormat([inputs], cacheDir, `appended to ${file}`);
    }
  }, 600_000);
});
