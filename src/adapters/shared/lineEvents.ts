import type { LineTally } from "../adapter.js";
import type { Emitted } from "./runFacts.js";

/**
 * The events one input line holds when they are handed to replay later than the line is read (a
 * line of results held back until their calls are due): the line is counted once its last event was
 * handed over, used when replay used any of them, else ignored (each refusal said by the writer).
 * `expect` each event as it is handed to the adapter's queue, then `seal` the line.
 */
export class LineEvents {
  private waiting = 0;
  private used = false;
  private sealed = false;

  constructor(private readonly tally: Pick<LineTally, "used" | "ignored">) {}

  /** One more event of the line will be handed over. */
  expect(): void {
    this.waiting++;
  }

  /** Every event of the line was expected: it is counted once the last is handed over. */
  seal(): void {
    this.sealed = true;
    if (this.waiting === 0) this.close();
  }

  /** What replay made of one of them. */
  settle(emitted: Emitted): void {
    if (emitted.used) this.used = true;
    if (--this.waiting === 0 && this.sealed) this.close();
  }

  private close(): void {
    if (this.used) this.tally.used();
    else this.tally.ignored();
  }
}
