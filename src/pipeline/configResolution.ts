/**
 * Turns the configuration options every command shares (--config, --agent, --set) into the
 * effective config per agent. Without --config, looplens evaluates the rolling detectors
 * (`enabled: true`): a user who runs it wants them, and the report header says so. The user's own
 * OpenClaw config is read only when asked for (`--config auto`), never silently.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { loadConfigFile, ConfigError, normalizeAgentId, type AgentBlock, type ConfigFile } from "../adapters/openclaw/configFile.js";
import type { ConfigNotice, EffectiveConfig, RawBlock } from "../core/config.js";
import { nestSettings, parseSetting } from "../core/configKeys.js";
import { stateConfigFile, stateDirectory } from "./stateDirectory.js";
import type { ProfileRequest } from "../core/profiles/choice.js";
import { PROFILES } from "../core/profiles/index.js";
import { NEWEST_IGNORED_KEYS, newestIgnoredReason } from "../core/profiles/newest/config.js";
import type { ProfileName } from "../core/profiles/profile.js";

export interface ConfigOptions {
  readonly config?: string;
  readonly agent?: string;
  readonly set?: readonly string[];
  /** `--profile`; absent = the default generation. */
  readonly profile?: ProfileRequest;
}

export interface ConfigResolver {
  /** The file, when one was given. */
  readonly file: ConfigFile | undefined;
  /** Effective config for a run's agent id (the --agent override wins when given), under a profile (default: `profile`). */
  effectiveFor(agent: string | null, profile?: ProfileName): EffectiveConfig;
  /** The profile headers and `config` show: the one asked for, `configurable` for the default and for `auto`. */
  readonly profile: ProfileName;
  /** The file's override block that applies to a run's agent (after --agent), if any. */
  overrideFor(agent: string | null): AgentBlock | undefined;
  /** Effective config without an agent override (or for --agent): what headers show. */
  readonly base: EffectiveConfig;
  /** Notices of the file and of every config resolved so far, without duplicates. */
  notices(): ConfigNotice[];
  readonly usesLooplensDefault: boolean;
  /** No --config given, but the state directory has an `openclaw.json`: named, not applied. */
  readonly unappliedConfig: string | undefined;
  /** The same resolution with one more block applied after --set (sweep: one grid point). */
  withOverrides(block: RawBlock): ConfigResolver;
}

/** The value of `--config` that looks for the user's own OpenClaw config. */
export const AUTO_CONFIG = "auto";

/**
 * The file `--config` names. `auto` means the runtime's own lookup: `$OPENCLAW_CONFIG_PATH`, else
 * the state directory's `openclaw.json` (`$OPENCLAW_STATE_DIR`, else `~/.openclaw`); a file literally
 * named `auto` is `./auto`.
 */
export function configPath(spec: string, env: NodeJS.ProcessEnv): string {
  if (spec !== AUTO_CONFIG) return spec;
  const home = env.HOME || homedir();
  const fromEnv = env.OPENCLAW_CONFIG_PATH?.trim();
  if (fromEnv) return fromEnv === "~" || fromEnv.startsWith("~/") ? join(home, fromEnv.slice(1)) : fromEnv;
  return join(stateDirectory(env), "openclaw.json");
}

async function loadFile(spec: string, env: NodeJS.ProcessEnv): Promise<ConfigFile> {
  try {
    return await loadConfigFile(configPath(spec, env));
  } catch (error) {
    if (spec !== AUTO_CONFIG || !(error instanceof ConfigError)) throw error;
    const stateDir = env.OPENCLAW_STATE_DIR?.trim() ? "$OPENCLAW_STATE_DIR/openclaw.json" : "~/.openclaw/openclaw.json";
    const lookedUp = env.OPENCLAW_CONFIG_PATH?.trim() ? "$OPENCLAW_CONFIG_PATH" : `${stateDir}, as $OPENCLAW_CONFIG_PATH is not set`;
    throw new ConfigError(`--config auto (${lookedUp}): ${error.message}`);
  }
}

