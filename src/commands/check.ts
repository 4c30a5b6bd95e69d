/**
 * `looplens check [paths…] [--update]`: snapshot testing for transcript fixtures. Each input file
 * is analysed and compared with `<input>.looplens.json`; a difference prints a unified diff and
 * makes the exit status 1. A missing snapshot is a difference too (CI must not pass on a fixture
 * nobody recorded), unless `--update`, which writes every snapshot that is missing or differs.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { expandPaths, forkGroups, fragmentsOf, fragmentUnits, InputError } from "../adapters/discovery.js";
import type { ResolvedConfig } from "../core/config.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import { diffLines, unifiedHunks } from "../reporters/lineDiff.js";
import { sanitize } from "../reporters/sanitize.js";
import { snapshotChanges, type CheckedFixture, type CheckTally } from "../reporters/checkReport.js";
import { failureLines } from "../reporters/failureLines.js";
import { REPORTERS } from "../reporters/index.js";
import type { Digest } from "../core/hashing.js";
import type { FailOnOptions } from "./failOn.js";
import { useColor, type OutputOptions } from "./output.js";
import { buildSnapshot, currentSnapshot, renderSnapshot } from "../reporters/snapshot.js";
import { analyzeInputs, type SerialCache } from "../pipeline/analysis.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { commandCache, finishCache } from "./cache.js";
import { inputPaths, reportDiagnostics, reportNotices, strictViolation, type CommonOptions, type Io } from "./common.js";
import { appliedAgentOverrides } from "../pipeline/configSummary.js";
import { GateTally } from "../pipeline/gate.js";
import { createConfigResolver, type ConfigResolver } from "../pipeline/configResolution.js";
import { EXIT, UsageError } from "../pipeline/errors.js";

export interface CheckOptions extends CommonOptions, FailOnOptions, OutputOptions {
  update?: boolean;
  /** `--cache`: read and keep results in the result cache (off by default: CI stays self-contained). */
  cache?: boolean;
  format: string;
}

export const SNAPSHOT_SUFFIX = ".looplens.json";

async function readSnapshot(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new InputError(`cannot read snapshot ${path}: ${(error as Error).message}`);
  }
}

/** Compares as data: the old snapshot is re-rendered, so only content differences count and show. */
function compare(input: string, snapshot: string, existing: string | undefined, now: Record<string, unknown>): CheckedFixture {
  const base = { input, snapshot };
  if (existing === undefined) return { ...base, status: "missing" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(existing);
  } catch (error) {
    return { ...base, status: "invalid", reason: (error as Error).message };
  }
  const current = currentSnapshot(parsed);
  const before = renderSnapshot(current);
  const after = renderSnapshot(now);
  if (before === after) return { ...base, status: "unchanged" };
  const hunks = unifiedHunks(diffLines(before.trimEnd().split("\n"), after.trimEnd().split("\n")));
  const old = typeof current === "object" && current !== null && !Array.isArray(current) ? (current as Record<string, unknown>) : {};
  return { ...base, status: "changed", hunks, changes: snapshotChanges(old, now) };
}

/** One fixture: the files analysed together, and the name its snapshot goes by. */
interface CheckInput {
  readonly name: string;
  readonly files: string[];
}

/**
 * What check compares: each file, except that files read as one history are one input, grouped and
 * ordered as analyze reads them: the event files of one OpenHands conversation, named by their
 * folder, and a forked session with the session it was forked from (a Claude Code or Codex fork
 * found beside its parent: shared/forkFamilies.ts), named by the parent.
 *
 * Why a fork is not a fixture of its own beside its parent: the calls it copied were executed once,
 * by the parent. Checked file by file, a loop the parent ran before the fork would be in both
 * snapshots and counted twice by `--fail-on`, and check would report other runs than analyze does
 * for the same paths. So the family has one snapshot, `<parent>.looplens.json`, holding the runs of
 * both sessions (each call once, the copies counted as duplicates); renaming or removing one file
 * of the family shows as a difference there. A fork named alone is read alone, as analyze reads a
 * file named alone: its own fixture, the copied calls included.
 */
async function checkInputs(files: readonly string[]): Promise<CheckInput[]> {
  const position = new Map(files.map((file, i) => [file, i]));
  const fragments = fragmentUnits(files);
  const { families, rest } = await forkGroups(fragments.rest);
  const inputs: CheckInput[] = [
    ...fragments.units,
    ...families.map((family) => ({ name: family[0]!, files: family })),
    ...rest.map((file) => ({ name: file, files: [file] })),
  ];
  const first = (input: CheckInput) => Math.min(...input.files.map((file) => position.get(file)!));
  return inputs.sort((a, b) => first(a) - first(b));
}

/** A snapshot an earlier check left beside a fork now checked with its parent is not compared: say so. */
function noteForkSnapshots(inputs: readonly CheckInput[], io: Io, quiet: boolean | undefined): void {
  if (quiet) return;
  for (const input of inputs) {
    for (const fork of input.files.slice(1)) {
      if (fragmentsOf(fork) !== undefined || !existsSync(`${fork}${SNAPSHOT_SUFFIX}`)) continue;
      const note = `${fork} is checked with ${input.name}, the session it was forked from (one snapshot: ${input.name}${SNAPSHOT_SUFFIX}); ${fork}${SNAPSHOT_SUFFIX} is not compared`;
      io.stderr(`looplens: note: ${sanitize(note)}\n`);
    }
  }
}

