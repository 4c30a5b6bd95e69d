/**
 * A unified line diff (`@@ -a,b +c,d @@`, three lines of context) for `looplens check`. The edit
 * script is the `diff` package's (Myers' algorithm over the lines); this module only groups its
 * changes into hunks, with both sides' line numbers as `diff -u` writes them.
 */
import { diffArrays } from "diff";

export type DiffOp = { readonly kind: " " | "-" | "+"; readonly text: string };

const CONTEXT = 3;
/**
 * Past this many changed lines the diff gives up and the texts are shown as replaced whole: a
 * snapshot is a few KB (a few hundred lines), and a rewrite that large reads no better line by line.
 */
const MAX_EDIT_LENGTH = 500;

/** The edit script turning `before` into `after`, as kept / removed / added lines (removals first). */
export function diffLines(before: readonly string[], after: readonly string[]): DiffOp[] {
  const changes = diffArrays(before.slice(), after.slice(), { maxEditLength: MAX_EDIT_LENGTH }) ?? [
    { value: before.slice(), removed: true, added: false, count: before.length },
    { value: after.slice(), removed: false, added: true, count: after.length },
  ];
  return changes.flatMap((change) => {
    const kind = change.added ? "+" : change.removed ? "-" : " ";
    return change.value.map((text): DiffOp => ({ kind, text }));
  });
}

/** Unified-diff hunks; an empty array when the texts are equal. */
export function unifiedHunks(ops: readonly DiffOp[]): string[] {
  const changed = ops.map((op, index) => (op.kind === " " ? -1 : index)).filter((index) => index >= 0);
  if (changed.length === 0) return [];
  // Group changes whose context windows touch into one hunk.
  const ranges: Array<[number, number]> = [];
  for (const index of changed) {
    const from = Math.max(0, index - CONTEXT);
    const to = Math.min(ops.length - 1, index + CONTEXT);
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1] + 1) last[1] = to;
    else ranges.push([from, to]);
  }
  // Line numbers (1-based) in the old and new text where each op sits.
  const oldLine: number[] = [];
  const newLine: number[] = [];
  let o = 1;
  let n = 1;
  for (const op of ops) {
    oldLine.push(o);
    newLine.push(n);
    if (op.kind !== "+") o++;
    if (op.kind !== "-") n++;
  }
  const lines: string[] = [];
  for (const [from, to] of ranges) {
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    // An empty side is numbered from the line before it, as diff -u does.
    const oldStart = oldLine[from]! - (oldCount === 0 ? 1 : 0);
    const newStart = newLine[from]! - (newCount === 0 ? 1 : 0);
    lines.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of slice) lines.push(`${op.kind}${op.text}`);
  }
  return lines;
}
