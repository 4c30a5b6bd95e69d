/**
 * `looplens explain <file>:<line>` (or `<file> --call N [--run R]`): replays the input that holds a
 * finding, with analyze's config options, and prints the window of calls its detector counted, each
 * call's hashes shown as letters so the streak can be seen.
 */
import { loadXxhashDigest } from "../core/xxhashDigest.js";
import type { ProfileName } from "../core/profiles/profile.js";
import { levelLabel, type ReplayedFinding } from "../core/findings.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { EXIT } from "../pipeline/errors.js";
import { explainInput, parseLocation, type Explanation } from "../pipeline/explain.js";
import { REPORTERS } from "../reporters/index.js";
import { sanitize } from "../reporters/sanitize.js";
import { reportDiagnostics, reportNotices, strictViolation, type CommonOptions, type Io } from "./common.js";
import { useColor, type OutputOptions } from "./output.js";
import { withHeapWatched } from "../pipeline/v8Tuning.js";

export interface ExplainOptions extends CommonOptions, OutputOptions {
  format: string;
  run?: string;
  call?: number;
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
  io.stdout(REPORTERS.explain[options.format]!({ explanation, version }, { color: useColor(options, io), width: io.columns }));
  return EXIT.ok;
}
