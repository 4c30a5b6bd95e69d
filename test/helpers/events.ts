/** Builders for canonical event lines, so tests read as the scenario they describe. */

export type EventLine = Record<string, unknown>;

export function call(run: string, id: string, tool: string, args: unknown, extra: EventLine = {}): EventLine {
  return { type: "tool_call", run, id, tool, args, ...extra };
}

export function result(run: string, id: string, tool: string, value: unknown, extra: EventLine = {}): EventLine {
  return { type: "tool_result", run, id, tool, result: value, ...extra };
}

export function failure(run: string, id: string, tool: string, error: unknown, extra: EventLine = {}): EventLine {
  return { type: "tool_result", run, id, tool, error, ...extra };
}

export function textResult(text: string, details: Record<string, unknown> = {}): unknown {
  return { content: [{ type: "text", text }], details };
}

/** `n` identical call/result pairs with ids `${prefix}${i}`. */
export function repeat(n: number, run: string, tool: string, args: unknown, value: unknown, prefix = "c"): EventLine[] {
  const lines: EventLine[] = [];
  for (let i = 0; i < n; i++) lines.push(call(run, `${prefix}${i}`, tool, args), result(run, `${prefix}${i}`, tool, value));
  return lines;
}

export function toJsonl(lines: readonly EventLine[]): string {
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}
