/**
 * `analyze`'s whole output from the result cache (pipeline/cache/reportCache.ts): looked up before
 * anything is analysed, and, on a miss, kept at the end with what the run asked of its configs and
 * said on stderr. The paths as typed and their folders' listing, the command's flags, the filters
 * (their times already read) and how the report is rendered are the key's; the files' stamps and the
 * configs are checked as the module says. Discovery (`expandUnits`) runs only on a miss.
 */
import type { InputUnit } from "../adapters/discovery.js";
import type { ConfigForAgent } from "../core/replay.js";
import type { AnalysisOptions } from "../pipeline/analysis.js";
import { AskedAgents } from "../pipeline/askedAgents.js";
import type { UnitStamps } from "../pipeline/cache/fileStamps.js";
import { listInputs } from "../pipeline/cache/inputListing.js";
import { OutputSpool } from "../pipeline/cache/outputSpool.js";
import { cachedReport, keepReport, stampReport, REPORT_BYTES_MAX, type HeaderOf, type KeptOutput, type ReportKey } from "../pipeline/cache/reportCache.js";
import type { UnitCache } from "../pipeline/cache/unitCache.js";
import { configOfRuns, type ConfigChoices } from "../pipeline/configSummary.js";
import { createConfigResolver, type ConfigOptions, type ConfigResolver } from "../pipeline/configResolution.js";
import type { Analysis, UnitShare } from "../pipeline/analysis.js";
import { itemsSection, splicedPieces, unitsDigest, type SpliceFormat } from "../pipeline/cache/outputSplice.js";
import { spliceSource, type SpliceSource } from "../pipeline/cache/spliceSource.js";

/** The report's config header, as text, on `resolver` once `asked` were asked of it in order (a resolver keeps what it resolved). */
function headerOn(resolver: ConfigResolver, choices: ConfigChoices): HeaderOf {
  return (asked) => {
    for (const { agent, profile } of asked) resolver.effectiveFor(agent, profile);
    return JSON.stringify(configOfRuns(resolver, choices).summary());
  };
}

/**
 * Pieces of at most 1 MB, as the spool reads them back: xxhash-wasm grows its memory to fit what it
 * hashes at once, for good (a 30 MB slice of the kept output: +25 MB of peak RSS).
 */
function* inSlices(pieces: readonly Buffer[]): Generator<Buffer> {
  for (const piece of pieces) for (let at = 0; at < piece.length; at += SLICE_BYTES) yield piece.subarray(at, at + SLICE_BYTES);
}

const SLICE_BYTES = 1 << 20;

/** What a unit wrote into a document of `format`: its runs (JSON), its findings' lines (NDJSON). */
const itemsOf = (format: SpliceFormat, unit: UnitShare) => (format === "json" ? unit.runs : unit.findings);

export class KeptOutputUse {
  private readonly asked = new AskedAgents();
  /** The output as written, on disk until it is kept (outputSpool.ts); none when it is not to be kept. */
  private readonly spool: OutputSpool | undefined;
  /** The output when it was spliced: in memory already, kept from there rather than spooled. */
  private splicedOutput: readonly Buffer[] | undefined;

  private constructor(
    private readonly cache: UnitCache,
    /** The inputs' units, expanded for the analysis on a miss (none on a hit). */
    readonly units: readonly InputUnit[],
    private readonly key: ReportKey | undefined,
    private readonly stamps: UnitStamps | undefined,
    /** The output kept by an earlier run of the same command on the same files, when there is one. */
    readonly hit: KeptOutput | undefined,
    /** The output's format when its items per unit are kept with it (outputSplice.ts), and what it can reuse of the one kept last. */
    private readonly spliceable?: SpliceFormat,
    readonly splice?: SpliceSource,
  ) {
    this.spool = stamps && new OutputSpool(cache.setup.dir, REPORT_BYTES_MAX);
  }

