/**
 * Views of the effective configuration shared by the reporters and `looplens config`: the header
 * lines that state thresholds and detector state, what an agent override changes, and the JSON
 * form of a config with its value sources.
 */
import { configEntries, guardOn, rollingDetectorsOn, type ResolvedConfig, type ValueSource } from "../core/config.js";
import type { AgentConfigView, ConfigSummary } from "./reportConfig.js";
import { sanitize } from "./sanitize.js";

/**
 * What headers say when no --config was given, in words: the defaults, and that looplens switched
 * detection on where the runtime leaves it off (cli.md: the header says so), unless `--set enabled=…`
 * decided it (then the title line says what runs).
 */
export function noConfigLine(sources: Readonly<Record<string, ValueSource>>): string {
  const set = Object.values(sources).includes("--set") ? " and your --set values" : "";
  const switchedOn = sources.enabled === "looplens" ? ", with detection switched on for this replay (enabled=true; your runtime has it off)" : "";
  return `config: none given: the documented defaults${set}${switchedOn}`;
}

const shown = (value: boolean | number | undefined) => (value === undefined ? "unset" : String(value));

/** The effective thresholds as two `name=value` lines that fit 80 columns. */
export function thresholdLines(config: ResolvedConfig): string[] {
  return [
    `warningThreshold=${config.warningThreshold} criticalThreshold=${config.criticalThreshold} globalCircuitBreakerThreshold=${config.globalCircuitBreakerThreshold}`,
    `unknownToolThreshold=${config.unknownToolThreshold} historySize=${config.historySize} postCompactionGuard.windowSize=${config.postCompactionGuard.windowSize}`,
  ];
}

/** `key=value` for every value in which `config` differs from `base`. */
export function configDifferences(config: ResolvedConfig, base: ResolvedConfig): string[] {
  const baseValues = new Map(configEntries(base));
  return configEntries(config)
    .filter(([key, value]) => baseValues.get(key) !== value)
    .map(([key, value]) => `${key}=${shown(value)}`);
}

/** What an agent's override changes, in one line (empty when it changes nothing). */
/** The agent override a run was replayed under, if its agent has one. */
export function overrideOf(run: { readonly agent: string | null }, config: ConfigSummary): AgentConfigView | undefined {
  const agent = run.agent;
  return agent !== null ? config.agentConfigs?.find((view) => view.runAgents.includes(agent)) : undefined;
}

export function overrideLine(view: AgentConfigView, base: ResolvedConfig): string {
  const changes = configDifferences(view.effective, base);
  return changes.length === 0 ? "" : `agent ${sanitize(view.agent)}'s override: ${changes.join(" ")}`;
}

/** Report header lines under the title: config origin, thresholds, and what agent overrides change. */
export function configHeaderLines(config: ConfigSummary): string[] {
  const origin = config.file !== null ? `config: ${sanitize(config.file)}` : noConfigLine(config.sources);
  const agent = config.forcedAgent ? sanitize(config.forcedAgent) : "";
  const forced = !agent ? "" : config.agentOverrides.length > 0 ? `; agent ${agent}'s override for every run (--agent)` : `; --agent ${agent}: no override, global values`;
  const overrides = (config.agentConfigs ?? []).map((view) => overrideLine(view, config.effective)).filter((line) => line !== "");
  const unapplied = config.unappliedConfig !== undefined ? [`note: ${sanitize(config.unappliedConfig)} exists but is not applied (--config auto reads it)`] : [];
  return [`${origin}${forced}`, ...unapplied, ...profileLines(config), ...thresholdLines(config.effective), ...overrides];
}

/** What `--profile` asked for, when given (runs say which profile each got). */
function profileLines(config: ConfigSummary): string[] {
  switch (config.profile) {
    case undefined:
      return [];
    case "configurable":
      return ["profile: configurable (--profile configurable): thresholds, toggles and guard window as configured"];
    case "newest":
      return ["profile: newest (--profile newest): only enabled is read; thresholds fixed, argument_churn on"];
    case "auto":
      return ["profile: auto: each run by the OpenClaw version its input records, else configurable (see each run)"];
  }
}

/** A config as JSON: its values (`enabled` unset reads as the runtime's default, false) and what runs. */
export function configJson(effective: ResolvedConfig): Record<string, unknown> {
  return {
    ...effective,
    enabled: effective.enabled ?? false,
    rollingDetectors: rollingDetectorsOn(effective),
    postCompactionGuardActive: guardOn(effective),
  };
}

/** The source of every dotted key, in the canonical key order. */
export function sourcesJson(effective: ResolvedConfig, sources: Readonly<Record<string, ValueSource>>): Record<string, ValueSource> {
  return Object.fromEntries(configEntries(effective).map(([key]) => [key, sources[key] ?? "default"]));
}
