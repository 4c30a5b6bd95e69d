/**
 * `looplens explain <file>:<line>` (or `<file> --call N [--run R]`): replays the input that holds a
 * finding, with analyze's config options, and prints the window of calls its detector counted, each
 * call's hashes shown as letters so the streak can be seen.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { levelLabel, type ReplayedFinding } from "../core/findings.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { EXIT } from "../pipeline/errors.js";
import { explainInput, parseLocation, type Explanation } from "../pipeline/explain.js";
import { EXPLAIN_FORMATS, explainJson, explainTable } from "../reporters/explain.js";
import { sanitize } from "../reporters/sanitize.js";
import { addConfigOptions, addInputOptions, reportDiagnostics, reportNotices, strictViolation, useColor, type CommonOptions, type Io } from "./common.js";
import { withHeapWatched } from "../pipeline/v8Tuning.js";

interface ExplainOptions extends CommonOptions {
  format: string;
  run?: string;
  call?: number;
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError("a call number from 1");
  return n;
}

const describe = (f: ReplayedFinding) => `${sanitize(f.file)}:${f.line} (run ${sanitize(f.run)}, call ${f.call}, ${f.detector} ${levelLabel(f.level)})`;

/** Exit 2 with one line that names where findings are. */
function notAFinding(io: Io, explanation: Explanation): number {
  const { path, line, run, call } = explanation.target;
  const place = [line !== undefined ? `${sanitize(path)}:${line}` : sanitize(path), run !== undefined ? `run ${sanitize(run)}` : "", call !== undefined ? `call ${call}` : ""].filter(Boolean).join(", ");
  const nearest = explanation.nearest.length > 0 ? `; nearest: ${explanation.nearest.map(describe).join(", ")}` : "; the input has no findings under this config";
  io.stderr(`looplens: ${place} is not a finding${nearest}\n`);
  return EXIT.usage;
}

export function runExplain(location: string, options: ExplainOptions, io: Io, version: string): Promise<number> {
  // The heap's growth is held once the process is large, as for analyze (v8Tuning.ts).
  return withHeapWatched(() => explainAt(location, options, io, version));
}

async function explainAt(location: string, options: ExplainOptions, io: Io, version: string): Promise<number> {
  const resolver = await createConfigResolver(options, io.env);
  const digest = await loadXxhashDigest();
  const target = { ...parseLocation(location), ...(options.run !== undefined && { run: options.run }), ...(options.call !== undefined && { call: options.call }) };
  const configFor = (agent: string | null, profile: ProfileName) => resolver.effectiveFor(agent, profile).config;
  const input = { inputFormat: options.inputFormat, activeBranch: options.activeBranch, maxLineBytes: options.maxLineBytes, ...(options.profile !== undefined && { profile: options.profile }) };
  const explanation = await explainInput(target, digest, configFor, input);
  reportNotices(io, resolver, options.quiet);
  reportDiagnostics(io, explanation.diagnostics, explanation.diagnosticsTotal, options.quiet);
  if (explanation.explained.length === 0) return notAFinding(io, explanation);
  // As for analyze: an input that ends in exit 2 (--strict) gets no explanation printed.
  if (strictViolation(io, options, explanation.lines.skipped)) return EXIT.usage;
  io.stdout(options.format === "json" ? explainJson(explanation, version) : explainTable(explanation, { color: useColor(options, io), width: io.columns }));
  return EXIT.ok;
}

export function registerExplain(program: Command, io: Io, version: string, run: (work: () => Promise<number>) => Promise<void>): void {
  const command = program
    .command("explain")
    .description("show the window of calls the detector counted for the finding at a place")
    .argument("<file:line>", "a finding's place as the report shows it (file:line); or a file, with --call")
    .option("--run <run>", "the run of the finding (when the file holds several runs)")
    .option("--call <n>", "the finding's call number in its run (the report's call column)", positiveInteger)
    .addOption(new Option("-f, --format <format>", "output format").choices(EXPLAIN_FORMATS).default("table"));
  addConfigOptions(command);
  addInputOptions(command);
  command.addHelpText(
    "after",
    `
Examples:
  looplens explain fixtures/poll-loop.jsonl:42
  looplens explain session.jsonl --run r1 --call 21
  looplens explain fixtures/poll-loop.jsonl:42 --profile newest -f json

Replays the file as analyze does (same --config/--set/--profile/--agent) and prints, for each
finding at that place, the calls its detector counted: the run's history records before the
judged call (or, for compaction_loop_persisted, the post-compaction guard's window). Arguments
are lettered A (the judged call's), B, C…; results x (the one counted), y, z…; ● marks the calls
the count took, and the count column shows it climbing to the threshold. A place that holds no
finding exits 2, naming the nearest findings.
`,
  );
  command.action((location: string, options: ExplainOptions) => run(() => runExplain(location, options, io, version)));
}
