/** `--format ndjson`: one finding per line, in input order (files in order given, then line). */
import type { Finding } from "../core/findings.js";
import { jsonText } from "./jsonText.js";
import { publicFinding } from "./findingGroups.js";
import { replayedInOrder, type Reporter } from "./model.js";

export function inInputOrder(data: Parameters<Reporter>[0]): Finding[] {
  const fileOrder = new Map(data.files.map((f, i) => [f.file, i]));
  // Every finding once: replayed ones from their runs, then the live ones.
  const all: Finding[] = [];
  for (const run of replayedInOrder(data)) for (const finding of run.findings) all.push(finding);
  for (const finding of data.live?.findings ?? []) all.push(finding);
  // Stable sort: findings of one line (a call and its outcome share none) keep their replay order.
  return all
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => (fileOrder.get(a.finding.file) ?? 0) - (fileOrder.get(b.finding.file) ?? 0) || a.finding.line - b.finding.line || a.index - b.index)
    .map(({ finding }) => finding);
}

export const ndjsonReporter: Reporter = (data) =>
  inInputOrder(data)
    .map((finding) => `${jsonText(publicFinding(finding))}\n`)
    .join("");
