/**
 * Reads an OpenClaw config file (`openclaw.json`, JSON5) or a bare loopDetection block, the way the
 * runtime reads it: `tools.loopDetection` plus `agents.list[].tools.loopDetection` by agent id.
 * Structural problems are errors naming the file (and position); dubious values are left to
 * resolution, which falls back to defaults with notices.
 */
import { readFile } from "node:fs/promises";
import JSON5 from "json5";
import type { ConfigNotice } from "../core/config.js";
import { unknownKeys } from "../core/configKeys.js";
import { isPlainObject, own } from "../core/plainObject.js";
import { shorten } from "../core/quote.js";

/** A configuration problem (exit status 2), reported as one line. */
export class ConfigError extends Error {}

export interface ConfigFile {
  readonly path: string;
  /** `tools.loopDetection` (or the bare block); undefined when the file has none. */
  readonly global: Record<string, unknown> | undefined;
  /** Per-agent blocks by agent id. */
  readonly agents: ReadonlyMap<string, Record<string, unknown>>;
  readonly notices: readonly ConfigNotice[];
}

const BOOLEAN_KEYS = ["enabled"];

function checkBlock(path: string, where: string, block: unknown, notices: ConfigNotice[]): Record<string, unknown> {
  if (!isPlainObject(block)) throw new ConfigError(`${path}: ${where} is not an object`);
  for (const key of BOOLEAN_KEYS) {
    const value = own(block, key);
    if (value !== undefined && typeof value !== "boolean") throw new ConfigError(`${path}: ${where}.${key} must be true or false`);
  }
  for (const nested of ["detectors", "postCompactionGuard"]) {
    const value = own(block, nested);
    if (value !== undefined && !isPlainObject(value)) throw new ConfigError(`${path}: ${where}.${nested} is not an object`);
  }
  const detectors = own(block, "detectors");
  if (isPlainObject(detectors)) {
    for (const [key, value] of Object.entries(detectors)) {
      if (typeof value !== "boolean" && ["genericRepeat", "knownPollNoProgress", "pingPong"].includes(key)) {
        throw new ConfigError(`${path}: ${where}.detectors.${key} must be true or false`);
      }
    }
  }
  for (const { key, suggestion } of unknownKeys(block)) {
    notices.push({
      origin: path,
      key: `${where}.${key}`,
      message: `unknown key ${where}.${shorten(key)}${suggestion ? ` (did you mean ${suggestion}?)` : ""}; ignored`,
    });
  }
  return block;
}

/** Parses config text; `path` names the file in errors and notices. */
export function parseConfigText(path: string, text: string): ConfigFile {
  let root: unknown;
  try {
    root = JSON5.parse(text);
  } catch (error) {
    const e = error as { lineNumber?: number; columnNumber?: number; message?: string };
    const where = e.lineNumber !== undefined ? `:${e.lineNumber}:${e.columnNumber ?? 1}` : "";
    const message = String(e.message ?? error).replace(/^JSON5: /, "");
    throw new ConfigError(`${path}${where}: invalid JSON5: ${message}`);
  }
  if (!isPlainObject(root)) throw new ConfigError(`${path}: the config is not an object`);
  const notices: ConfigNotice[] = [];
  const isOpenClawConfig = own(root, "tools") !== undefined || own(root, "agents") !== undefined;
  if (!isOpenClawConfig) {
    return { path, global: checkBlock(path, "loopDetection", root, notices), agents: new Map(), notices };
  }

  let global: Record<string, unknown> | undefined;
  const tools = own(root, "tools");
  if (tools !== undefined && !isPlainObject(tools)) throw new ConfigError(`${path}: tools is not an object`);
  const block = tools ? own(tools, "loopDetection") : undefined;
  if (block !== undefined) global = checkBlock(path, "tools.loopDetection", block, notices);

  const agents = new Map<string, Record<string, unknown>>();
  const agentsSection = own(root, "agents");
  const list = isPlainObject(agentsSection) ? own(agentsSection, "list") : undefined;
  if (list !== undefined && !Array.isArray(list)) throw new ConfigError(`${path}: agents.list is not an array`);
  for (const [index, agent] of (list ?? []).entries()) {
    if (!isPlainObject(agent)) continue;
    const id = own(agent, "id");
    const agentTools = own(agent, "tools");
    const agentBlock = isPlainObject(agentTools) ? own(agentTools, "loopDetection") : undefined;
    if (typeof id !== "string" || agentBlock === undefined) continue;
    agents.set(id, checkBlock(path, `agents.list[${index}].tools.loopDetection`, agentBlock, notices));
  }
  return { path, global, agents, notices };
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
