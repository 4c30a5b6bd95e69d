/**
 * The diagnostics a command says on stderr, grouped by kind: a real install gave 57 near-identical
 * `file:line: reason` lines, which hid the one line that differed. A kind is a reason with what
 * varies from line to line (numbers, quoted input) left out; a kind of more than a few is shown by
 * its first diagnostic, as it is, with how many more there are like it. `--verbose` shows every one.
 */
import type { Diagnostic } from "../core/findings.js";
import { sanitize } from "./sanitize.js";

/** Kinds shown; more kinds than this are counted in one line. */
const SHOWN_KINDS = 20;

/** A kind of this many or fewer is shown whole: folding two lines into one saves nothing. */
const WHOLE_KIND = 3;

/** A reason without what varies between diagnostics of one kind: JSON-quoted input, numbers. */
export function diagnosticKind(reason: string): string {
  return reason.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/\d+(?:\.\d+)?/g, "N");
}

const plain = (d: Diagnostic) => `${sanitize(d.file)}:${d.line}: ${sanitize(d.reason)}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The lines (without newlines) for `shown`, the diagnostics kept (at most MAX_KEPT_DIAGNOSTICS),
 * of `total` made: every one under `verbose`, else the first of each kind.
 */
export function diagnosticLines(shown: readonly Diagnostic[], total: number, verbose: boolean): string[] {
  if (total === 0) return [];
  const kept = total > shown.length ? ` (${shown.length} kept)` : "";
  if (verbose) return [...shown.map(plain), ...(kept ? [`looplens: ${total} diagnostics in all${kept}; --format json lists the kept ones`] : [])];
  const kinds = new Map<string, Diagnostic[]>();
  for (const diagnostic of shown) {
    const kind = diagnosticKind(diagnostic.reason);
    const known = kinds.get(kind);
    if (known) known.push(diagnostic);
    else kinds.set(kind, [diagnostic]);
  }
  const groups = [...kinds.values()];
  const lines = groups.slice(0, SHOWN_KINDS).flatMap((group) => (group.length <= WHOLE_KIND ? group.map(plain) : [`${plain(group[0]!)} (and ${group.length - 1} more like it)`]));
  if (groups.length > SHOWN_KINDS) lines.push(`… and ${plural(groups.length - SHOWN_KINDS, "more kind", "more kinds")}`);
  // Every diagnostic shown as it is: nothing to add.
  if (lines.length === shown.length && !kept) return lines;
  const of = `${plural(total, "diagnostic", "diagnostics")}${kept} of ${plural(groups.length, "kind", "kinds")}`;
  lines.push(`looplens: ${of}, the first of each shown (looplens analyze --verbose shows every one; --format json lists them)`);
  return lines;
}
