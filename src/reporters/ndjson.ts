/** `--format ndjson`: one finding per line, in input order (files in order given, then line). */
import type { Finding } from "../core/findings.js";
import { jsonText } from "./jsonText.js";
import { publicFinding } from "./findingGroups.js";
import type { Reporter, ReportModel } from "./model.js";

/** Findings written per piece of output. */
const BATCH = 256;

/** Every finding once: replayed ones from their runs (spilled runs read back one at a time), then the live ones. */
function* allFindings(data: ReportModel): Generator<Finding> {
  for (const { run } of data.runs) yield* run.findings;
  yield* data.live?.findings ?? [];
}

/**
 * Every finding in input order (its file's place among the inputs, then its line). Replay hands
 * them out run after run, which is input order already when runs do not interleave (transcripts: a
 * run ends where the next begins): then they are written as they are read, and none is held (the
 * facts ahead of the runs say so: reporters/model.ts `ahead`). Otherwise they are all gathered and
 * sorted, stably: findings of one line (a call and its outcome share none) keep their replay order.
 */
export function* inInputOrder(data: ReportModel): Generator<Finding> {
  if (data.ahead().findingsInInputOrder) return yield* allFindings(data);
  const fileOrder = new Map(data.files.map((f, i) => [f.file, i]));
  const all = [...allFindings(data)].map((finding, index) => ({ finding, index }));
  all.sort((a, b) => (fileOrder.get(a.finding.file) ?? 0) - (fileOrder.get(b.finding.file) ?? 0) || a.finding.line - b.finding.line || a.index - b.index);
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
