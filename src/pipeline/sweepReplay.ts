/**
 * One unit's events replayed under several configs at once, for `sweep`: each prepared event goes to
 * one replayer per config as soon as it is made, and runs come out as their reports settle, one run
 * at a time with its report under every config. Nothing of the input is held beyond the runs still
 * open. (Keeping every prepared event to replay it again per config held the input in memory: 884 MB
 * of peak RSS for the bench's 680 MB state folder.)
 *
 * Runs settle at the same events under every config (which runs there are, and when they end, does
 * not depend on the config), so the replayers hand out the same runs in the same order.
 */
import type { ReplayedRun } from "../core/findings.js";
import type { PreparedEvent } from "../core/prepare.js";
import { HistorySharing } from "../core/history.js";
import { Replayer, type ConfigForAgent, type ProfileForRun } from "../core/replay.js";

/** One config of the grid: its config by agent and profile, and the profile choice of its runs. */
export interface GridConfig {
  readonly configFor: ConfigForAgent;
  readonly profileFor?: ProfileForRun;
}

export class GridReplay {
  private readonly replayers: Replayer[];
  /** Runs each replayer has settled but not handed out. */
  private readonly settled: ReplayedRun[][];
  /** Configs that differ only in thresholds keep equal histories until one blocks what another does not. */
  private readonly sharing = new HistorySharing();

  constructor(
    configs: readonly GridConfig[],
    /** Takes one run, as replayed under each config (in the order of the configs). */
    private readonly onRun: (reports: readonly ReplayedRun[]) => void,
  ) {
    this.settled = configs.map(() => []);
    this.replayers = configs.map(({ configFor, profileFor }, i) => new Replayer(configFor, profileFor, { onSettled: (run) => this.settled[i]!.push(run), sharing: this.sharing }));
  }

  push(event: PreparedEvent): void {
    this.sharing.nextEvent();
    for (const replayer of this.replayers) replayer.push(event);
    this.handOut();
  }

  /** Ends the runs still open and hands them out. */
  finish(): void {
    this.replayers.forEach((replayer, i) => {
      for (const run of replayer.finish()) this.settled[i]!.push(run);
    });
    this.handOut();
    if (this.settled.some((runs) => runs.length > 0)) throw new Error("sweep: the configs' replays did not end the same runs");
  }

  /** Hands out the runs every config has settled, in order. */
  private handOut(): void {
    // Called after every event: no allocation until a run has settled.
    let ready = Infinity;
    for (const runs of this.settled) ready = Math.min(ready, runs.length);
    if (ready === 0) return;
    for (let k = 0; k < ready; k++) {
      const reports = this.settled.map((runs) => runs[k]!);
      const id = reports[0]!.run;
      if (reports.some((report) => report.run !== id)) throw new Error(`sweep: the configs' replays settled runs in different orders (${JSON.stringify(id)})`);
      this.onRun(reports);
    }
    for (const runs of this.settled) runs.splice(0, ready);
  }
}
