/**
 * `--format gitlab`: a GitLab Code Quality report (the `codequality` artifact of a job), which merge
 * requests show as a widget and diff annotations: a JSON array of one issue per table row (ciRows.ts:
 * repeated verdicts of one pattern collapse; `--verbose` gives one per verdict), each
 * `{description, check_name, fingerprint, severity, location: {path, lines: {begin}}}`.
 *
 * Severity, from GitLab's set (info, minor, major, critical, blocker): a warning is `minor` (the
 * runtime only tells the model), a block is `critical` (looplens's level word for it, and the call is
 * refused), an abort is `blocker` (the run is ended). `major` and `info` are not used: looplens has no
 * level between a warning and a block, nor below a warning.
 *
 * The fingerprint is the row's hash (ciRows.ts): equal across runs and machines, unique in the
 * report, which is what GitLab needs to tell new issues from fixed ones between two pipelines.
 */
import type { FindingLevel } from "../core/findings.js";
import { jsonRowItems, type CiRow } from "./ciRows.js";
import type { Reporter } from "./model.js";

export type CodeQualitySeverity = "info" | "minor" | "major" | "critical" | "blocker";

export const SEVERITY: Readonly<Record<FindingLevel, CodeQualitySeverity>> = { warning: "minor", critical: "critical", abort: "blocker" };

function issue(row: CiRow): Record<string, unknown> {
  const { first } = row.group;
  return {
    description: row.message,
    check_name: first.detector,
    fingerprint: row.fingerprint,
    severity: SEVERITY[first.level],
    location: { path: row.path, lines: { begin: Math.max(1, first.line) } },
  };
}

export const gitlabReporter: Reporter = function* (data, options) {
  yield "[";
  const count = yield* jsonRowItems(data, options, issue, "  ");
  yield count > 0 ? "\n]\n" : "]\n";
};
