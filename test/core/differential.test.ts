/**
 * Differential test: looplens' detector core against an independent reference model of the spec
 * (test/reference/model.ts), over seeded random sessions (test/reference/generator.ts) and several
 * configs each. In-process for the bulk; a smaller sample goes through the real CLI (`--format
 * ndjson`, one folder) so the adapters, config file handling and reporter are covered too.
 *
 * Reproduce a failure: DIFF_SEED=<seed> npx vitest run test/differential.test.ts
 * More cases:          DIFF_SESSIONS=20000 npx vitest run test/differential.test.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnitHistory, LineTally } from "../../src/adapters/adapter.js";
import type { LoopEvent } from "../../src/core/events.js";
import { canonicalEventsAdapter } from "../../src/adapters/events/canonicalEvents.js";
import { textSource } from "../../src/adapters/io/sources.js";
import { resolveConfig, type RawBlock } from "../../src/core/config.js";
import type { Finding } from "../../src/core/findings.js";
import { createHashing, type Hashing } from "../../src/core/hashing.js";
import { EventPreparer, type PreparedEvent } from "../../src/core/prepare.js";
import { Replayer } from "../../src/core/replay.js";
import { loadXxhashDigest } from "../../src/core/xxhashDigest.js";
import { ndjsonFindings, runCli } from "../helpers/cli.js";
import { generateConfigs, generateFile, type GeneratedConfig } from "../reference/generator.js";
import { readModelFile, replayModel, replayModelSteps, type ModelConfigInput, type ModelFinding } from "../reference/model.js";

const SINGLE_SEED = process.env.DIFF_SEED !== undefined ? Number(process.env.DIFF_SEED) : undefined;
const SESSIONS = SINGLE_SEED !== undefined ? 1 : Number(process.env.DIFF_SESSIONS ?? 2000);
const FIRST_SEED = SINGLE_SEED ?? 1;
const CLI_SESSIONS = 50;
const CLI_FIRST_SEED = 100_000;

type Compared = Pick<ModelFinding, "run" | "call" | "level" | "detector" | "count" | "afterStop">;

function comparable(f: Compared): Compared {
  return { run: f.run, call: f.call, level: f.level, detector: f.detector, count: f.count, afterStop: f.afterStop };
}

function key(f: Compared): string {
  return `${f.run} call ${f.call} ${f.level} ${f.detector} count=${f.count}${f.afterStop ? " afterStop" : ""}`;
}

/** Findings grouped per run, each run's list in its own order (runs may interleave in a file). */
function byRun(findings: readonly Compared[]): Map<string, string[]> {
  const runs = new Map<string, string[]>();
  for (const f of findings) {
    const list = runs.get(f.run) ?? [];
    list.push(key(comparable(f)));
    runs.set(f.run, list);
  }
  return runs;
}

/** A minimal diff: per run, the first position where the two lists differ and a little after it. */
function diff(expected: readonly Compared[], actual: readonly Compared[]): string | undefined {
  const want = byRun(expected);
  const got = byRun(actual);
  const lines: string[] = [];
  for (const run of new Set([...want.keys(), ...got.keys()])) {
    const a = want.get(run) ?? [];
    const b = got.get(run) ?? [];
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    if (i === a.length && i === b.length) continue;
    lines.push(`  run ${run}: first difference at finding #${i + 1} (model ${a.length}, looplens ${b.length})`);
    for (let k = i; k < Math.max(a.length, b.length) && k < i + 3; k++) {
      lines.push(`    model:    ${a[k] ?? "(none)"}`);
      lines.push(`    looplens: ${b[k] ?? "(none)"}`);
    }
  }
  return lines.length > 0 ? lines.join("\n") : undefined;
}

function blocksFor(config: ModelConfigInput, agent: string | null): RawBlock[] {
  const blocks: RawBlock[] = [];
  if (config.global) blocks.push({ origin: "test", source: "global", values: { ...config.global } });
  const override = agent !== null ? config.agents?.[agent] : undefined;
  if (override) blocks.push({ origin: "test", source: "agent", values: { ...override } });
  return blocks;
}

/** The same config as an OpenClaw config file, for the CLI. */
function configFileText(config: ModelConfigInput): string {
  const list = Object.entries(config.agents ?? {}).map(([id, block]) => ({ id, tools: { loopDetection: block } }));
  return JSON.stringify({ tools: { loopDetection: config.global ?? {} }, agents: { list } });
}

interface Tally {
  sessions: number;
  replays: number;
  findings: number;
  cliReplays: number;
  cliFindings: number;
  byDetector: Map<string, number>;
  afterStop: number;
}

const tally: Tally = { sessions: 0, replays: 0, findings: 0, cliReplays: 0, cliFindings: 0, byDetector: new Map(), afterStop: 0 };

function count(findings: readonly ModelFinding[], viaCli = false): void {
  if (viaCli) {
    tally.cliReplays++;
    tally.cliFindings += findings.length;
    return;
  }
  tally.replays++;
  tally.findings += findings.length;
  for (const f of findings) {
    const name = `${f.detector}/${f.level}`;
    tally.byDetector.set(name, (tally.byDetector.get(name) ?? 0) + 1);
    if (f.afterStop) tally.afterStop++;
  }
}

