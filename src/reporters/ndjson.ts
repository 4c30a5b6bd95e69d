/** `--format ndjson`: one finding per line, in input order (files in order given, then line). */
import type { Finding } from "../core/findings.js";
import { jsonText } from "./jsonText.js";
import { publicFinding } from "./findingGroups.js";
import { replayedInOrder, type Reporter, type ReportModel } from "./model.js";

/** Findings written per piece of output. */
const BATCH = 256;

/** Where a finding stands in input order: its file's place among the inputs, then its line. */
function inputOrder(data: ReportModel): (a: Finding, b: Finding) => number {
  const fileOrder = new Map(data.files.map((f, i) => [f.file, i]));
  return (a, b) => (fileOrder.get(a.file) ?? 0) - (fileOrder.get(b.file) ?? 0) || a.line - b.line;
}

/** Every finding once: replayed ones from their runs (spilled runs read back one at a time), then the live ones. */
function* allFindings(data: ReportModel): Generator<Finding> {
  for (const run of replayedInOrder(data)) yield* run.findings;
  yield* data.live?.findings ?? [];
}

/**
 * Every finding in input order. Replay hands them out run after run, which is input order already
 * when runs do not interleave (transcripts: a run ends where the next begins): then they are
 * written as they are read, and none is held (runs spilled to disk are read twice, once to see
 * that). Otherwise they are all gathered and sorted, stably: findings of one line (a call and its
 * outcome share none) keep their replay order.
 */
export function* inInputOrder(data: ReportModel): Generator<Finding> {
  const compare = inputOrder(data);
  let previous: Finding | undefined;
  let sorted = true;
  for (const finding of allFindings(data)) {
    if (previous !== undefined && compare(previous, finding) > 0) {
      sorted = false;
      break;
    }
    previous = finding;
  }
  if (sorted) return yield* allFindings(data);
  const all = [...allFindings(data)].map((finding, index) => ({ finding, index }));
  all.sort((a, b) => compare(a.finding, b.finding) || a.index - b.index);
  for (const { finding } of all) yield finding;
}

export const ndjsonReporter: Reporter = function* (data) {
  let batch = "";
  let count = 0;
  for (const finding of inInputOrder(data)) {
    batch += `${jsonText(publicFinding(finding))}\n`;
    if (++count % BATCH === 0) {
      yield batch;
      batch = "";
    }
  }
  if (batch !== "") yield batch;
};
