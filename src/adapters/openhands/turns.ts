/**
 * The turns of one OpenHands conversation's events, in file order (usage.ts): the changes of the
 * accumulated metrics once a file records them (they cover every response, and the cost), else
 * each V0 response's own usage once per `model_response.id`. Events written again (same id) never
 * get here: the replay drops them first.
 */
import type { Usage } from "../../core/usage.js";
import { AccumulatedUsage, accumulatedMetrics, responseUsage } from "./usage.js";

export class OpenHandsTurns {
  private readonly accumulated = new AccumulatedUsage();
  private readonly responses = new Set<string>();
  private sawMetrics = false;

  /** The turns an event ends (none for most). */
  of(event: Record<string, unknown>): readonly Usage[] {
    const metrics = accumulatedMetrics(event);
    if (metrics !== undefined) {
      this.sawMetrics = true;
      return this.accumulated.next(metrics);
    }
    if (this.sawMetrics) return NONE;
    const response = responseUsage(event);
    if (response?.usage === undefined) return NONE;
    // Repeated on every action of the response and their observations: counted once.
    if (response.id !== undefined) {
      if (this.responses.has(response.id)) return NONE;
      this.responses.add(response.id);
    }
    return [response.usage];
  }
}

const NONE: readonly Usage[] = [];
