/**
 * Turns the configuration options every command shares (--config, --agent, --set) into the
 * effective config per agent. Without --config, looplens evaluates the rolling detectors
 * (`enabled: true`): a user who runs it wants them, and the report header says so.
 */
import { loadConfigFile, ConfigError, type ConfigFile } from "../adapters/configFile.js";
import { resolveConfig, type ConfigNotice, type EffectiveConfig, type RawBlock } from "../core/config.js";
import { nestSettings, parseSetting } from "../core/configKeys.js";

export interface ConfigOptions {
  readonly config?: string;
  readonly agent?: string;
  readonly set?: readonly string[];
}

export interface ConfigResolver {
  /** The file, when one was given. */
  readonly file: ConfigFile | undefined;
  /** Effective config for an agent id (the --agent override wins when given). */
  effectiveFor(agent: string | null): EffectiveConfig;
  /** Effective config without an agent override (or for --agent): what headers show. */
  readonly base: EffectiveConfig;
  /** Notices of the file and of every config resolved so far, without duplicates. */
  notices(): ConfigNotice[];
  readonly usesLooplensDefault: boolean;
  /** The same resolution with one more block applied after --set (sweep: one grid point). */
  withOverrides(block: RawBlock): ConfigResolver;
}

export function parseSettings(settings: readonly string[] = []): RawBlock | undefined {
  if (settings.length === 0) return undefined;
  const parsed = settings.map((text) => {
    const result = parseSetting(text);
    if (!result.ok) throw new ConfigError(result.error);
    return result;
  });
  return { origin: "--set", source: "--set", values: nestSettings(parsed) };
}

export async function createConfigResolver(options: ConfigOptions): Promise<ConfigResolver> {
  const setBlock = parseSettings(options.set);
  const file = options.config !== undefined ? await loadConfigFile(options.config) : undefined;
  const fileNotices: ConfigNotice[] = [...(file?.notices ?? [])];
  // Not an error (the agent may simply have no override), but the no-op should be visible.
  if (file && options.agent !== undefined && !file.agents.has(options.agent)) {
    fileNotices.push({
      origin: file.path,
      key: "agents.list",
      message: `--agent ${options.agent}: the config has no loopDetection override for this agent; using the global block`,
    });
  }
  return buildResolver(file, options.agent, setBlock ? [setBlock] : [], fileNotices);
}

/** Resolves per agent from the file's blocks followed by `lastBlocks` (--set, then any sweep point). */
function buildResolver(
  file: ConfigFile | undefined,
  forcedAgent: string | undefined,
  lastBlocks: readonly RawBlock[],
  fileNotices: readonly ConfigNotice[],
): ConfigResolver {
  const usesLooplensDefault = file === undefined;
  const blocksFor = (agent: string | null): RawBlock[] => {
    const blocks: RawBlock[] = [];
    if (usesLooplensDefault) blocks.push({ origin: "looplens default", source: "looplens", values: { enabled: true } });
    if (file?.global) blocks.push({ origin: file.path, source: "global", values: file.global });
    const agentBlock = agent !== null ? file?.agents.get(agent) : undefined;
    if (agentBlock) blocks.push({ origin: file!.path, source: "agent", values: agentBlock });
    blocks.push(...lastBlocks);
    return blocks;
  };

  const cache = new Map<string | null, EffectiveConfig>();
  const effectiveFor = (runAgent: string | null): EffectiveConfig => {
    const agent = forcedAgent ?? runAgent;
    let effective = cache.get(agent);
    if (!effective) {
      effective = resolveConfig(blocksFor(agent));
      cache.set(agent, effective);
    }
    return effective;
  };
  const base = effectiveFor(forcedAgent ?? null);

  return {
    file,
    base,
    usesLooplensDefault,
    effectiveFor,
    withOverrides: (block) => buildResolver(file, forcedAgent, [...lastBlocks, block], fileNotices),
    notices() {
      const seen = new Set<string>();
      const all: ConfigNotice[] = [];
      for (const notice of [...fileNotices, ...[...cache.values()].flatMap((e) => e.notices)]) {
        const key = `${notice.origin}\u0000${notice.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        all.push(notice);
      }
      return all;
    },
  };
}
