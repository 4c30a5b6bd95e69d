/**
 * A tool call's arguments as transcripts keep them: `arguments`, else the legacy `input` or
 * `parameters` (OpenClaw's own trajectory exporter reads all three; Claude Code's `tool_use` blocks
 * write `input`), else `undefined` (which hashes differently from `{}`).
 */
function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

export function callArguments(holder: Record<string, unknown>): unknown {
  if (hasOwn(holder, "arguments")) return holder.arguments;
  if (hasOwn(holder, "input")) return holder.input;
  if (hasOwn(holder, "parameters")) return holder.parameters;
  return undefined;
}
