/**
 * Runs of a Codex rollout (agents.md rule 4): one run per turn, named by Codex's own `turn_id`
 * (`task_started` / `turn_context`, 0.135+), else — older builds write no turn ids (real 0.47.0
 * rollout) — one run per `event_msg user_message`, named `<session>#<n>`.
 *
 * Decided in one pass, so the name of a run is settled when its first event is handed to replay:
 * - a `user_message` starts a run, unless a turn with an id is in progress and not yet ended (a
 *   message typed while a turn runs is injected into that turn);
 * - a turn id different from the run in progress starts a run named by it — except that a run just
 *   started by a `user_message` takes the id as its name (the 0.146 order: `user_message`, then
 *   `task_started`), or keeps its default name if replay already saw an event of it;
 * - `task_complete` / `turn_aborted` end the turn (a later `user_message` starts the next run).
 * A turn id that already named an earlier run does not name a second one (turn ids are unique;
 * a repeat comes from copied or trimmed lines): that run keeps its default name.
 */
export class CodexTurns {
  /** Segment names as TranscriptReplay reads them (segment 0: before any turn); filled in as the file is read. */
  readonly names: Array<string | undefined> = [undefined];
  private readonly usedNames = new Set<string>();
  private turnId: string | undefined;
  private opened = false;
  private ended = false;
  /** Replay was handed an event of the run in progress: its name is settled. */
  private touched = false;

  /** True when the user message starts a run. */
  userMessage(): boolean {
    if (this.opened && this.turnId !== undefined && !this.ended) return false;
    this.open(undefined);
    return true;
  }

  /** True when the turn id starts a run. */
  turnStart(turnId: string): boolean {
    if (this.turnId === turnId) return false;
    if (this.opened && this.turnId === undefined && !this.ended) {
      this.turnId = turnId;
      if (!this.touched && !this.usedNames.has(turnId)) this.name(turnId);
      return false;
    }
    this.open(turnId);
    return true;
  }

  turnEnd(): void {
    this.ended = true;
  }

  /** An event of the run in progress goes to replay. */
  touch(): void {
    this.touched = true;
  }

  private open(turnId: string | undefined): void {
    this.names.push(undefined);
    this.turnId = turnId;
    this.opened = true;
    this.ended = false;
    this.touched = false;
    if (turnId !== undefined && !this.usedNames.has(turnId)) this.name(turnId);
  }

  private name(turnId: string): void {
    this.names[this.names.length - 1] = turnId;
    this.usedNames.add(turnId);
  }
}
