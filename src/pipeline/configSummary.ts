/**
 * What a report says about its configuration (reporters/model.ts `ConfigSummary`): the effective
 * values and where they came from, the notices, and the agent overrides of the config file that some
 * run used, with the config each produced. Also what `looplens config` prints of a resolver.
 */
import type { AgentBlock } from "../adapters/openclaw/configFile.js";
import type { ProfileRequest } from "../core/profiles/choice.js";
import type { ConfigReport } from "../reporters/configReport.js";
import type { AgentConfigView, ConfigSummary } from "../reporters/reportConfig.js";
import type { ConfigResolver } from "./configResolution.js";
import type { ConfigOfRuns } from "./report.js";

/** The options that decide the header: `--agent` (one override for every run) and `--profile`. */
export interface ConfigChoices {
  readonly agent?: string;
  readonly profile?: ProfileRequest;
}

/**
 * The agent overrides runs used, collected one run at a time (runs may be read back from disk):
 * none with `--agent` (that one is the base) or when the file has no agent blocks, and then the runs
 * are not read for it.
 */
class AgentViews {
  private readonly views = new Map<AgentBlock, Set<string>>();

  constructor(
    private readonly resolver: ConfigResolver,
    private readonly forced: string | undefined,
  ) {}

  get readsRuns(): boolean {
    return this.forced === undefined && (this.resolver.file?.agents.size ?? 0) > 0;
  }

  add(run: { readonly agent: string | null }): void {
    if (!this.readsRuns || run.agent === null) return;
    const override = this.resolver.overrideFor(run.agent);
    if (!override) return;
    const runAgents = this.views.get(override) ?? new Set<string>();
    runAgents.add(run.agent);
    this.views.set(override, runAgents);
  }

  finish(): AgentConfigView[] {
    return [...this.views].map(([override, runAgents]) => {
      const { config, sources } = this.resolver.effectiveFor([...runAgents][0]!);
      return { agent: override.id, where: override.where, runAgents: [...runAgents], effective: config, sources };
    });
  }
}

/** With --agent, its override (if any); otherwise the agents whose views were built. */
function overrideIds(resolver: ConfigResolver, forced: string | undefined, views: readonly AgentConfigView[]): string[] {
  if (forced !== undefined) {
    const override = resolver.overrideFor(forced);
    return override ? [override.id] : [];
  }
  return views.map((view) => view.agent);
}

function summaryOf(resolver: ConfigResolver, agentConfigs: AgentConfigView[], choices: ConfigChoices): ConfigSummary {
  // After the views: resolving them may add notices.
  return {
    effective: resolver.base.config,
    sources: resolver.base.sources,
    notices: resolver.notices(),
    file: resolver.file?.path ?? null,
    usesLooplensDefault: resolver.usesLooplensDefault,
    agentOverrides: overrideIds(resolver, choices.agent, agentConfigs),
    agentConfigs,
    forcedAgent: choices.agent ?? null,
    ...(resolver.unappliedConfig !== undefined ? { unappliedConfig: resolver.unappliedConfig } : {}),
    ...(choices.profile !== undefined && { profile: choices.profile }),
  };
}

/** The header of a report, made from every run of the analysis as the report's pass meets them (report.ts). */
export function configOfRuns(resolver: ConfigResolver, choices: ConfigChoices): ConfigOfRuns {
  const views = new AgentViews(resolver, choices.agent);
  return {
    readsRuns: views.readsRuns,
    add: (run) => views.add(run),
    summary: () => summaryOf(resolver, views.finish(), choices),
  };
}

/** The header of a report over these runs' agents, read at once (sweep names the agents it met). */
export function configSummary(resolver: ConfigResolver, runs: Iterable<{ readonly agent: string | null }>, choices: ConfigChoices): ConfigSummary {
  const views = new AgentViews(resolver, choices.agent);
  if (views.readsRuns) for (const run of runs) views.add(run);
  return summaryOf(resolver, views.finish(), choices);
}

/** Agent ids whose override from the config file was applied to at least one of these runs. */
export function appliedAgentOverrides(resolver: ConfigResolver, runs: Iterable<{ readonly agent: string | null }>, forced: string | undefined): string[] {
  const views = new AgentViews(resolver, forced);
  if (views.readsRuns) for (const run of runs) views.add(run);
  return overrideIds(resolver, forced, views.finish());
}

/** What `looplens config` prints: the base config, the override `--agent` selected, every agent with one. */
export function configCommandReport(resolver: ConfigResolver, choices: ConfigChoices, version: string): ConfigReport {
  const override = resolver.overrideFor(null);
  // Without --agent, every override in the file is still checked, so its notices are not hidden.
  if (choices.agent === undefined) for (const block of resolver.file?.agents.values() ?? []) resolver.effectiveFor(block.id);
  return {
    version,
    effective: resolver.base.config,
    sources: resolver.base.sources,
    notices: resolver.notices(),
    file: resolver.file?.path ?? null,
    agent: choices.agent ?? null,
    override: override ? { agent: override.id, where: override.where } : null,
    agentsWithOverrides: [...(resolver.file?.agents.values() ?? [])].map((block) => block.id),
    usesLooplensDefault: resolver.usesLooplensDefault,
    ...(choices.profile !== undefined && { profile: choices.profile }),
  };
}
