/**
 * A run's calls in order, in the smallest form a picture of the run needs (`--format html` draws
 * one mark per call, coloured by tool, with compactions between them). Replay collects it only when
 * asked (`Replayer` option `timelines`): every other output needs none of it, so it costs them nothing.
 */

export interface RunTimeline {
  /** The run's tool names, in order of first call. */
  readonly tools: readonly string[];
  /** The tool of each call (call n at index n - 1), as an index into `tools`; -1 for a call not seen. */
  readonly callTools: readonly number[];
  /** For each compaction, in order, the number of calls the run had made when it happened. */
  readonly compactionsAfter: readonly number[];
  /** The run's model turns (runTurns.ts), when its input recorded any: where each ended and its tokens. */
  readonly turns?: { readonly after: readonly number[]; readonly tokens: readonly number[] };
}

/**
 * Grows one open run's timeline. The recorder and its tool lookup are working state, dropped when
 * the run closes (a run that resumes gets a new recorder over the same arrays), so a closed run
 * keeps only its three arrays.
 */
export class TimelineRecorder {
  readonly timeline: { tools: string[]; callTools: number[]; compactionsAfter: number[]; turns?: { after: number[]; tokens: number[] } };
  /** Built on the first call (from the tools so far, for a resumed run). */
  private index: Map<string, number> | undefined;

  constructor(timeline?: RunTimeline) {
    // A resumed run goes on with the arrays it had (they are the ones its report holds).
    this.timeline = (timeline as TimelineRecorder["timeline"] | undefined) ?? { tools: [], callTools: [], compactionsAfter: [] };
  }

  call(ordinal: number, tool: string): void {
    const index = (this.index ??= new Map(this.timeline.tools.map((name, i) => [name, i])));
    let toolIndex = index.get(tool);
    if (toolIndex === undefined) {
      toolIndex = this.timeline.tools.push(tool) - 1;
      index.set(tool, toolIndex);
    }
    const { callTools } = this.timeline;
    // Ordinals are dense in practice; a gap is filled rather than leaving holes in the array.
    while (callTools.length < ordinal - 1) callTools.push(-1);
    callTools[ordinal - 1] = toolIndex;
  }

  compaction(callsSoFar: number): void {
    this.timeline.compactionsAfter.push(callsSoFar);
  }
}
