/**
 * Reads an OpenClaw config file (`openclaw.json`, JSON5) or a bare loopDetection block, the way the
 * runtime reads it: `tools.loopDetection` plus `agents.list[].tools.loopDetection` by agent id.
 * Structural problems are errors naming the file (and position); dubious values are left to
 * resolution, which falls back to defaults with notices.
 */
import { readFile } from "node:fs/promises";
import JSON5 from "json5";
import { DETECTOR_FIELDS, type ConfigNotice } from "../../core/config.js";
import { BLOCK_KEYS, closest, unknownKeys } from "../../core/configKeys.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { describeValue, quote, shorten } from "../../core/quote.js";

/** A configuration problem (exit status 2), reported as one line. */
export class ConfigError extends Error {}

export interface ConfigBlock {
  /** Path of the block in the file (`tools.loopDetection`); empty for a bare block. */
  readonly where: string;
  readonly values: Record<string, unknown>;
}

export interface AgentBlock extends ConfigBlock {
  /** The agent id as written in the file. */
  readonly id: string;
}

export interface ConfigFile {
  readonly path: string;
  readonly kind: "openclaw" | "bare";
  /** `tools.loopDetection` (or the bare block); undefined when the file has none. */
  readonly global: ConfigBlock | undefined;
  /** Per-agent blocks by normalized agent id (see `normalizeAgentId`). */
  readonly agents: ReadonlyMap<string, AgentBlock>;
  readonly notices: readonly ConfigNotice[];
}

/** Agent ids match the way the runtime matches them: trimmed, case-insensitively. */
export function normalizeAgentId(id: string): string {
  return id.trim().toLowerCase();
}

const field = (where: string, key: string) => (where ? `${where}.${key}` : key);

/** Checks a loopDetection block's structure; wrong types for switches are errors, unknown keys notices. */
function checkBlock(path: string, where: string, block: unknown, notices: ConfigNotice[]): Record<string, unknown> {
  if (!isPlainObject(block)) throw new ConfigError(`${path}: ${where || "the config"} is not an object (got ${describeValue(block)})`);
  const mustBeBoolean = (key: string, value: unknown) => {
    if (value !== undefined && typeof value !== "boolean") {
      throw new ConfigError(`${path}: ${field(where, key)} must be true or false (got ${describeValue(value)})`);
    }
  };
  mustBeBoolean("enabled", own(block, "enabled"));
  for (const nested of ["detectors", "postCompactionGuard"]) {
    const value = own(block, nested);
    if (value !== undefined && !isPlainObject(value)) {
      throw new ConfigError(`${path}: ${field(where, nested)} is not an object (got ${describeValue(value)})`);
    }
  }
  const detectors = own(block, "detectors");
  if (isPlainObject(detectors)) for (const name of DETECTOR_FIELDS) mustBeBoolean(`detectors.${name}`, own(detectors, name));
  for (const { key, suggestion } of unknownKeys(block)) {
    const suggested = suggestion ? ` (did you mean ${suggestion}?)` : "";
    notices.push({ origin: path, key: field(where, key), message: `unknown key ${field(where, shorten(key))}${suggested}; ignored` });
  }
  return block;
}

/** A bare block has loopDetection keys (or near misses of them) at the top and no `tools`/`agents`. */
function isBareBlock(root: Record<string, unknown>): boolean {
  if (own(root, "tools") !== undefined || own(root, "agents") !== undefined) return false;
  const keys = Object.keys(root);
  return keys.length === 0 || keys.some((key) => BLOCK_KEYS.has(key) || closest(key, BLOCK_KEYS) !== undefined);
}

function parseJson5(path: string, text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch (error) {
    const e = error as { lineNumber?: number; columnNumber?: number; message?: string };
    const where = e.lineNumber !== undefined ? `:${e.lineNumber}:${Math.max(1, e.columnNumber ?? 1)}` : "";
    const message = String(e.message ?? error)
      .replace(/^JSON5: /, "")
      .replace(/ at \d+:\d+$/, "");
    throw new ConfigError(`${path}${where}: invalid JSON5: ${message}`);
  }
}

/** `agents.list[]` overrides by normalized id; the first entry of an id wins, as in the runtime. */
function readAgents(path: string, root: Record<string, unknown>, notices: ConfigNotice[]): Map<string, AgentBlock> {
  const agents = new Map<string, AgentBlock>();
  const section = own(root, "agents");
  const list = isPlainObject(section) ? own(section, "list") : undefined;
  if (list === undefined) return agents;
  if (!Array.isArray(list)) throw new ConfigError(`${path}: agents.list is not an array (got ${describeValue(list)})`);
  const firstEntry = new Map<string, number>();
  for (const [index, agent] of list.entries()) {
    if (!isPlainObject(agent)) continue;
    const id = own(agent, "id");
    const tools = own(agent, "tools");
    const where = `agents.list[${index}].tools.loopDetection`;
    const raw = isPlainObject(tools) ? own(tools, "loopDetection") : undefined;
    const values = raw === undefined ? undefined : checkBlock(path, where, raw, notices);
    if (typeof id !== "string" || id.trim() === "") {
      if (values) notices.push({ origin: path, key: `agents.list[${index}].id`, message: `agents.list[${index}] has no id; its loopDetection override applies to no agent` });
      continue;
    }
    const key = normalizeAgentId(id);
    const first = firstEntry.get(key);
    if (first !== undefined) {
      if (values) notices.push({ origin: path, key: where, message: `agents.list[${index}] repeats agent id ${quote(id)}; the first entry, agents.list[${first}], is used and ${where} is ignored` });
      continue;
    }
    firstEntry.set(key, index);
    if (values) agents.set(key, { id, where, values });
  }
  return agents;
}

/** Parses config text; `path` names the file in errors and notices. */
export function parseConfigText(path: string, text: string): ConfigFile {
  const root = parseJson5(path, text);
  if (!isPlainObject(root)) throw new ConfigError(`${path}: the config is not an object (got ${describeValue(root)})`);
  const notices: ConfigNotice[] = [];
  if (isBareBlock(root)) {
    return { path, kind: "bare", global: { where: "", values: checkBlock(path, "", root, notices) }, agents: new Map(), notices };
  }

  const tools = own(root, "tools");
  if (tools !== undefined && !isPlainObject(tools)) throw new ConfigError(`${path}: tools is not an object (got ${describeValue(tools)})`);
  const raw = tools ? own(tools, "loopDetection") : undefined;
  const global = raw === undefined ? undefined : { where: "tools.loopDetection", values: checkBlock(path, "tools.loopDetection", raw, notices) };
  const agents = readAgents(path, root, notices);

  for (const key of Object.keys(root).filter((k) => BLOCK_KEYS.has(k) || k === "loopDetection")) {
    const target = key === "loopDetection" ? "tools.loopDetection" : `tools.loopDetection.${key}`;
    notices.push({ origin: path, key, message: `top-level ${key} is not read from an OpenClaw config (did you mean ${target}?); ignored` });
  }
  if (!global && agents.size === 0) {
    notices.push({ origin: path, key: "tools.loopDetection", message: "no tools.loopDetection or agents.list[].tools.loopDetection in this file; the runtime defaults apply" });
  }
  return { path, kind: "openclaw", global, agents, notices };
}

export async function loadConfigFile(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "permission denied" : (error as Error).message;
    throw new ConfigError(`cannot read config ${path}: ${why}`);
  }
  return parseConfigText(path, text);
}
