/**
 * `looplens check [paths…] [--update]`: snapshot testing for transcript fixtures. Each input file
 * is analysed and compared with `<input>.looplens.json`; a difference prints a unified diff and
 * makes the exit status 1. A missing snapshot is a difference too (CI must not pass on a fixture
 * nobody recorded), unless `--update`, which writes every snapshot that is missing or differs.
 */
import { readFile, writeFile } from "node:fs/promises";
import { Chalk, type ChalkInstance } from "chalk";
import type { Command } from "commander";
import { dirname } from "node:path";
import { expandPaths, InputError } from "../adapters/discovery.js";
import { eventIndex, groupOpenHandsFiles } from "../adapters/openhands/files.js";
import type { ResolvedConfig } from "../core/config.js";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import { diffLines, unifiedHunks } from "../reporters/lineDiff.js";
import { sanitize } from "../reporters/sanitize.js";
import { buildSnapshot, currentSnapshot, renderSnapshot } from "../reporters/snapshot.js";
import { analyzeInputs } from "../pipeline/analysis.js";
import {
  addConfigOptions,
  addInputOptions,
  appliedAgentOverrides,
  inputPaths,
  reportDiagnostics,
  reportNotices,
  strictViolation,
  useColor,
  type CommonOptions,
  type Io,
} from "./common.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { EXIT, UsageError } from "../pipeline/errors.js";

interface CheckOptions extends CommonOptions {
  update?: boolean;
}

export const SNAPSHOT_SUFFIX = ".looplens.json";

type Comparison =
  | { readonly kind: "unchanged" }
  | { readonly kind: "missing" }
  | { readonly kind: "invalid"; readonly reason: string }
  | { readonly kind: "changed"; readonly hunks: string[] };

async function readSnapshot(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new InputError(`cannot read snapshot ${path}: ${(error as Error).message}`);
  }
}

/** Compares as data: the old snapshot is re-rendered, so only content differences count and show. */
function compare(existing: string | undefined, now: string): Comparison {
  if (existing === undefined) return { kind: "missing" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(existing);
  } catch (error) {
    return { kind: "invalid", reason: (error as Error).message };
  }
  const before = renderSnapshot(currentSnapshot(parsed));
  if (before === now) return { kind: "unchanged" };
  return { kind: "changed", hunks: unifiedHunks(diffLines(before.trimEnd().split("\n"), now.trimEnd().split("\n"))) };
}

function colourHunk(line: string, chalk: ChalkInstance): string {
  if (line.startsWith("@@")) return chalk.cyan(line);
  if (line.startsWith("-")) return chalk.red(line);
  if (line.startsWith("+")) return chalk.green(line);
  return line;
}

function describe(file: string, snapshot: string, comparison: Comparison, chalk: ChalkInstance): string[] {
  const name = sanitize(file);
  switch (comparison.kind) {
    case "unchanged":
      return [`${chalk.green("✓")} ${name}`];
    case "missing":
      return [`${chalk.red("✗")} ${name}: no snapshot ${sanitize(snapshot)} (looplens check --update creates it)`];
    case "invalid":
      return [`${chalk.red("✗")} ${name}: snapshot ${sanitize(snapshot)} is not valid JSON (${sanitize(comparison.reason)}); --update rewrites it`];
    case "changed":
      return [
        `${chalk.red("✗")} ${name}: findings differ from ${sanitize(snapshot)}`,
        chalk.red(`--- ${sanitize(snapshot)} (snapshot)`),
        chalk.green(`+++ ${name} (now)`),
        ...comparison.hunks.map((line) => colourHunk(sanitize(line), chalk)),
      ];
  }
}

/**
 * What check compares: each file, except the event files of one OpenHands conversation, which are one
 * input named by their folder (grouped and ordered as analyze reads them).
 */
function checkInputs(files: readonly string[]): Array<{ name: string; files: string[] }> {
  return groupOpenHandsFiles(files).map((unit) => ({ name: eventIndex(unit[0]!) === undefined ? unit[0]! : dirname(unit[0]!), files: unit }));
}

