/**
 * The runtime's words for each verdict, shared by every generation's verdict table (detectors.ts,
 * profiles/newest/verdicts.ts): the messages did not change between generations, only when they fire.
 */
type Subject = { readonly tool: string; readonly unknownTool?: string | undefined };

export const VERDICT_MESSAGES = {
  unknownTool: (s: Subject, n: number) =>
    `CRITICAL: attempted unavailable tool ${s.unknownTool ?? s.tool} ${n} times. Session execution blocked; stop calling it and use an available tool or report the task as failed.`,
  circuitBreaker: (s: Subject, n: number) =>
    `CRITICAL: ${s.tool} has repeated identical no-progress outcomes ${n} times. Session execution blocked by global circuit breaker to prevent runaway loops.`,
  pollCritical: (s: Subject, n: number) =>
    `CRITICAL: Called ${s.tool} with identical arguments and no progress ${n} times. This appears to be a stuck polling loop. Session execution blocked to prevent resource waste.`,
  pollWarning: (s: Subject, n: number) =>
    `WARNING: You have called ${s.tool} ${n} times with identical arguments and no progress. Stop polling and either (1) increase wait time between checks, or (2) report the task as failed if the process is stuck.`,
  pingPongCritical: (_s: Subject, n: number) =>
    `CRITICAL: You are alternating between repeated tool-call patterns (${n} consecutive calls) with no progress. This appears to be a stuck ping-pong loop. Session execution blocked to prevent resource waste.`,
  pingPongWarning: (_s: Subject, n: number) =>
    `WARNING: You are alternating between repeated tool-call patterns (${n} consecutive calls). This looks like a ping-pong loop; stop retrying and report the task as failed.`,
  repeatCritical: (s: Subject, n: number) =>
    `CRITICAL: Called ${s.tool} with identical arguments and no progress ${n} times. This appears to be a stuck tool loop. Session execution blocked to prevent resource waste.`,
  /** The newest generation's generic block counts identical outcomes, and says so. */
  repeatCriticalByOutcome: (s: Subject, n: number) =>
    `CRITICAL: Called ${s.tool} with identical outcomes ${n} times. This appears to be a stuck tool loop. Session execution blocked to prevent resource waste.`,
  repeatWarning: (s: Subject, n: number) =>
    `WARNING: You have called ${s.tool} ${n} times with identical arguments. If this is not making progress, stop retrying and report the task as failed.`,
} as const;