/** One fixture analysed, snapshotted and compared (or, under `--update`, its snapshot written). */
async function checkOne(input: CheckInput, context: CheckContext): Promise<CheckedFixture> {
  const { options, resolver, digest, io } = context;
  const file = input.name;
  const analysis = await analyzeInputs(input.files, digest, (agent, profile) => resolver.effectiveFor(agent, profile).config, {
    inputFormat: options.inputFormat,
    activeBranch: options.activeBranch,
    maxLineBytes: options.maxLineBytes,
    ...(options.profile !== undefined && { profile: options.profile }),
  }, context.cache);
  context.skipped += analysis.lines.skipped;
  for (const run of analysis.runs) context.gate.add(run);
  reportDiagnostics(io, analysis.diagnostics, analysis.diagnosticsTotal, options.quiet);
  const agentConfigs = new Map<string, ResolvedConfig>(
    options.agent === undefined ? appliedAgentOverrides(resolver, analysis.runs, undefined).map((id) => [id, resolver.effectiveFor(id).config]) : [],
  );
  const snapshot = buildSnapshot({ file, config: resolver.base.config, agentConfigs, lines: analysis.lines, runs: analysis.runs, ...(options.profile !== undefined && { profile: options.profile }) });
  const now = renderSnapshot(snapshot);
  const snapshotPath = `${file}${SNAPSHOT_SUFFIX}`;
  const existing = await readSnapshot(snapshotPath);
  if (!options.update) return compare(file, snapshotPath, existing, snapshot);
  if (existing === now) return { input: file, snapshot: snapshotPath, status: "unchanged" };
  await writeFile(snapshotPath, now).catch((error: Error) => {
    throw new InputError(`cannot write snapshot ${snapshotPath}: ${error.message}`);
  });
  return { input: file, snapshot: snapshotPath, status: existing === undefined ? "created" : "updated" };
}

interface CheckContext {
  readonly options: CheckOptions;
  readonly resolver: ConfigResolver;
  readonly digest: Digest;
  readonly io: Io;
  readonly cache: SerialCache | undefined;
  skipped: number;
  /** What `--fail-on` judges: every fixture's findings. */
  readonly gate: GateTally;
}

export async function runCheck(paths: string[], options: CheckOptions, io: Io, version = ""): Promise<number> {
  const resolver = await createConfigResolver(options);
  const digest = await loadXxhashDigest();
  // A shell glob like `fixtures/*` also names the snapshots themselves: they are not inputs.
  // A transcript store is one input with one snapshot, whatever sessions it holds.
  // With no path, the state directory whatever standard input is: it has no snapshot to compare with.
  const files = (await expandPaths(await inputPaths(paths, io, options.quiet, options.agentHome, false), { expandStores: false })).filter((file) => !file.endsWith(SNAPSHOT_SUFFIX));
  // The event files of an OpenHands conversation are one input (one event a file is no transcript):
  // the `events/` folder, with one snapshot beside it.
  if (files.includes("-")) throw new UsageError("check compares files with their snapshots; standard input has none: name the fixture files or folders");
  if (files.length === 0) throw new UsageError("check: no input files (snapshots *.looplens.json are not inputs)");
  const inputs = await checkInputs(files);
  noteForkSnapshots(inputs, io, options.quiet);
  const reporter = REPORTERS.check[options.format]!;
  const color = { color: useColor(options, io) };
  const update = options.update === true;
  const cache = await commandCache(options.cache === true, io, version);
  // Entries are checked on a resolver of their own (analysisCache.ts): the report's notices stay as without the cache.
  const probe = cache && (await createConfigResolver(options));
  const serialCache = cache && probe && { cache, probe: (agent: string | null, profile: ProfileName) => probe.effectiveFor(agent, profile).config };
  const context: CheckContext = { options, resolver, digest, io, cache: serialCache, skipped: 0, gate: new GateTally({ ...(options.failOn !== undefined && { failOn: options.failOn }) }) };
  const fixtures: CheckedFixture[] = [];
  for (const input of inputs) {
    const fixture = await checkOne(input, context);
    fixtures.push(fixture);
    // The readable form is written fixture by fixture, as each is checked.
    const text = reporter.fixture(fixture, update, color);
    if (text !== "") io.stdout(text);
  }
  reportNotices(io, resolver, options.quiet);
  finishCache(io, cache, "check", options.quiet);
  const count = (...statuses: CheckedFixture["status"][]) => fixtures.filter((f) => statuses.includes(f.status)).length;
  const tally: CheckTally = { fixtures: inputs.length, unchanged: count("unchanged"), changed: count("changed", "invalid"), missing: count("missing"), created: count("created"), updated: count("updated") };
  io.stdout(reporter.report({ version, fixtures, tally, update }, color));

  // Unlike analyze, the table was written fixture by fixture as each was checked (and --update has
  // written its snapshots): --strict's exit 2 follows it. The gates judge what the fixtures hold,
  // none at all included: the snapshots were compared, which is check's work (no "nothing analysed").
  if (strictViolation(io, options, context.skipped)) return EXIT.usage;
  const failures = failureLines(context.gate.finish());
  for (const line of failures) io.stderr(`${line}\n`);
  const differs = !update && tally.changed + tally.missing > 0;
  return differs || failures.length > 0 ? EXIT.findings : EXIT.ok;
}
