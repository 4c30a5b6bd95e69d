/**
 * The finding rows as the CI formats (sarif, gitlab) publish them: every collapsed row of the report
 * (as the table collapses them: findingGroups.ts; one per verdict under `--verbose`), replayed runs
 * first, then the Gateway logs' findings; each with its file as a repository path and a fingerprint.
 *
 * A code-scanning service keeps an alert open across commits by its fingerprint, so the fingerprint
 * is a hash of what the row is, never of where the machine put it or when it ran: detector, level,
 * the file as a path relative to the working directory, the run id, the call pattern (tool and
 * arguments hash; a ping-pong collapses by detector alone, so only that), the side of the run's first
 * stop and the source. Line and call numbers are left out, so that a transcript that grows at its
 * start keeps its alerts. Two rows of one report can still share all that (two runs of one id in a
 * file, or `--verbose`, where each verdict is a row): the second and later get their ordinal added,
 * so that fingerprints are unique within a report.
 */
import { createHash } from "node:crypto";
import { isAbsolute, normalize, relative, sep } from "node:path";
import type { Finding } from "../core/findings.js";
import { explanation } from "./explanation.js";
import { jsonText } from "./jsonText.js";
import { groupFindings, type FindingGroup } from "./findingGroups.js";
import { replayedInOrder, type ReportModel, type ReportOptions } from "./model.js";
import { clip } from "./sanitize.js";

export interface CiRow {
  readonly group: FindingGroup;
  /** The file relative to the working directory (`/`-separated) when it is under it, else as given; `-` is standard input. */
  readonly path: string;
  readonly fingerprint: string;
  /** The row's explanation line, plain words, cut to MESSAGE_WIDTH. */
  readonly message: string;
}

/** A finding's tool (and so its explanation) may be any length; CI viewers show a few lines. */
const MESSAGE_WIDTH = 1000;

/** Every row of the report, in order; runs spilled to disk are read back one at a time. */
export function* ciRows(data: ReportModel, options: Pick<ReportOptions, "verbose" | "cwd">): Generator<CiRow> {
  const seen = new Map<string, number>();
  const rows = function* (findings: readonly Finding[]): Generator<CiRow> {
    for (const group of groupFindings(findings, options.verbose)) {
      const path = repositoryPath(group.first.file, options.cwd);
      const key = fingerprintKey(group.first, path);
      // Counted by hash: the key holds the tool name, which may be megabytes long.
      const hash = sha256(key);
      const ordinal = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, ordinal);
      const fingerprint = ordinal === 1 ? hash : sha256(`${key}#${ordinal}`);
      yield { group, path, fingerprint, message: clip(explanation(group), MESSAGE_WIDTH) };
    }
  };
  for (const run of replayedInOrder(data)) yield* rows(run.findings);
  yield* rows(data.live?.findings ?? []);
}

/**
 * The rows as the items of a JSON array, each on its own line after `indent`, comma-separated: in a
 * piece per run of the report (the rows of one run are one piece), so that output flows while runs
 * are read back from disk. Returns how many items were written.
 */
export function* jsonRowItems(data: ReportModel, options: Pick<ReportOptions, "verbose" | "cwd">, item: (row: CiRow) => unknown, indent: string): Generator<string, number> {
  let count = 0;
  let batch = "";
  let run: unknown;
  for (const row of ciRows(data, options)) {
    if (count > 0 && row.group.first.run !== run && batch !== "") {
      yield batch;
      batch = "";
    }
    run = row.group.first.run;
    batch += `${count > 0 ? "," : ""}\n${indent}${jsonText(item(row))}`;
    count++;
  }
  if (batch !== "") yield batch;
  return count;
}

/** What a row is, as text to hash: the group's own key (findingGroups.ts) with the file in place of its run object. */
function fingerprintKey(finding: Finding, path: string): string {
  const pattern = finding.detector === "ping_pong" ? [] : [finding.tool, finding.argsHash];
  return JSON.stringify(["looplens/v1", finding.detector, finding.level, path, finding.run, pattern, finding.afterStop, finding.source ?? ""]);
}

const sha256 = (text: string) => createHash("sha256").update(text.toWellFormed(), "utf8").digest("hex");

/**
 * The file as a repository path: relative to `cwd` when it is inside it (CI runs at the repository
 * root, and code scanning and GitLab resolve paths against it), normalized (`./a/../b` is `b`), with
 * `/` separators. A file outside `cwd` keeps its absolute path: there is no relative one to give.
 */
export function repositoryPath(file: string, cwd: string | undefined): string {
  if (file === "-") return file;
  let path = normalize(file);
  if (isAbsolute(path) && cwd !== undefined && isAbsolute(cwd)) {
    const inside = relative(cwd, path);
    if (inside !== "" && !inside.startsWith(`..${sep}`) && inside !== ".." && !isAbsolute(inside)) path = inside;
  }
  return sep === "\\" ? path.split(sep).join("/") : path;
}
