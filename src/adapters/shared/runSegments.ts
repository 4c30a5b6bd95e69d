/**
 * The runs of a transcript-like stream, one per user message (a segment): the run in progress is the
 * segment's explicit name when the format gives one (OpenClaw's run markers, openclaw/runNaming.ts;
 * Codex's turn ids), else `<sessionId>#<n>`, n counting the session's runs from 1 (Gemini CLI and
 * OpenHands, which write no turn id, use only that).
 */
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
    private names: ReadonlyArray<string | undefined>,
    private readonly sessionId: () => string,
    /** Runs that earlier files of the session counted (archives of its earlier lives). */
    private readonly runsBefore = 0,
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

  /**
   * The stream grew and its segments are named `names` now (a first pass run again over the whole
   * file): true when the segments known so far keep their names and no later segment takes a name
   * one of them had, explicit or default (a run ended as final would come back); the names are then
   * these. False leaves everything as it was.
   */
  grown(names: ReadonlyArray<string | undefined>): boolean {
    if (names.length < this.names.length) return false;
    for (let segment = 0; segment < this.names.length; segment++) if (names[segment] !== this.names[segment]) return false;
    const defaultPrefix = `${this.sessionId()}#`;
    for (let segment = this.names.length; segment < names.length; segment++) {
      const name = names[segment];
      if (name !== undefined && (this.lastNamed.has(name) || name.startsWith(defaultPrefix))) return false;
    }
    this.names = names;
    names.forEach((name, segment) => name !== undefined && this.lastNamed.set(name, segment));
    return true;
  }

  userMessage(): void {
    this.segment++;
  }

  /** The run of the segment in progress; call it only for events that are emitted. */
  current(): string {
    if (this.segment === 0) this.leadingRun = true;
    const named = this.names[this.segment];
    if (named !== undefined) return named;
    return `${this.sessionId()}#${this.runsBefore + this.segment + (this.leadingRun ? 1 : 0)}`;
  }

  /** Whether this file has a run in progress yet (asking `current` would make a leading one). */
  started(): boolean {
    return this.segment > 0 || this.leadingRun;
  }

  /** Runs counted so far, with those of earlier files: where the next file's default names go on. */
  count(): number {
    return this.runsBefore + this.segment + (this.leadingRun ? 1 : 0);
  }
}
