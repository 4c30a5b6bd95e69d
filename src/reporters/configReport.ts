/**
 * The output of `looplens config`: every effective value with where it came from (default, looplens,
 * global, agent, --set, adjusted), the detector state, and the notices, as a table or one JSON document.
 */
import { Chalk } from "chalk";
import { configEntries, guardOn, rollingDetectorsOn, type ConfigNotice, type ResolvedConfig, type ValueSource } from "../core/config.js";
import { noConfigLine, sourcesJson, thresholdLines } from "./configView.js";
import { jsonText } from "./jsonText.js";
import { detectorState } from "./phrases.js";
import { sanitize } from "./sanitize.js";
import { columnsOf, fitColumns, renderColumns } from "./tableParts.js";
import { DEFAULT_WIDTH, fitToWidth, wrapWords } from "./textFit.js";
import type { ProfileRequest } from "../core/profiles/choice.js";
import { newestIgnoredReason } from "../core/profiles/newest/config.js";

/** Why a value is what it is, for the sources that have a reason beyond their origin. */
const fixedWhy = (key: string, source: ValueSource) => (source === "fixed" ? newestIgnoredReason(key) : "");

export interface ConfigReport {
  readonly version: string;
  readonly effective: ResolvedConfig;
  readonly sources: Readonly<Record<string, ValueSource>>;
  readonly notices: readonly ConfigNotice[];
  /** The config file read, if any (after `--config auto` lookup). */
  readonly file: string | null;
  /** `--agent`, as given. */
  readonly agent: string | null;
  /** The override that `--agent` selected, if the file has one. */
  readonly override: { readonly agent: string; readonly where: string } | null;
  /** Ids of every agent with a loopDetection override in the file. */
  readonly agentsWithOverrides: readonly string[];
  readonly usesLooplensDefault: boolean;
  /** `--profile` when given; a `fixed` source then says why in a `why` column. */
  readonly profile?: ProfileRequest;
}

/**
 * `--format json`. Stable shape: `{version, file, agent, override, looplensDefault, config,
 * rollingDetectors, postCompactionGuardActive, sources, notices, agentsWithOverrides}`; `config`
 * holds the values only (`enabled` unset reads false, the runtime's default; the guard still runs).
 */
export function configReportJson(report: ConfigReport): string {
  const { effective } = report;
  const document = {
    version: report.version,
    file: report.file,
    agent: report.agent,
    override: report.override,
    looplensDefault: report.usesLooplensDefault,
    config: { ...effective, enabled: effective.enabled ?? false },
    rollingDetectors: rollingDetectorsOn(effective),
    postCompactionGuardActive: guardOn(effective),
    sources: sourcesJson(effective, report.sources),
    notices: report.notices.map((n) => ({ origin: n.origin, key: n.key, message: n.message })),
    agentsWithOverrides: report.agentsWithOverrides,
    ...(report.profile !== undefined
      ? {
          profile: report.profile,
          fixed: Object.fromEntries(Object.entries(report.sources).filter(([, source]) => source === "fixed").map(([key, source]) => [key, fixedWhy(key, source)])),
        }
      : {}),
  };
  return `${jsonText(document, "  ")}\n`;
}

/** Where the values come from: the file (or none) and the agent override `--agent` selected. */
function originLines(report: ConfigReport): string[] {
  if (report.file === null) return [noConfigLine(report.sources)];
  const lines = [`config: ${sanitize(report.file)}`];
  if (report.override) lines.push(`agent ${sanitize(report.override.agent)}'s override: ${report.override.where}`);
  else if (report.agent !== null) lines.push(`agent ${sanitize(report.agent)}: no override in this file`);
  return lines;
}

/**
 * The key/value/source table. The `why` column (under `--profile`) becomes footnote marks, the
 * reasons listed under the table, when the terminal is too narrow for it.
 */
function valuesTable(report: ConfigReport, chalk: InstanceType<typeof Chalk>, color: boolean, width: number): string {
  const why = Object.values(report.sources).includes("fixed");
  const entries = configEntries(report.effective);
  const reasons = entries.map(([key]) => fixedWhy(key, report.sources[key] ?? "default"));
  const rows = entries.map(([key, value], i) => {
    const source = report.sources[key] ?? "default";
    const shown = value === undefined ? "false (unset)" : String(value);
    return [key, shown, source === "default" ? chalk.dim(source) : source, ...(why ? [chalk.dim(reasons[i]!)] : [])];
  });
  const distinct = [...new Set(reasons.filter((reason) => reason !== ""))];
  const marks = reasons.map((reason) => (reason === "" ? "" : `(${distinct.indexOf(reason) + 1})`));
  const fitted = fitColumns(columnsOf(["key", "value", "source", ...(why ? ["why"] : [])], rows), width, [{ kind: "replace", key: "why", head: "why", cells: marks }]);
  const table = renderColumns(fitted.columns, color).join("\n");
  if (!why || fitted.applied.length === 0) return table;
  const notes = distinct.flatMap((reason, i) => wrapWords(reason, width, `  (${i + 1}) `, "      ").map((line) => chalk.dim(line)));
  return [table, ...notes].join("\n");
}

/** `--format table`: a header, one row per key, the agents with overrides, the notices. */
export function configReportTable(report: ConfigReport, color: boolean, columns?: number): string {
  const width = columns ?? DEFAULT_WIDTH;
  const chalk = new Chalk({ level: color ? 1 : 0 });
  const { effective } = report;
  const out = [
    chalk.bold(`looplens ${report.version} config — ${detectorState({ effective })}`),
    ...originLines(report).map((line) => `  ${line}`),
    ...(report.profile !== undefined ? [`  profile: ${report.profile}${report.profile === "auto" ? " (runs pick by their recorded OpenClaw version; values below: configurable)" : ""}`] : []),
    ...thresholdLines(effective).map((line) => `  ${line}`),
    "",
    valuesTable(report, chalk, color, width),
    "",
  ];
  if (report.agentsWithOverrides.length > 0) {
    out.push(`agents with an override in this file: ${report.agentsWithOverrides.map(sanitize).join(", ")}${report.agent === null ? " (--agent ID shows one)" : ""}`, "");
  }
  if (report.notices.length === 0) out.push(chalk.dim("no notices"));
  else {
    out.push(chalk.bold("notices"));
    for (const n of report.notices) out.push(`  ${sanitize(n.origin)}: ${sanitize(n.message)}`); // a file may hold 100k unknown keys
  }
  // On a terminal, prose lines wrap at spaces too; on a pipe they stay whole, for grep.
  const text = columns === undefined ? out.join("\n") : fitToWidth(out.join("\n"), width);
  return `${text.replace(/[ \t]+$/gm, "")}\n`;
}

/** A format of `looplens config` (the registry's `config` list: index.ts). */
export type ConfigReporter = (report: ConfigReport, options: { readonly color: boolean; readonly width?: number | undefined }) => string;

export const configTableReporter: ConfigReporter = (report, options) => configReportTable(report, options.color, options.width);
export const configJsonReporter: ConfigReporter = (report) => configReportJson(report);
