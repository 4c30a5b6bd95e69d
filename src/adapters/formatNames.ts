/**
 * The input formats and the agents they record, by name, as the registry lists them (registry.ts
 * `INPUT_FORMATS`, `AGENT_KINDS`, `agentKindOf`, and the agents with default homes). Apart from the
 * adapters themselves, so that a command's flags (`--input-format`, `--agent`, `--agent-home`) and
 * its filters can be declared without loading every reader: `--help`, `--version` and a kept output
 * load no adapter (as reporters/formatNames.ts does for the reporters). formatNames.test checks
 * these lists against the registry.
 */
import type { InputFormat } from "./adapter.js";

/** Each format, in the registry's sniffing order, with the agent whose runs it records (none: looplens' canonical events). */
const AGENT_OF_FORMAT: ReadonlyMap<InputFormat, string | undefined> = new Map([
  ["openclaw-trajectory", "openclaw"],
  ["openclaw-session", "openclaw"],
  ["gateway-log", "openclaw"],
  ["codex", "codex"],
  ["openhands-eval", "openhands"],
  ["openhands", "openhands"],
  ["gemini-cli", "gemini-cli"],
  ["claude-code", "claude-code"],
  ["events", undefined],
]);

export const INPUT_FORMATS: readonly InputFormat[] = [...AGENT_OF_FORMAT.keys()];

/** The agents the formats record, in the order help and errors list them (OpenClaw first, the others by name). */
export const AGENT_KINDS: readonly string[] = ["openclaw", "claude-code", "codex", "gemini-cli", "openhands"];

/** The agent a format's runs are of; undefined for looplens' own canonical events (and unknown formats). */
export function agentKindOf(format: string): string | undefined {
  return AGENT_OF_FORMAT.get(format);
}

/** `--agent-home`'s choices: the agents whose descriptors know their default folders, then `all`. */
export const AGENT_HOMES: readonly string[] = [...AGENT_KINDS, "all"];