export async function runCheck(paths: string[], options: CheckOptions, io: Io): Promise<number> {
  const resolver = await createConfigResolver(options);
  const digest = await loadXxhashDigest();
  // A shell glob like `fixtures/*` also names the snapshots themselves: they are not inputs.
  // A transcript store is one input with one snapshot, whatever sessions it holds.
  const files = (await expandPaths(inputPaths(paths, io, options.quiet, options.agentHome), { expandStores: false })).filter((file) => !file.endsWith(SNAPSHOT_SUFFIX));
  // The event files of an OpenHands conversation are one input (one event a file is no transcript):
  // the `events/` folder, with one snapshot beside it.
  const inputs = checkInputs(files);
  if (files.includes("-")) throw new UsageError("check compares files with their snapshots; standard input has none: name the fixture files or folders");
  if (files.length === 0) throw new UsageError("check: no input files (snapshots *.looplens.json are not inputs)");
  const chalk = new Chalk({ level: useColor(options, io) ? 1 : 0 });
  const tally = { unchanged: 0, changed: 0, missing: 0, created: 0, updated: 0 };
  let skipped = 0;

  for (const { name: file, files: unit } of inputs) {
    const analysis = await analyzeInputs(unit, digest, (agent, profile) => resolver.effectiveFor(agent, profile).config, {
      inputFormat: options.inputFormat,
      activeBranch: options.activeBranch,
      ...(options.profile !== undefined && { profile: options.profile }),
    });
    skipped += analysis.lines.skipped;
    reportDiagnostics(io, analysis.diagnostics, analysis.diagnosticsTotal, options.quiet);
    const agentConfigs = new Map<string, ResolvedConfig>(
      options.agent === undefined ? appliedAgentOverrides(resolver, analysis.runs, undefined).map((id) => [id, resolver.effectiveFor(id).config]) : [],
    );
    const now = renderSnapshot(
      buildSnapshot({ file, config: resolver.base.config, agentConfigs, lines: analysis.lines, runs: analysis.runs, ...(options.profile !== undefined && { profile: options.profile }) }),
    );
    const snapshotPath = `${file}${SNAPSHOT_SUFFIX}`;
    const existing = await readSnapshot(snapshotPath);
    const comparison = compare(existing, now);

    if (options.update) {
      if (existing === now) {
        tally.unchanged++;
        continue;
      }
      await writeFile(snapshotPath, now).catch((error: Error) => {
        throw new InputError(`cannot write snapshot ${snapshotPath}: ${error.message}`);
      });
      tally[existing === undefined ? "created" : "updated"]++;
      io.stdout(`${existing === undefined ? "created" : "updated"} ${sanitize(snapshotPath)}\n`);
      continue;
    }
    tally[comparison.kind === "invalid" ? "changed" : comparison.kind]++;
    io.stdout(`${describe(file, snapshotPath, comparison, chalk).join("\n")}\n`);
  }

  reportNotices(io, resolver, options.quiet);
  const summary = options.update
    ? `${tally.created} created, ${tally.updated} updated, ${tally.unchanged} unchanged`
    : `${tally.unchanged} unchanged, ${tally.changed} changed, ${tally.missing} missing`;
  io.stdout(`\ncheck: ${inputs.length} fixture${inputs.length === 1 ? "" : "s"}: ${summary}\n`);

  if (strictViolation(io, options, skipped)) return EXIT.usage;
  return !options.update && tally.changed + tally.missing > 0 ? EXIT.findings : EXIT.ok;
}

export function registerCheck(program: Command, io: Io, run: (work: () => Promise<number>) => Promise<void>): void {
  const command = program
    .command("check")
    .description("compare each input's findings with its snapshot <input>.looplens.json; exit 1 on any difference")
    .argument("[paths...]", "transcript fixture files or folders")
    .option("-u, --update", "write the snapshots that are missing or differ");
  addConfigOptions(command);
  addInputOptions(command);
  command.action((paths: string[], options: CheckOptions) => run(() => runCheck(paths, options, io)));
}
