/**
 * `--format junit`: JUnit XML as GitLab, Jenkins, CircleCI and Azure Pipelines read it (the
 * Jenkins/Surefire flavour): a `<testsuites>` root, a `<testsuite>` per input file (named by its
 * path) and a `<testcase>` per run in it (named by the run id, its class the file). A run fails — a
 * `<failure>` whose text is the run's findings table in plain words — when it has a finding at or
 * above `--fail-on`, which for this format means `warning` when not given: a CI system shows a test
 * report, and a run that made the runtime warn of a loop is one to look at. The exit status does not
 * change with it (cli.md: without `--fail-on` analyze exits 0), so a job can publish the report and
 * decide on failing apart. A passing run with findings below the level has its table in
 * `<system-out>`.
 *
 * An input file looplens could not read at all is a suite with one `<testcase>` in `<error>`; lines
 * skipped in a file are listed in its suite's `<system-err>`. Counts (tests, failures, errors,
 * skipped: always 0) add up from the cases to the suites to the root; `time` is left out, as looplens
 * knows no run's duration. Live runs of Gateway logs are cases of the log's suite (findings logged
 * while no run was open belong to no run, and are in no case, as `--fail-on` does not count them).
 *
 * Every text is escaped (`& < >`; in attributes also `" '`, tabs and breaks), and characters XML 1.0
 * cannot hold (C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates) are dropped, so the
 * document is well-formed whatever the input held; input strings are sanitized as for a terminal
 * first.
 */
import { Chalk } from "chalk";
import { LEVEL_RANK, levelLabel, type FindingLevel, type RunReport } from "../core/findings.js";
import { LEGEND, plural, thresholdList } from "./phrases.js";
import type { FileRuns, FindingRow, ReportModel, Reporter, WriteOptions } from "./model.js";
import { shownPath } from "./runFacts.js";
import { clip, ID_WIDTH, sanitize } from "./sanitize.js";
import { runTable } from "./table.js";

/** Characters outside XML 1.0's `Char` production, which no escape can write. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ENTITY: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;" };

/** Text for an element's content (quotes need no escape there; `]]>` cannot occur, as every `>` is escaped). */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>]/g, (c) => ENTITY[c]!);
}

/** Text for an attribute value: breaks and tabs too, which parsers would fold into spaces. */
export function xmlAttribute(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"'\t\n\r]/g, (c) => ENTITY[c]!);
}

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`)
    .join("");

/** The plain table's width: CI logs do not wrap, but a line of a few hundred columns is hard to read. */
const TABLE_WIDTH = 120;

interface SuiteCounts {
  tests: number;
  failures: number;
  errors: number;
}

export const junitReporter: Reporter = function* (data, options) {
  // A suite's counts come before its cases: the facts ahead of the runs (no spilled run read for them).
  const { gate, files } = data.ahead();
  const floor = gate.floor;
  const counts = suiteCounts(data, files);
  const total = [...counts.values()].reduce((sum, c) => ({ tests: sum.tests + c.tests, failures: sum.failures + c.failures, errors: sum.errors + c.errors }), { tests: 0, failures: 0, errors: 0 });
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attributes({ name: "looplens", ...total, skipped: 0 })}>\n`;
  const suiteFiles = [...counts.keys()];
  const writer = suiteWriter(data, options, floor, counts);
  if (files.grouped) {
    // Runs come file after file in suite order: each suite is written as its runs are read.
    let next = 0;
    let open: string | undefined;
    for (const run of allRuns(data)) {
      if (run.run.file !== open) {
        if (open !== undefined) yield writer.close(open);
        while (suiteFiles[next] !== run.run.file) yield writer.empty(suiteFiles[next++]!);
        open = suiteFiles[next++]!;
        yield writer.open(open);
      }
      yield writer.testcase(run);
    }
    if (open !== undefined) yield writer.close(open);
    while (next < suiteFiles.length) yield writer.empty(suiteFiles[next++]!);
  } else {
    const byFile = new Map<string, RunWithRows[]>(suiteFiles.map((file) => [file, []]));
    for (const run of allRuns(data)) byFile.get(run.run.file)!.push(run);
    for (const [file, runs] of byFile) yield runs.length === 0 ? writer.empty(file) : [writer.open(file), ...runs.map(writer.testcase), writer.close(file)].join("");
  }
  yield "</testsuites>\n";
};

type RunWithRows = { readonly run: RunReport; readonly rows: readonly FindingRow[] };

/** Replayed runs in order (spilled ones read back one at a time), then live ones. */
function* allRuns(data: ReportModel): Generator<RunWithRows> {
  yield* data.runs;
  if (data.live) yield* data.live.reportRuns;
}

/** Each suite's counts, in suite order (input files as read, unreadable ones, then files only runs name). */
function suiteCounts(data: ReportModel, files: FileRuns): Map<string, SuiteCounts> {
  const unusable = new Set(data.unusable.map((u) => u.file));
  const counts = new Map<string, SuiteCounts>();
  for (const [file, c] of files.counts) {
    const error = unusable.has(file) ? 1 : 0;
    counts.set(file, { tests: error + c.runs, failures: c.failing, errors: error });
  }
  return counts;
}