/** looplens' own pipeline for one file, in memory: canonical events adapter → preparer (hashing, linking). */
async function prepareText(name: string, text: string): Promise<PreparedEvent[]> {
  const preparer = new EventPreparer(hashing);
  const prepared: PreparedEvent[] = [];
  await canonicalEventsAdapter.read(textSource(name, text), {
    tally: new LineTally(),
    unit: new UnitHistory([name], false),
    options: {},
    emit(event) {
      const disposition = preparer.prepare(event as LoopEvent);
      if (disposition.used) prepared.push(disposition.prepared);
      return disposition;
    },
  });
  return prepared;
}

function replayLooplens(prepared: readonly PreparedEvent[], config: ModelConfigInput): Finding[] {
  const replayer = new Replayer((agent) => resolveConfig(blocksFor(config, agent)).config);
  for (const event of prepared) replayer.push(event);
  return replayer.finish().flatMap((run) => [...run.findings]);
}

const EVERY_FINDING_KIND = [
  "generic_repeat/warning",
  "generic_repeat/critical",
  "known_poll_no_progress/warning",
  "known_poll_no_progress/critical",
  "ping_pong/warning",
  "ping_pong/critical",
  "unknown_tool_repeat/critical",
  "global_circuit_breaker/critical",
  "compaction_loop_persisted/abort",
];

/** The CLI run's configs: the looplens default (no --config) first, then config files. */
const CLI_CONFIG_KINDS = ["defaults, enabled", "small thresholds", "agent overrides", "enabled unset (guard only)"];

function cliConfigs(): GeneratedConfig[] {
  const byLabel = new Map<string, GeneratedConfig>();
  for (let seed = CLI_FIRST_SEED; byLabel.size < CLI_CONFIG_KINDS.length; seed++) {
    for (const config of generateConfigs(seed)) if (CLI_CONFIG_KINDS.includes(config.label) && !byLabel.has(config.label)) byLabel.set(config.label, config);
  }
  return CLI_CONFIG_KINDS.map((label) => byLabel.get(label)!);
}

let dir: string;
let hashing: Hashing;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "looplens-diff-"));
  hashing = createHashing(await loadXxhashDigest());
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  const detectors = [...tally.byDetector.entries()].sort().map(([k, v]) => `${k}=${v}`).join(" ");
  console.log(
    `differential: in-process ${tally.sessions} sessions, ${tally.replays} replays, ${tally.findings} findings compared ` +
      `(${tally.afterStop} after stop; ${detectors}); CLI ${tally.cliReplays} replays, ${tally.cliFindings} findings compared`,
  );
});

describe("looplens agrees with the reference model of detection.md", () => {
  it(`in-process, ${SESSIONS} random sessions × several configs`, async () => {
    const failures: string[] = [];
    for (let seed = FIRST_SEED; seed < FIRST_SEED + SESSIONS && failures.length < 5; seed++) {
      const file = generateFile(seed);
      const prepared = await prepareText(file.name, file.text);
      const steps = readModelFile(file.text, file.name.replace(/\.jsonl$/, ""));
      tally.sessions++;
      for (const { label, config } of generateConfigs(seed)) {
        const expected = replayModelSteps(steps, config);
        // Replayed findings always have a run and a call (only live ones from Gateway logs lack them).
        const actual = replayLooplens(prepared, config).map((f) => ({ ...f, run: f.run ?? "", call: f.call ?? 0 }));
        count(expected);
        const difference = diff(expected, actual);
        if (difference) failures.push(`seed ${seed}, config "${label}" ${JSON.stringify(config)}:\n${difference}`);
      }
    }
    expect(failures.join("\n\n")).toBe("");
    if (SINGLE_SEED !== undefined) return;
    // The comparison means something only if the sessions make every detector and the guard fire.
    for (const name of EVERY_FINDING_KIND) expect(tally.byDetector.get(name) ?? 0, name).toBeGreaterThanOrEqual(20);
    expect(tally.afterStop).toBeGreaterThan(100);
  }, Math.max(120_000, SESSIONS * 100));

  it.skipIf(SINGLE_SEED !== undefined)(`through the CLI (--format ndjson), ${CLI_SESSIONS} sessions in one folder`, () => {
    const folder = join(dir, "cli");
    rmSync(folder, { recursive: true, force: true });
    const files = Array.from({ length: CLI_SESSIONS }, (_, i) => generateFile(CLI_FIRST_SEED + i));
    const configs = cliConfigs();
    mkdirSync(folder);
    for (const file of files) writeFileSync(join(folder, file.name), file.text);

    const failures: string[] = [];
    configs.forEach(({ label, config }, index) => {
      const args = ["analyze", folder, "--format", "ndjson"];
      if (index > 0) {
        const configPath = join(dir, `config-${index}.json`);
        writeFileSync(configPath, configFileText(config));
        args.push("--config", configPath);
      }
      const cli = runCli(args);
      expect(cli.status, cli.stderr).toBe(0);
      const actual = ndjsonFindings(cli.stdout) as unknown as Array<Compared & { file: string }>;
      for (const file of files) {
        const expected = replayModel(file.text, file.name.replace(/\.jsonl$/, ""), config);
        count(expected, true);
        const difference = diff(expected, actual.filter((f) => basename(f.file) === file.name));
        if (difference) failures.push(`CLI, ${file.name}, config "${label}" ${JSON.stringify(config)}:\n${difference}`);
      }
    });
    expect(failures.slice(0, 5).join("\n\n")).toBe("");
  }, 120_000);
});