export function parseSettings(settings: readonly string[] = [], profile?: ProfileRequest): RawBlock | undefined {
  if (settings.length === 0) return undefined;
  const parsed = settings.map((text) => {
    const result = parseSetting(text);
    if (!result.ok) throw new ConfigError(result.error);
    // A knob the build ignores is a mistake on the command line (a file that sets one gets a notice).
    // Under `auto` some runs may be configurable ones, so there the newest runs only get notices.
    if (profile === "newest" && NEWEST_IGNORED_KEYS.includes(result.key)) {
      throw new ConfigError(`--set ${result.key}: ignored under --profile newest: ${newestIgnoredReason(result.key)} (only enabled is read)`);
    }
    return result;
  });
  return { origin: "--set", source: "--set", values: nestSettings(parsed) };
}

/** `loaded`: a config already read (the library API's config objects), used instead of `options.config`. */
export async function createConfigResolver(options: ConfigOptions, env: NodeJS.ProcessEnv = process.env, loaded?: ConfigFile): Promise<ConfigResolver> {
  const setBlock = parseSettings(options.set, options.profile);
  const file = loaded ?? (options.config !== undefined ? await loadFile(options.config, env) : undefined);
  const fileNotices: ConfigNotice[] = [...(file?.notices ?? [])];
  // Not an error (the agent may simply have no override), but the no-op should be visible.
  if (options.agent !== undefined && (file === undefined || !file.agents.has(normalizeAgentId(options.agent)))) {
    fileNotices.push({
      origin: file?.path ?? "--agent",
      key: "agents.list",
      message: file
        ? `--agent ${options.agent}: the config has no loopDetection override for this agent; using the global block`
        : `--agent ${options.agent}: no --config given, so there is no agent override to apply`,
    });
  }
  const unapplied = file === undefined ? stateConfigFile(env) : undefined;
  const profile: ProfileName = options.profile === "newest" ? "newest" : "configurable";
  return { ...buildResolver(file, options.agent, setBlock ? [setBlock] : [], fileNotices, profile), unappliedConfig: unapplied };
}

/** Resolves per agent from the file's blocks followed by `lastBlocks` (--set, then any sweep point). */
function buildResolver(
  file: ConfigFile | undefined,
  forcedAgent: string | undefined,
  lastBlocks: readonly RawBlock[],
  fileNotices: readonly ConfigNotice[],
  profile: ProfileName,
): Omit<ConfigResolver, "unappliedConfig"> & { withOverrides(block: RawBlock): ConfigResolver } {
  const usesLooplensDefault = file === undefined;
  const overrideFor = (runAgent: string | null): AgentBlock | undefined => {
    const agent = forcedAgent ?? runAgent;
    return agent !== null ? file?.agents.get(normalizeAgentId(agent)) : undefined;
  };
  const blocksFor = (override: AgentBlock | undefined): RawBlock[] => {
    const blocks: RawBlock[] = [];
    if (usesLooplensDefault) blocks.push({ origin: "looplens default", source: "looplens", values: { enabled: true } });
    if (file?.global) blocks.push({ origin: file.path, where: file.global.where, source: "global", values: file.global.values });
    if (file && override) blocks.push({ origin: file.path, where: override.where, agent: override.id, source: "agent", values: override.values });
    blocks.push(...lastBlocks);
    return blocks;
  };

  // Agents without an override share the global resolution (one per profile).
  const caches: Record<ProfileName, Map<AgentBlock | undefined, EffectiveConfig>> = { configurable: new Map(), newest: new Map() };
  const effectiveFor = (runAgent: string | null, runProfile: ProfileName = profile): EffectiveConfig => {
    const override = overrideFor(runAgent);
    const cache = caches[runProfile];
    let effective = cache.get(override);
    if (!effective) {
      effective = PROFILES[runProfile].resolveConfig(blocksFor(override));
      cache.set(override, effective);
    }
    return effective;
  };
  const base = effectiveFor(null);

  return {
    file,
    base,
    usesLooplensDefault,
    profile,
    effectiveFor,
    overrideFor,
    withOverrides: (block) => ({ ...buildResolver(file, forcedAgent, [...lastBlocks, block], fileNotices, profile), unappliedConfig: undefined }),
    notices() {
      const seen = new Set<string>();
      const all: ConfigNotice[] = [];
      for (const notice of [...fileNotices, ...Object.values(caches).flatMap((cache) => [...cache.values()].flatMap((e) => e.notices))]) {
        const key = `${notice.origin}\u0000${notice.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        all.push(notice);
      }
      return all;
    },
  };
}
