/**
 * Replays the input under several configs at once, for `sweep`: the input is read, parsed and hashed
 * once, and each prepared event goes to one replayer per config as soon as it is made. Runs come out
 * as their reports settle, one run at a time with its report under every config, and nothing of the
 * input is held beyond the runs still open. (Keeping every prepared event to replay it again per
 * config held the input in memory: 884 MB of peak RSS for the bench's 680 MB state folder.)
 *
 * Runs settle at the same events under every config (which runs there are, and when they end, does
 * not depend on the config), so the replayers hand out the same runs in the same order.
 */
import type { ReplayedRun } from "../core/findings.js";
import type { Digest } from "../core/hashing.js";
import { Replayer, type ConfigForAgent, type ProfileForRun } from "../core/replay.js";
import { readInputs, readSummary, type FileFormatSink, type InputOptions, type ReadSummary } from "./reading.js";

/** One config of the grid: its config by agent and profile, and the profile choice of its runs. */
export interface GridConfig {
  readonly configFor: ConfigForAgent;
  readonly profileFor?: ProfileForRun;
}

/** What the grid's replay hands out, in input order. */
export interface GridSink {
  /** One run, as replayed under each config (in the order of the configs). */
  run(reports: readonly ReplayedRun[]): void;
  /** The unit whose runs came last is read through (`true`), or void: it is read again (`false`). */
  unitEnd(kept: boolean): void;
  /** Told each file's format before its runs (`--agent` selects runs by the kind of agent). */
  readonly file?: FileFormatSink;
}

/** The replayers of one unit, one per config, and the runs each has settled but not handed out. */
class UnitReplay {
  private readonly replayers: Replayer[];
  private readonly settled: ReplayedRun[][];

  constructor(
    configs: readonly GridConfig[],
    private readonly sink: GridSink,
  ) {
    this.settled = configs.map(() => []);
    this.replayers = configs.map(({ configFor, profileFor }, i) => new Replayer(configFor, profileFor, { onSettled: (run) => this.settled[i]!.push(run) }));
  }

  push(event: Parameters<Replayer["push"]>[0]): void {
    for (const replayer of this.replayers) replayer.push(event);
    this.handOut();
  }

  /** Ends the unit's runs and hands out the rest. */
  finish(): void {
    this.replayers.forEach((replayer, i) => {
      for (const run of replayer.finish()) this.settled[i]!.push(run);
    });
    this.handOut();
    if (this.settled.some((runs) => runs.length > 0)) throw new Error("sweep: the configs' replays did not end the same runs");
  }

  /** Hands out the runs every config has settled, in order. */
  private handOut(): void {
    const ready = Math.min(...this.settled.map((runs) => runs.length));
    if (ready === 0) return;
    for (let k = 0; k < ready; k++) {
      const reports = this.settled.map((runs) => runs[k]!);
      const id = reports[0]!.run;
      if (reports.some((report) => report.run !== id)) throw new Error(`sweep: the configs' replays settled runs in different orders (${JSON.stringify(id)})`);
      this.sink.run(reports);
    }
    for (const runs of this.settled) runs.splice(0, ready);
  }
}

/** Reads the input once and replays it under every config; runs go to `sink` as they settle. */
export async function replayGrid(paths: readonly string[], digest: Digest, options: InputOptions, configs: readonly GridConfig[], sink: GridSink): Promise<ReadSummary> {
  let unit: UnitReplay | undefined;
  const endUnit = () => {
    if (!unit) return;
    unit.finish();
    sink.unitEnd(true);
  };
  const read = await readInputs(
    paths,
    digest,
    options,
    (again) => {
      if (again) sink.unitEnd(false);
      else endUnit();
      const replay = new UnitReplay(configs, sink);
      unit = replay;
      return (prepared) => replay.push(prepared);
    },
    // Live events (Gateway logs) do not depend on the config: a sweep has no use for them.
    () => {},
    true,
    sink.file,
  );
  endUnit();
  return readSummary(read);
}