/** How many of the run's findings are at or above the level, by level: counted in one walk (a very long run's are read back from disk: core/findingList.ts). */
function failing(run: RunReport, floor: FindingLevel): Record<FindingLevel, number> {
  const over = { warning: 0, critical: 0, abort: 0 };
  for (const f of run.findings) if (LEVEL_RANK[f.level] >= LEVEL_RANK[floor]) over[f.level]++;
  return over;
}

const LEVELS = ["warning", "critical", "abort"] as const;

function suiteWriter(data: ReportModel, options: WriteOptions, floor: FindingLevel, counts: ReadonlyMap<string, SuiteCounts>) {
  const unusable = new Map(data.unusable.map((u) => [u.file, u.reason]));
  const diagnostics = new Map<string, string[]>();
  for (const d of data.diagnostics) diagnostics.set(d.file, [...(diagnostics.get(d.file) ?? []), `${shownPath(d.file, options.cwd)}:${d.line}: ${sanitize(d.reason)}`]);
  const properties = [
    `    <properties>\n`,
    `      <property${attributes({ name: "looplens.version", value: data.version })}/>\n`,
    `      <property${attributes({ name: "looplens.failOn", value: levelLabel(floor) })}/>\n`,
    `      <property${attributes({ name: "looplens.thresholds", value: thresholdList(data.config.effective) })}/>\n`,
    `    </properties>\n`,
  ].join("");
  const name = (file: string) => shownPath(file, options.cwd);
  const open = (file: string) => {
    const c = counts.get(file)!;
    const error = unusable.has(file)
      ? `    <testcase${attributes({ name: "read", classname: name(file) })}>\n      <error${attributes({ message: `not read: ${sanitize(unusable.get(file)!)}`, type: "unusable input" })}/>\n    </testcase>\n`
      : "";
    return `  <testsuite${attributes({ name: name(file), tests: c.tests, failures: c.failures, errors: c.errors, skipped: 0 })}>\n${properties}${error}`;
  };
  const close = (file: string) => {
    const lines = diagnostics.get(file);
    return `${lines ? `    <system-err>${xmlText(`${lines.join("\n")}\n`)}</system-err>\n` : ""}  </testsuite>\n`;
  };
  const testcase = ({ run, rows }: RunWithRows) => {
    const head = `    <testcase${attributes({ name: clip(run.run, ID_WIDTH), classname: name(run.file) })}`;
    if (run.findings.length === 0) return `${head}/>\n`;
    const text = xmlText(runText(run, rows, options));
    const over = failing(run, floor);
    if (over.warning + over.critical + over.abort === 0) return `${head}>\n      <system-out>${text}</system-out>\n    </testcase>\n`;
    const worst = over.abort > 0 ? "abort" : over.critical > 0 ? "critical" : "warning";
    return `${head}>\n      <failure${attributes({ message: failureMessage(run, over, floor), type: levelLabel(worst) })}>${text}</failure>\n    </testcase>\n`;
  };
  return { open, close, testcase, empty: (file: string) => `${open(file)}${close(file)}` };
}

/** `12 findings at or above warning (10 warning, 2 block); would have been blocked at call 21`. */
function failureMessage(run: RunReport, over: Readonly<Record<FindingLevel, number>>, floor: FindingLevel): string {
  const byLevel = LEVELS.map((level) => [level, over[level]] as const)
    .filter(([, n]) => n > 0)
    .map(([level, n]) => `${n} ${levelLabel(level)}`);
  const what = run.firstStop?.kind === "abort" ? "aborted" : "blocked";
  const stop = run.firstStop === null ? "" : run.source === "log" ? `; the live runtime ${what} it at call ${run.firstStop.call}` : `; would have been ${what} at call ${run.firstStop.call}`;
  return `${plural(over.warning + over.critical + over.abort, "finding")} at or above ${levelLabel(floor)} (${byLevel.join(", ")})${stop}`;
}

/** The run's header and findings table, as `--format table` prints them without colour. */
function runText(run: RunReport, rows: readonly FindingRow[], options: WriteOptions): string {
  const who = [`run ${clip(run.run, ID_WIDTH)}`, run.agent !== null ? `agent ${clip(run.agent, ID_WIDTH)}` : "", run.session !== null ? `session ${clip(run.session, ID_WIDTH)}` : ""];
  const where = [shownPath(run.file, options.cwd), plural(run.calls, "call"), plural(run.compactions, "compaction"), ...(run.source === "log" ? ["from a Gateway log"] : [])];
  const table = runTable(rows, { ...options, color: false }, new Chalk({ level: 0 }), TABLE_WIDTH).replace(/[ \t]+$/gm, "");
  return `\n${who.filter(Boolean).join(" · ")}\n${where.join(" · ")}\n${table}\n\n${LEGEND}\n`;
}