  /**
   * Looks the command's output up (`command`: its flags, filters, format and render options, as
   * JSON). `spliceable`: the output is a JSON or NDJSON document of every replayed run, unfiltered,
   * that a re-run after some units changed may splice (outputSplice.ts).
   */
  static async look(cache: UnitCache, inputs: readonly string[], input: AnalysisOptions, command: object, config: ConfigOptions & ConfigChoices, env: NodeJS.ProcessEnv, spliceable?: SpliceFormat): Promise<KeptOutputUse> {
    const listing = listInputs(inputs, cache.hasher);
    const key: ReportKey | undefined = listing && { inputs, listing, input, command };
    // Checked on a resolver of its own: a miss must leave the command's resolver unasked (its notices come in first-asked order).
    const probe = await createConfigResolver(config, env);
    const probeConfig: ConfigForAgent = (agent, profile) => probe.effectiveFor(agent, profile).config;
    const hit = key && cachedReport(cache, key, probeConfig, headerOn(probe, config));
    if (hit) {
      cache.countHits(hit.units);
      return new KeptOutputUse(cache, [], key, undefined, hit);
    }
    // Discovery (and with it every adapter) is loaded on a miss only: a hit loads no reader.
    const { expandUnits } = await import("../adapters/discovery.js");
    const units = await expandUnits(inputs);
    // Stamped before anything is read: a file that changes while it is read is not kept as read.
    const stamps = key && stampReport(cache, key, units);
    const splice = spliceable && key && stamps ? spliceSource(cache, key, probeConfig, headerOn(probe, config), units, stamps, spliceable) : undefined;
    return new KeptOutputUse(cache, units, key, stamps, undefined, spliceable, splice);
  }

  /**
   * The output's pieces, the runs of the units the analysis left unread taken from the output kept
   * last (outputSplice.ts), `fresh` being the document of this analysis (its other runs); undefined
   * when they do not add up (then the analysis is made again without leaving any unit unread).
   */
  spliced(analysis: Analysis, fresh: string): Buffer[] | undefined {
    const { splice, spliceable: format } = this;
    if (splice === undefined || format === undefined || analysis.units === undefined || analysis.liveRuns.length > 0 || analysis.liveFindings.length > 0) return undefined;
    const doc = Buffer.from(fresh);
    const units = analysis.units.map((unit) => ({ items: itemsOf(format, unit), unread: unit.unread }));
    const section = itemsSection(format, doc, units.reduce((sum, unit) => sum + (unit.unread ? 0 : unit.items), 0));
    const pieces = section && splicedPieces(format, { doc, section }, splice.kept, splice.keptItems, units);
    if (pieces) this.cache.spliced += analysis.units.filter((unit) => unit.unread).length;
    this.splicedOutput = pieces;
    return pieces;
  }

  /** `configFor`, telling this use the agents asked, in first-asked order. */
  recording(configFor: ConfigForAgent): ConfigForAgent {
    return this.asked.recording(configFor);
  }

  /** A piece of the output as it is written (an output over REPORT_BYTES_MAX is not kept). */
  wrote(text: string): void {
    this.spool?.write(text);
  }

  /**
   * Keeps the output written, with stderr's `before` and `after` it and the exit `status`; `header`:
   * the report's config header; `units`: the analysis's runs per unit, kept with a spliceable output.
   */
  keep(said: { readonly before: string; readonly after: string; readonly status: number }, configFor: ConfigForAgent, header: object, units?: readonly UnitShare[]): void {
    const spool = this.spool;
    if (this.stamps === undefined || spool === undefined || this.key === undefined) return;
    try {
      const headerText = JSON.stringify(header);
      const format = this.spliceable;
      const splice = format && units !== undefined ? { splice: { units: unitsDigest(this.units, this.cache.hasher), items: units.map((unit) => itemsOf(format, unit)) } } : {};
      const meta = { ...said, asked: this.asked.list, units: this.units.length, ...splice };
      // A spliced output is kept from its pieces (spooling its 32 MB was ~0.2 s of a loaded re-run).
      const spliced = this.splicedOutput;
      const bytes = spliced?.reduce((sum, piece) => sum + piece.length, 0);
      if (spliced && bytes! <= REPORT_BYTES_MAX) keepReport(this.cache, this.key, this.stamps, meta, inSlices(spliced), configFor, () => headerText);
      else if (spliced === undefined && spool.holdsAll) keepReport(this.cache, this.key, this.stamps, meta, spool.pieces(), configFor, () => headerText);
    } finally {
      spool.remove();
    }
  }
}
