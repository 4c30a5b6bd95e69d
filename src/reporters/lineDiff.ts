/**
 * A unified line diff (`@@ -a,b +c,d @@`, three lines of context) for `looplens check`. Snapshots
 * are small, so a longest-common-subsequence table over the lines that differ (after trimming the
 * common head and tail) is plenty; past a size bound the changed middle is shown as replaced whole.
 */

export type DiffOp = { readonly kind: " " | "-" | "+"; readonly text: string };

const MAX_TABLE_CELLS = 4_000_000;
const CONTEXT = 3;

/** The edit script turning `before` into `after`, as kept / removed / added lines. */
export function diffLines(before: readonly string[], after: readonly string[]): DiffOp[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const keep = (lines: readonly string[]) => lines.map((text): DiffOp => ({ kind: " ", text }));
  return [...keep(before.slice(0, head)), ...middle(a, b), ...keep(before.slice(before.length - tail))];
}

function middle(a: readonly string[], b: readonly string[]): DiffOp[] {
  if (a.length * b.length > MAX_TABLE_CELLS) {
    return [...a.map((text): DiffOp => ({ kind: "-", text })), ...b.map((text): DiffOp => ({ kind: "+", text }))];
  }
  // lcs[i][j] = length of the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: " ", text: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) {
      // Removals before additions, as diff(1) prints them.
      ops.push({ kind: "-", text: a[i++]! });
    } else {
      ops.push({ kind: "+", text: b[j++]! });
    }
  }
  return ops;
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
