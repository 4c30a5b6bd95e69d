/**
 * The whole output of an `analyze` command, kept beside the units' entries: a warm re-run of an
 * unchanged input with the same options prints it again without reading any unit's entry, replaying
 * or rendering anything. Unit entries (analysisCache.ts) make a warm run cost reading every entry
 * back and writing the report again (bench, real-shaped 165 MB folder: ~0.9 s of CPU for a 13.5 MB
 * JSON report, ~10× faster than cold); the report's entry costs a stat of each input file and
 * writing the kept bytes out.
 *
 * What the output is a function of, and where each part is checked:
 * - the units and their files: the key holds the paths as typed and what a folder scan saw of them
 *   (inputListing.ts: each folder's listing, so that a hit neither sniffs, groups nor sorts the
 *   files), the stamp every file's stamp (fileStamps.ts), as a unit entry does for its own files;
 * - the replay's options and the command's: the key (the command's flags as parsed, the filters with
 *   their times already read, the format, colour, width, `--no-explain`, the working directory);
 * - the configs: the effective config of every agent the replay asked for (`configsDigest`, as a
 *   unit entry), and the report's config header, made on a resolver of its own after asking those
 *   agents in the same order (their notices are part of it).
 * The reporters are pure functions of the report model, the model of the analysis and the request,
 * and the analysis of the units' files, options and configs: the same key, stamps and configs give
 * the same bytes. Not kept: a header that names the agent overrides runs used (it reads every run),
 * a window back from now (`--since 2h`: a new key every run, analyze.ts),
 * outputs over REPORT_BYTES_MAX, runs that ended without a report (exit 2 before it).
 *
 * Besides the output, the entry keeps what the command says on stderr after the analysis
 * (diagnostics, `--fail-on` lines) and the agents to ask the command's resolver for, so that its
 * notices come out as a run without the entry would print them.
 */
import type { InputUnit } from "../../adapters/discovery.js";
import type { ConfigForAgent } from "../../core/replay.js";
import type { AnalysisOptions } from "../analysis.js";
import { configsDigest, keyText } from "./cacheKey.js";
import type { AskedAgent } from "../askedAgents.js";
import { CorruptEntry, type OpenEntry } from "./entryFile.js";
import { STDIN, type UnitStamps } from "./fileStamps.js";
import { listInputs, type InputListing } from "./inputListing.js";
import type { UnitCache } from "./unitCache.js";
import type { SpliceMap } from "./outputSplice.js";

/** Outputs up to this size are kept (a larger one would push many units' entries out of the cache). */
export const REPORT_BYTES_MAX = 32 << 20;

/** What a command's output is made from, but the files and the configs (see the module comment). */
export interface ReportKey {
  /** The paths as typed, and what a folder scan saw of them then. */
  readonly inputs: readonly string[];
  readonly listing: InputListing;
  readonly input: AnalysisOptions;
  /** The command's flags, filters, format and render options: any JSON. */
  readonly command: object;
}

/** What the command prints, but for the notices of configs and of the cache. */
export interface KeptOutput {
  /** Its standard output, as bytes. */
  readonly stdout: Buffer;
  /** Said on stderr before the output (diagnostics), and after it (`--fail-on` lines). */
  readonly before: string;
  readonly after: string;
  /** The exit status after writing. */
  readonly status: number;
  /** Agents whose configs the analysis asked for, in first-asked order. */
  readonly asked: readonly AskedAgent[];
  /** How many units the output is of (counted as the run's hits). */
  readonly units: number;
  /** A JSON output's runs (an NDJSON output's finding lines) per unit, so that a re-run after some units changed can reuse the others' (outputSplice.ts). */
  readonly splice?: SpliceMap;
}

type Meta = Omit<KeptOutput, "stdout">;

/** The header of the report as a resolver gives it once `asked` were asked of it, as text. */
export type HeaderOf = (asked: readonly AskedAgent[]) => string;

const keyOf = (cache: UnitCache, key: ReportKey) => keyText("report", cache.setup.build, key.inputs, key.input, { listing: key.listing.digest, command: key.command });

/** The digest an entry is checked against: the replay's configs, then the header (on `probe`, asked in order by the first). */
function configsOf(cache: UnitCache, probe: ConfigForAgent, header: HeaderOf): (asked: readonly AskedAgent[]) => string {
  return (asked) => `${configsDigest(asked, probe, cache.hasher)}:${cache.hasher.hash(Buffer.from(header(asked)))}`;
}

/** A kept output's entry, read and checked whole. */
function keptOutputOf(entry: OpenEntry): KeptOutput {
  const { first, rest } = entry.readWhole();
  const meta = JSON.parse(first) as Meta;
  if (!Array.isArray(meta.asked) || typeof meta.status !== "number" || typeof meta.units !== "number" || rest.at(-1) !== 10) throw new CorruptEntry("not a report");
  const { splice } = meta;
  const spliceMap = splice !== undefined && typeof splice.units === "string" && Array.isArray(splice.items) ? { splice } : {};
  return { stdout: rest.subarray(0, rest.length - 1), before: meta.before, after: meta.after, status: meta.status, asked: meta.asked, units: meta.units, ...spliceMap };
}

/** The kept output of this command, when its files and configs are as they were; undefined otherwise. */
export function cachedReport(cache: UnitCache, key: ReportKey, probe: ConfigForAgent, header: HeaderOf): KeptOutput | undefined {
  return cache.lookUp<readonly AskedAgent[], KeptOutput>(keyOf(cache, key), configsOf(cache, probe, header), keptOutputOf, false);
}

/**
 * The kept output of this command with the stamps of its files, though they may have changed since,
 * when its configs are as they were (outputSplice.ts reuses the runs of the units that did not change).
 */
export function reportAsKept(cache: UnitCache, key: ReportKey, probe: ConfigForAgent, header: HeaderOf): { readonly output: KeptOutput; readonly stamps: UnitStamps } | undefined {
  return cache.lookUpAsWritten<readonly AskedAgent[], { output: KeptOutput; stamps: UnitStamps }>(
    keyOf(cache, key),
    configsOf(cache, probe, header),
    (entry, stamp) => ({ output: keptOutputOf(entry), stamps: stamp }),
    () => true,
  );
}

/**
 * The stamps of every file of the units and of the listing's stores, taken before they are read
 * (undefined: not kept, e.g. standard input).
 */
export function stampReport(cache: UnitCache, key: ReportKey, units: readonly InputUnit[]): UnitStamps | undefined {
  // Standard input is never kept (unitPaths: undefined); asked of the names, with no stat of every file.
  if (!cache.canWrite || units.some((unit) => unit.includes(STDIN))) return undefined;
  return cache.stamp([...new Set([...units.flat(), ...key.listing.stores])]);
}

/**
 * Keeps a command's output: written only when no file changed since `stamps` (as a unit's entry)
 * and the folders list as they did when it was looked up (a file added or removed meanwhile may or
 * may not be in the output).
 */
export function keepReport(cache: UnitCache, key: ReportKey, stamps: UnitStamps, meta: Meta, stdout: Iterable<Uint8Array>, configFor: ConfigForAgent, header: HeaderOf): void {
  const { asked } = meta;
  if (listInputs(key.inputs, cache.hasher)?.digest !== key.listing.digest) return;
  cache.write(keyOf(cache, key), stamps, asked, configsOf(cache, configFor, header)(asked), function* () {
    yield JSON.stringify(meta);
    yield* stdout;
    yield ""; // its newline: the output ends before the last byte
  });
}
