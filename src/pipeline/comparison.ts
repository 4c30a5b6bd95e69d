/**
 * Replay vs live: when transcripts and the Gateway log of the same runs are analysed together, their
 * runs are lined up by run id, and per run each (detector, tool, level) is compared: did the replay
 * (under the chosen config) fire, did the live runtime, and which one first.
 *
 * Ping-pong verdicts alternate between the two tools of the loop, so a ping-pong row covers both
 * (its `tool` is the first one seen). Replay findings after a would-be stop are included: the
 * recorded run went on, and so did what the runtime logged.
 */
import type { Finding, ReplayedRun } from "../core/findings.js";
import type { LiveRunList } from "../core/liveRuns.js";
import type { Comparison, ComparisonRow, ComparisonSide } from "../reporters/comparison.js";
import { IdSet } from "../adapters/shared/keySets.js";

const rowKey = (f: Finding) => `${f.detector}\u0000${f.level}\u0000${f.detector === "ping_pong" ? "" : f.tool}`;

function sides(findings: readonly Finding[]): Map<string, { first: Finding; side: ComparisonSide }> {
  const byKey = new Map<string, { first: Finding; side: ComparisonSide }>();
  for (const f of findings) {
    const entry = byKey.get(rowKey(f));
    if (!entry) {
      byKey.set(rowKey(f), { first: f, side: { file: f.file, line: f.line, firstCall: f.call, lastCall: f.call, findings: 1, maxCount: f.count } });
      continue;
    }
    const s = entry.side;
    entry.side = {
      ...s,
      firstCall: s.firstCall ?? f.call,
      lastCall: f.call ?? s.lastCall,
      findings: s.findings + 1,
      maxCount: Math.max(s.maxCount, f.count),
    };
  }
  return byKey;
}

function earlierOf(replay: ComparisonSide | null, live: ComparisonSide | null): ComparisonRow["earlier"] {
  if (replay?.firstCall == null || live?.firstCall == null) return null;
  return replay.firstCall === live.firstCall ? "same" : replay.firstCall < live.firstCall ? "replay" : "live";
}

const firstCallOf = (row: ComparisonRow) => row.replay?.firstCall ?? row.live?.firstCall ?? Number.MAX_SAFE_INTEGER;

function compareRun(run: string, replayed: readonly Finding[], logged: readonly Finding[]): ComparisonRow[] {
  const replay = sides(replayed);
  const live = sides(logged);
  const rows: ComparisonRow[] = [];
  for (const key of new Set([...replay.keys(), ...live.keys()])) {
    const r = replay.get(key);
    const l = live.get(key);
    const first = (r ?? l)!.first;
    rows.push({
      run,
      detector: first.detector,
      tool: first.tool,
      level: first.level,
      replay: r?.side ?? null,
      live: l?.side ?? null,
      agreement: r && l ? "both" : r ? "replay_only" : "live_only",
      earlier: earlierOf(r?.side ?? null, l?.side ?? null),
    });
  }
  return rows.sort((a, b) => firstCallOf(a) - firstCallOf(b) || (a.replay ?? a.live)!.line - (b.replay ?? b.live)!.line);
}

/**
 * Lines replayed runs up with live ones as the report's runs are walked (reportFacts.ts), so that
 * no replayed run is read again for it: the live runs' ids are held first, as 53-bit keys (~12 B a
 * run), then each replayed run whose id may be among them keeps its findings, and at the end the
 * live runs are read again for the findings of those that line up. A log of a million runs, or a
 * replay of a million runs, is never a million map entries.
 */
export class LiveComparison {
  private readonly liveIds = new IdSet();
  private readonly replayed = new Map<string, Finding[]>();

  /** `replayedRuns`: how many replayed runs the walk will offer (none: the live runs are not read). */
  constructor(
    private readonly liveRuns: LiveRunList,
    replayedRuns: number,
  ) {
    if (replayedRuns > 0) for (const run of liveRuns) this.liveIds.add(run.run);
  }

  add(run: ReplayedRun): void {
    // A key two ids share lets a replayed run through here; only exact ids line up in `finish`.
    if (this.liveIds.size === 0 || !this.liveIds.has(run.run)) return;
    this.replayed.set(run.run, [...(this.replayed.get(run.run) ?? []), ...run.findings]);
  }

  finish(): Comparison {
    const logged = new Map<string, Finding[]>();
    if (this.replayed.size > 0) for (const run of this.liveRuns) if (this.replayed.has(run.run)) logged.set(run.run, [...(logged.get(run.run) ?? []), ...run.findings]);
    // In the order the replay first has them.
    const matched = [...this.replayed.keys()].filter((run) => logged.has(run));
    return { runs: matched, rows: matched.flatMap((run) => compareRun(run, this.replayed.get(run)!, logged.get(run)!)) };
  }
}

/** The comparison of whole lists (tests, and reports built by hand). */
export function compareReplayWithLive(replayedRuns: Iterable<ReplayedRun>, liveRuns: LiveRunList): Comparison {
  const runs = [...replayedRuns];
  const comparison = new LiveComparison(liveRuns, runs.length);
  for (const run of runs) comparison.add(run);
  return comparison.finish();
}
