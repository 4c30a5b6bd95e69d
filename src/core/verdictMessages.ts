/**
 * The runtime's words for each verdict, shared by both generations (the verdict table in
 * detectors.ts names them): the messages did not change between generations, only when they fire,
 * but for the newest generation's generic block, which counts outcomes and says so.
 */
import type { ArgumentChurn } from "./profiles/newest/argumentChurn.js";

type Subject = { readonly tool: string; readonly unknownTool?: string | undefined; readonly churn?: ArgumentChurn };

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
  argumentChurn: (s: Subject, n: number) => {
    const churn = s.churn;
    const variants = churn === undefined || churn.kind === "none" ? 0 : churn.variants;
    if (churn?.kind === "write-mutation") {
      return `WARNING: ${s.tool} has changed the same target with ${variants} distinct argument variants and no intervening verification. Verify the result before writing again; this tool call remains allowed.`;
    }
    return `WARNING: ${s.tool} has cycled through ${variants} repeated argument patterns with the same stable outcome ${n} times. Changing arguments is not making progress; this tool call remains allowed.`;
  },
} as const;

export type MessageName = keyof typeof VERDICT_MESSAGES;
