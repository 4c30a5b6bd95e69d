/**
 * Configs for the library: `loadConfig` reads a file as `--config` does (same errors, same
 * notices); `analyze` also takes a config read so, or the object such a file holds.
 */
import { loadConfigFile, parseConfigText, type ConfigFile } from "../adapters/openclaw/configFile.js";
import { configPath } from "../pipeline/configResolution.js";
import type { LoadedConfig } from "./types.js";

/** Configs `loadConfig` returned: passed back to `analyze`, they are used as read. */
const loadedConfigs = new WeakSet<object>();

/** Reads an OpenClaw config (openclaw.json, JSON5) or a bare loopDetection block; `auto` as on the CLI. */
export async function loadConfig(file: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<LoadedConfig> {
  const config = await loadConfigFile(configPath(file, { ...env }));
  loadedConfigs.add(config);
  return config;
}

export type ConfigInput = LoadedConfig | Readonly<Record<string, unknown>>;

/** The name a config given as an object goes by in notices, errors and the report's `config.file`. */
export const CONFIG_OBJECT_NAME = "(config object)";

/** A config `loadConfig` read, as it is; any other object read as a file holding it would be. */
export function configFileOf(config: ConfigInput): ConfigFile {
  if (loadedConfigs.has(config)) return config as ConfigFile;
  return parseConfigText(CONFIG_OBJECT_NAME, JSON.stringify(config));
}
