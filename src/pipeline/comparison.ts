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
 * `replayedRuns()` is read twice, one run at a time (spilled runs are read back from disk): first for
 * the ids the replay has, as 53-bit keys (~12 B a run), then for the findings of the runs that a live
 * run lines up with. Neither side's runs are held: a log of a million runs, or a replay of a million
 * runs, must not be a million map entries.
 */
export function compareReplayWithLive(replayedRuns: () => Iterable<ReplayedRun>, liveRuns: LiveRunList): Comparison {
  const replayedIds = new IdSet();
  for (const run of replayedRuns()) replayedIds.add(run.run);
  const logged = new Map<string, Finding[]>();
  // A key two ids share lets a live run through here; only exact ids line up below.
  if (replayedIds.size > 0) for (const run of liveRuns) if (replayedIds.has(run.run)) logged.set(run.run, [...(logged.get(run.run) ?? []), ...run.findings]);
  const replayed = new Map<string, Finding[]>();
  if (logged.size > 0) for (const run of replayedRuns()) if (logged.has(run.run)) replayed.set(run.run, [...(replayed.get(run.run) ?? []), ...run.findings]);
  // In the order the replay first has them.
  const matched = [...replayed.keys()];
  return { runs: matched, rows: matched.flatMap((run) => compareRun(run, replayed.get(run)!, logged.get(run)!)) };
}
