/**
 * How a spilled run is written as lines and read back (runSpill.ts keeps them on disk; the result
 * cache keeps its entries' runs the same way: cache/analysisEntry.ts). A *plain* run (no finding,
 * guard window, recorded veto or timeline) is a few fields; any other run is `R` and its JSON, `M`
 * and its findings in lines of FINDINGS_PER_LINE, or `P` when its findings went on the shelf while it
 * was open (shelvedFindings.ts).
 */
import { batchesOf } from "../core/findingList.js";
import type { ReplayedFinding, ReplayedRun } from "../core/findings.js";
import { NONE } from "../core/none.js";
import { EMPTY_SUM } from "../core/usage.js";
import { SharedValues } from "./sharedValues.js";
import { isShelved, ShelvedList, type ShelfPlace } from "./shelvedFindings.js";

/** Nothing a report shows of a run but its identity and counts (see the module comment). */
export function isPlainRun(run: ReplayedRun): boolean {
  return run.findings.length === 0 && run.guardWindows.length === 0 && run.recordedVetoes === 0 && run.firstStop === null && run.timeline === undefined;
}

/** The fields of a plain run that vary; `plainRun` puts the others back. */
function plainRecord(run: ReplayedRun): string {
  const { run: id, agent, session, file, calls, compactions, startedAt, profile, facts, usage } = run;
  // A plain run has no finding and no stop: what it used is all it used (nothing flagged, nothing after a stop).
  return JSON.stringify({ run: id, agent, session, file, calls, compactions, startedAt, profile, facts, usage });
}

/**
 * Written out key by key: a spread followed by keys the spread object lacks falls off V8's fast path
 * for copying objects (Node 20: ~12 µs a run against ~0.1, measured on 100,000 read-backs), and every
 * report pass reads every spilled run back.
 */
function plainRun(record: string): ReplayedRun {
  const fields = JSON.parse(record) as Pick<ReplayedRun, "run" | "agent" | "session" | "file" | "calls" | "compactions" | "startedAt" | "profile" | "facts" | "usage">;
  const run: Mutable<ReplayedRun> = {
    run: fields.run,
    agent: fields.agent,
    session: fields.session,
    file: fields.file,
    calls: fields.calls,
    compactions: fields.compactions,
    startedAt: fields.startedAt,
    profile: fields.profile,
    facts: fields.facts,
    findings: NONE,
    firstStop: null,
    guardWindows: NONE,
    recordedVetoes: 0,
    recordedVetoCalls: NONE,
  };
  // A plain run has no finding and no stop: what it used is all it used (nothing flagged, nothing after a stop).
  if (fields.usage !== undefined) {
    run.usage = fields.usage;
    run.usageOnFlagged = EMPTY_SUM;
    run.usageAfterStop = EMPTY_SUM;
  }
  return run;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Starts the record of a run written whole (JSON of the run: plain data, numbers finite). */
const WHOLE = "R";
/**
 * Starts the record of a run with more than FINDINGS_PER_LINE findings: `M`, their number, a tab,
 * the run's JSON without them; the findings follow in lines of FINDINGS_PER_LINE (JSON arrays). One
 * line per run made a stuck run of 200,000 findings one 127 MB string to write and one to read back.
 */
const MANY = "M";
const FINDINGS_PER_LINE = 1024;
/**
 * Starts the record of a run whose findings went on the shelf while it was open (shelvedFindings.ts):
 * `P` and the run's JSON, its `findings` where they are (`{ place, rest }`), read back as they are walked.
 */
const SHELVED = "P";

/**
 * The lines of a run as a spill file keeps them: a plain run's few fields, or the whole run (the
 * result cache writes its entries' runs this way too: cache/analysisEntry.ts).
 */
export function runRecords(run: ReplayedRun): Iterable<string> {
  return isPlainRun(run) ? [plainRecord(run)] : wholeRecords(run);
}

/** The lines of a run written whole, made one at a time. */
function* wholeRecords(run: ReplayedRun): Generator<string> {
  const { findings } = run;
  if (isShelved(findings)) return yield `${SHELVED}${JSON.stringify({ ...run, findings: { place: findings.place, rest: findings.rest } })}`;
  if (findings.length <= FINDINGS_PER_LINE) return yield `${WHOLE}${JSON.stringify(run)}`;
  yield `${MANY}${findings.length}\t${JSON.stringify({ ...run, findings: undefined })}`;
  for (const batch of batchesOf(findings, FINDINGS_PER_LINE)) yield JSON.stringify(batch);
}

/** The spilled runs of a segment's lines, as they were written: plain, whole, or whole in several lines. */
export function* runsOf(lines: Iterator<string>): Generator<ReplayedRun> {
  for (let next = lines.next(); !next.done; next = lines.next()) {
    const record = next.value;
    if (record.startsWith(WHOLE)) {
      const run = JSON.parse(record.slice(WHOLE.length)) as ReplayedRun;
      new SharedValues().findings(run.findings as readonly ReplayedFinding[]);
      yield run;
      continue;
    }
    if (record.startsWith(SHELVED)) {
      const run = JSON.parse(record.slice(SHELVED.length)) as Omit<ReplayedRun, "findings"> & { findings: { place: ShelfPlace; rest: ReplayedFinding[] } };
      const { place, rest } = run.findings;
      yield { ...run, findings: new ShelvedList(place, new SharedValues().findings(rest)) };
      continue;
    }
    if (!record.startsWith(MANY)) {
      yield plainRun(record);
      continue;
    }
    const tab = record.indexOf("\t");
    const count = Number(record.slice(MANY.length, tab));
    const findings: ReplayedFinding[] = [];
    // Equal values of the run's findings shared again (JSON.parse copies each: sharedValues.ts).
    const shared = new SharedValues();
    while (findings.length < count) {
      const block = lines.next();
      if (block.done) throw new Error(`a spilled run lost ${count - findings.length} of its findings`);
      for (const finding of shared.findings(JSON.parse(block.value) as ReplayedFinding[])) findings.push(finding);
    }
    yield { ...(JSON.parse(record.slice(tab + 1)) as Omit<ReplayedRun, "findings">), findings };
  }
}
