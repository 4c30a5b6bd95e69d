/**
 * The text OpenClaw's agent loop gives a call of a tool it does not have: `Tool <name> not found`,
 * whatever the name. Its unknown-tool guard extracts names by a narrower pattern (hashing.ts
 * `unknownToolName`, detection.md: `[a-z0-9_.-]+`), so a call of `google:search` is refused with this
 * text and yet never counted as an unknown-tool streak: the transcript adapter still replays such an
 * attempt (inputs.md §2), and the report says why no `unknown_tool_repeat` follows.
 */
import { unknownToolName } from "./hashing.js";

const TOOL_NOT_FOUND = /^Tool (\S(?:.*\S)?) not found$/;

/** The tool name of the runtime's own `Tool <name> not found` (surrounding whitespace aside), else undefined. */
export function toolNotFoundName(text: string): string | undefined {
  return TOOL_NOT_FOUND.exec(text.trim())?.[1];
}

/** The name of a `Tool <name> not found` that the unknown-tool patterns do not extract (so no unknown-tool streak counts it). */
export function unrecognisedToolNotFound(text: string): string | undefined {
  const name = toolNotFoundName(text);
  return name !== undefined && unknownToolName(text) === undefined ? name : undefined;
}
