/**
 * Run names of an OpenClaw transcript (inputs.md §2). Each user message starts a run (a segment);
 * the run is named by the `runId` of the last `openclaw:bootstrap-context:full` custom entry written
 * since the previous user message, else by the first `openclaw:prompt-error` entry written inside it,
 * else `<sessionId>#<n>`, n counting the session's runs from 1.
 *
 * A prompt error can come after a run's tool calls, so names are settled from a first pass over the
 * file: it records only these few markers (one or two per run), never whole entries.
 */
import { textOf, type StringForm } from "../core/byteText.js";

export type RunMarker =
  | { readonly kind: "user"; readonly line: number }
  | { readonly kind: "bootstrap" | "promptError"; readonly line: number; readonly runId: string };

export const BOOTSTRAP_CUSTOM_TYPE = "openclaw:bootstrap-context:full";
export const PROMPT_ERROR_CUSTOM_TYPE = "openclaw:prompt-error";

/** The marker a custom entry (its `customType` and `data`, strings in `form`) stands for, if any. */
export function customRunMarker(line: number, customType: unknown, data: unknown, form: StringForm = "text"): RunMarker | undefined {
  if (customType !== BOOTSTRAP_CUSTOM_TYPE && customType !== PROMPT_ERROR_CUSTOM_TYPE) return undefined;
  const rawRunId = typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>).runId : undefined;
  if (typeof rawRunId !== "string") return undefined;
  const runId = textOf(form, rawRunId).trim();
  if (runId === "") return undefined;
  return { kind: customType === BOOTSTRAP_CUSTOM_TYPE ? "bootstrap" : "promptError", line, runId };
}

/**
 * Explicit names per segment, from the markers of the entries that will be replayed, in file order.
 * Segment 0 holds whatever comes before the first user message; segment k follows the k-th.
 */
export function segmentNames(markers: Iterable<RunMarker>): Array<string | undefined> {
  const names: Array<string | undefined> = [undefined];
  let bootstrap: string | undefined;
  for (const marker of markers) {
    const segment = names.length - 1;
    switch (marker.kind) {
      case "bootstrap":
        bootstrap = marker.runId;
        break;
      case "user":
        names.push(bootstrap);
        bootstrap = undefined;
        break;
      case "promptError":
        if (names[segment] === undefined) names[segment] = marker.runId;
        break;
    }
  }
  return names;
}

/**
 * Follows the segments during replay and names the run in progress. Tool activity before the first
 * user message (which the runtime never writes, but a cut file may hold) is a run of its own.
 */
export class RunSegments {
  private segment = 0;
  private leadingRun = false;
  /** Explicit name → the last segment it names. */
  private readonly lastNamed = new Map<string, number>();

  constructor(
    private readonly names: ReadonlyArray<string | undefined>,
    private readonly sessionId: () => string,
  ) {
    names.forEach((name, segment) => name !== undefined && this.lastNamed.set(name, segment));
  }

  /**
   * Whether `run`, the run of the segment in progress, is over once the segment is: no later segment
   * can be named so (an explicit name that spells a default `<session>#<n>` might be).
   */
  endsWithSegment(run: string): boolean {
    if ((this.lastNamed.get(run) ?? -1) > this.segment) return false;
    return this.names[this.segment] === undefined || !run.startsWith(`${this.sessionId()}#`);
  }

  userMessage(): void {
    this.segment++;
  }

  /** The run of the segment in progress; call it only for events that are emitted. */
  current(): string {
    if (this.segment === 0) this.leadingRun = true;
    const named = this.names[this.segment];
    if (named !== undefined) return named;
    return `${this.sessionId()}#${this.segment + (this.leadingRun ? 1 : 0)}`;
  }
}
