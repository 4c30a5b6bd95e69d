/**
 * The config a report was replayed under, as every format's header states it (reporters/configView.ts
 * writes it; pipeline/configSummary.ts makes it): the effective values and where each came from, the
 * notices, and the agent overrides applied.
 */
import type { ConfigNotice, ResolvedConfig, ValueSource } from "../core/config.js";
import type { ProfileRequest } from "../core/profiles/choice.js";

/** The config an agent override produced, and the run agents it applied to. */
export interface AgentConfigView {
  /** The agent id as written in the config file. */
  readonly agent: string;
  /** Where the override is in the file (`agents.list[0].tools.loopDetection`). */
  readonly where: string;
  /** Agent ids of the runs that used it, as the input names them. */
  readonly runAgents: readonly string[];
  readonly effective: ResolvedConfig;
  readonly sources: Readonly<Record<string, ValueSource>>;
}

export interface ConfigSummary {
  readonly effective: ResolvedConfig;
  readonly sources: Readonly<Record<string, ValueSource>>;
  readonly notices: readonly ConfigNotice[];
  /** The config file given with --config, if any. */
  readonly file: string | null;
  /** No --config: looplens turned the rolling detectors on itself. */
  readonly usesLooplensDefault: boolean;
  /** Agent ids whose own override was applied to some run. */
  readonly agentOverrides: readonly string[];
  /** The configs those overrides produced (when the command resolved them). */
  readonly agentConfigs?: readonly AgentConfigView[];
  /** `--agent`: one agent's override applied to every run (already in `effective`). */
  readonly forcedAgent?: string | null;
  /** No --config, but the state directory's `openclaw.json` exists: named in the header, not applied. */
  readonly unappliedConfig?: string;
  /**
   * `--profile` when given; then headers say which profile each run was replayed under and why.
   * Absent (the default generation, not asked for): every output stays as it was before profiles.
   */
  readonly profile?: ProfileRequest;
}
