/**
 * The formats of `looplens runs` (runLine.ts): a table of one line per run fitted to the terminal,
 * markdown, json and ndjson. Runs are written as they are read (a report of 100 000 runs is never
 * one string); the table's columns have fixed widths for that reason, and give way on a narrow
 * terminal as the fields say (`drop`, `min`), the prompt taking the rest.
 */
import { Chalk } from "chalk";
import { jsonText } from "./jsonText.js";
import { markdownText } from "./markdown.js";
import type { Reporter, ReportModel, ReportRun } from "./model.js";
import { filterNotes, plural } from "./phrases.js";
import { RUN_LINE_FIELDS, runLineDocument, type RunLineField } from "./runLine.js";
import { sanitize } from "./sanitize.js";
import { clipToWidth, displayWidth } from "./textFit.js";

/** Lines written per piece of output. */
const BATCH = 256;

const GAP = "  ";

function* batched(data: ReportModel, line: (entry: ReportRun) => string): Generator<string> {
  let batch = "";
  let count = 0;
  for (const entry of data.runs) {
    if (!entry.listed) continue;
    batch += line(entry);
    if (++count % BATCH === 0) {
      yield batch;
      batch = "";
    }
  }
  if (batch !== "") yield batch;
}

interface Placed {
  readonly field: RunLineField;
  readonly width: number;
}

/**
 * The columns that fit `width`, each as wide as its widest cell among `sample` (the first runs: the
 * rest are written as they are read, clipped to the same widths) up to the field's own `width`; the
 * fields that give way are left out lowest `drop` first, then clipped to their `min`.
 */
export function runColumns(width: number, sample: readonly ReportRun[]): Placed[] {
  const prompt = RUN_LINE_FIELDS.find((field) => field.key === "prompt")!;
  const natural = (field: RunLineField) => Math.min(field.width, sample.reduce((max, entry) => Math.max(max, displayWidth(field.text(entry))), displayWidth(field.head)));
  // The prompt's room: a third of the line (it is what a person recognises a run by), at least its
  // minimum, less when the sample's prompts are all shorter (none recorded).
  const room = Math.min(Math.max(prompt.min, Math.floor(width / 3)), natural(prompt));
  let placed = RUN_LINE_FIELDS.filter((field) => field !== prompt).map((field) => ({ field, width: natural(field) }));
  const used = () => placed.reduce((sum, p) => sum + p.width + GAP.length, 0);
  const shrink = () => {
    // The columns give way to their minimum, right to left, before any is left out.
    for (let i = placed.length - 1; i >= 0 && width - used() < room; i--) {
      const p = placed[i]!;
      placed[i] = { field: p.field, width: Math.max(p.field.min, p.width - (room - (width - used()))) };
    }
  };
  shrink();
  const drops = RUN_LINE_FIELDS.filter((field) => field.drop !== undefined).sort((a, b) => a.drop! - b.drop!);
  while (width - used() < room && drops.length > 0) {
    const dropped = drops.shift();
    // The one left out gives its room back to the others, which then give way again as needed.
    placed = RUN_LINE_FIELDS.filter((field) => field !== prompt && placed.some((p) => p.field === field) && field !== dropped).map((field) => ({ field, width: natural(field) }));
    shrink();
  }
  return [...placed, { field: prompt, width: Math.max(Math.min(room, prompt.min), width - used()) }];
}

function cell(text: string, place: Placed, last: boolean, clipLast: boolean): string {
  if (last) return clipLast ? clipToWidth(text, place.width) : text;
  const clipped = clipToWidth(text, place.width);
  const pad = " ".repeat(Math.max(0, place.width - displayWidth(clipped)));
  return place.field.align === "right" ? pad + clipped : clipped + pad;
}

/**
 * A line of cells; on a pipe (no width known) the prompt stays whole (one line, for grep). On a
 * terminal narrower than the narrowest columns, the line itself is cut at its width.
 */
function tableLine(cells: readonly string[], columns: readonly Placed[], width: number | undefined): string {
  const line = `${cells.map((text, i) => cell(text, columns[i]!, i === columns.length - 1, width !== undefined)).join(GAP)}`.replace(/ +$/, "");
  return width === undefined ? line : clipToWidth(line, width);
}

export const runsTableReporter: Reporter = function* (data, options) {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  let columns: Placed[] | undefined;
  const sample: ReportRun[] = [];
  const line = (entry: ReportRun) => `${tableLine(columns!.map((c) => c.field.text(entry)), columns!, options.width)}\n`;
  const head = () => {
    // On a pipe (no width known) every column is written, the prompt whole: a line for grep.
    columns = runColumns(options.width ?? Infinity, sample);
    return `${chalk.bold(tableLine(columns.map((c) => c.field.head), columns, options.width))}\n${sample.map(line).join("")}`;
  };
  for (const piece of batched(data, (entry) => (columns === undefined ? (sample.push(entry), "") : line(entry)))) {
    // The first batch only fills the sample (BATCH runs): its lines go out with the heading.
    yield columns === undefined ? head() : piece;
  }
  if (columns === undefined) yield head();
  yield `\n${summaryLines(data).join("\n")}\n`;
};

/** `12 runs, 340 calls` and what the filters left out. */
function summaryLines(data: ReportModel): string[] {
  const s = data.summary;
  return [`${plural(s.runs, "run")}, ${plural(s.calls, "call")} in ${plural(s.files, "file")}`, ...filterNotes(s).map(sanitize)];
}

export const runsMarkdownReporter: Reporter = function* (data) {
  const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |\n`;
  yield row(RUN_LINE_FIELDS.map((field) => field.head));
  yield row(RUN_LINE_FIELDS.map((field) => (field.align === "right" ? "---:" : "---")));
  yield* batched(data, (entry) => row(RUN_LINE_FIELDS.map((field) => markdownText(field.text(entry)))));
  yield `\n${summaryLines(data).map((line) => markdownText(line, Infinity)).join("\n\n")}\n`;
};

export const runsNdjsonReporter: Reporter = function* (data) {
  yield* batched(data, (entry) => `${jsonText(runLineDocument(entry))}\n`);
};

/** `{version, summary, runs:[…]}`: each run a line of the array, so that the document is written as runs are read. */
export const runsJsonReporter: Reporter = function* (data) {
  yield `{\n  "version": ${JSON.stringify(data.version)},\n  "runs": [`;
  let first = true;
  yield* batched(data, (entry) => {
    const text = `${first ? "" : ","}\n    ${jsonText(runLineDocument(entry))}`;
    first = false;
    return text;
  });
  const s = data.summary;
  const summary = { files: s.files, runs: s.runs, calls: s.calls, ...(s.filtered && { filtered: s.filtered }) };
  yield `${first ? "" : "\n  "}],\n  "summary": ${jsonText(summary)}\n}\n`;
};
