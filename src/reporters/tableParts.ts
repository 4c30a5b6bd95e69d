/**
 * Pieces shared by the human reports' tables: borderless tables fitted to the terminal width, and
 * level colours. A table is laid out as its columns at full width; when that is too wide, the
 * table's own list of shrinks (drop a column, use a shorter form, clip a column) is applied in order
 * until it fits, so the least telling detail goes first and no row wraps on the terminal.
 */
import type { ChalkInstance } from "chalk";
import { Chalk } from "chalk";
import type { FindingLevel } from "../core/findings.js";
import { clipToWidth, displayWidth, padToWidth } from "./textFit.js";

export interface Column {
  /** Names the column for shrinks; not printed. */
  readonly key: string;
  readonly head: string;
  readonly cells: readonly string[];
}

/** One way to make a table narrower. */
export type Shrink =
  | { readonly kind: "drop"; readonly key: string }
  | { readonly kind: "replace"; readonly key: string; readonly head: string; readonly cells: readonly string[] }
  /** A shorter head; the cells stay as they are (clipped or not). */
  | { readonly kind: "head"; readonly key: string; readonly head: string }
  /** Cut the column's cells (and head) down to what the width leaves, never below `min` columns. */
  | { readonly kind: "clip"; readonly key: string; readonly min: number };

export const columnWidth = (column: Column) => column.cells.reduce((max, cell) => Math.max(max, displayWidth(cell)), displayWidth(column.head));

/** Each cell takes one space of padding before it (the look cli-table3 gave these tables). */
export const tableWidth = (columns: readonly Column[]): number => columns.reduce((sum, column) => sum + 1 + columnWidth(column), 0);

export interface FittedTable {
  readonly columns: readonly Column[];
  /** The shrinks that were needed, in order. */
  readonly applied: readonly Shrink[];
}

const clipped = (column: Column, width: number): Column => ({
  key: column.key,
  head: clipToWidth(column.head, width),
  cells: column.cells.map((cell) => clipToWidth(cell, width)),
});

/**
 * The table in `width` columns if its shrinks can get it there (else as narrow as they make it).
 * A step that is a list applies all of its shrinks at once (heads that read as a set).
 */
export function fitColumns(columns: readonly Column[], width: number, steps: ReadonlyArray<Shrink | readonly Shrink[]>): FittedTable {
  const current = [...columns];
  const applied: Shrink[] = [];
  // Columns as they were before their first clip: a clip made early may give back room that later
  // shrinks freed.
  const unclipped = new Map<string, Column>();
  const shrinks = function* () {
    for (const step of steps) {
      if (tableWidth(current) <= width) return;
      if (Array.isArray(step)) yield* step.map((shrink) => ({ shrink, force: true }));
      else yield { shrink: step as Shrink, force: false };
    }
  };
  for (const { shrink, force } of shrinks()) {
    const excess = tableWidth(current) - width;
    if (excess <= 0 && !force) break;
    const index = current.findIndex((column) => column.key === shrink.key);
    if (index < 0) continue;
    const column = current[index]!;
    if (shrink.kind === "drop" || shrink.kind === "replace") unclipped.delete(column.key);
    if (shrink.kind === "drop") current.splice(index, 1);
    else if (shrink.kind === "replace") current[index] = { key: column.key, head: shrink.head, cells: shrink.cells };
    else if (shrink.kind === "head") current[index] = { ...column, head: shrink.head };
    else {
      const target = Math.max(shrink.min, columnWidth(column) - Math.max(0, excess));
      if (target >= columnWidth(column)) continue;
      if (!unclipped.has(column.key)) unclipped.set(column.key, column);
      current[index] = clipped(column, target);
    }
    applied.push(shrink);
  }
  for (const [key, original] of unclipped) {
    const index = current.findIndex((column) => column.key === key);
    const slack = width - tableWidth(current);
    if (index < 0 || slack <= 0) continue;
    const head = current[index]!.head === clipToWidth(original.head, columnWidth(current[index]!)) ? original.head : current[index]!.head;
    current[index] = clipped({ ...original, head }, Math.min(columnWidth(original), columnWidth(current[index]!) + slack));
  }
  return { columns: current, applied };
}

/**
 * The table's lines: a head row (bold with colour), then each row followed by the lines `below`
 * gives for it (explanations). Trailing blanks are left for the caller to trim.
 */
export function renderColumns(columns: readonly Column[], color: boolean, below?: (row: number) => readonly string[]): string[] {
  const bold = new Chalk({ level: color ? 1 : 0 }).bold;
  const widths = columns.map(columnWidth);
  const line = (cell: (column: Column, i: number) => string) => columns.map((column, i) => ` ${padToWidth(cell(column, i), widths[i]!)}`).join("");
  const rows = columns[0]?.cells.length ?? 0;
  const out = [line((column) => (color && column.head !== "" ? bold(column.head) : column.head))];
  for (let row = 0; row < rows; row++) {
    out.push(line((column) => column.cells[row]!));
    if (below) for (const extra of below(row)) out.push(extra);
  }
  return out;
}

/** Columns from a head and rows of cells (keys are the heads). */
export function columnsOf(head: readonly string[], rows: readonly (readonly string[])[]): Column[] {
  return head.map((h, i) => ({ key: h, head: h, cells: rows.map((row) => row[i] ?? "") }));
}

export function levelColor(chalk: ChalkInstance, level: FindingLevel): (text: string) => string {
  if (level === "abort") return chalk.magenta.bold;
  if (level === "critical") return chalk.red.bold;
  return chalk.yellow;
}
