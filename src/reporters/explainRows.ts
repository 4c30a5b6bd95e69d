/**
 * The rows `looplens explain` prints for a traced window, in both formats: each call with its
 * hashes as letters — arguments A (the judged call's), B, C…; results x (the one the count was
 * about), y, z… — whether the detector counted it, and the count as it climbed.
 */
import type { TraceRow } from "../core/trace.js";
import type { CallPreview, ExplainedFinding } from "./explainModel.js";

export interface WindowRow {
  readonly call: number;
  readonly file: string;
  readonly line: number;
  readonly tool: string;
  /** The arguments' letter: `A` = the judged call's arguments. */
  readonly args: string;
  /** The result's letter (`x` = the result counted), or null: no outcome yet, or a veto. */
  readonly result: string | null;
  readonly veto: boolean;
  readonly counted: boolean;
  /** The detector's count once this call is counted (null for calls it did not count). */
  readonly running: number | null;
  /** The call being judged (the last row of a history window; not yet in the history itself). */
  readonly judged: boolean;
  readonly argsHash: string;
  readonly resultHash: string | null;
  readonly preview: CallPreview | undefined;
}

const ARG_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const RESULT_LETTERS = "xyzabcdefghijklmnopqrstuvw";

const letterName = (alphabet: string, n: number) => (n < alphabet.length ? alphabet[n]! : `${alphabet[0]}${n + 1}`);

/** Letters in order of first appearance, `first` taking the first one; past the alphabet, numbered. */
function lettering(hashes: readonly (string | undefined)[], first: string | undefined, alphabet: string): Map<string, string> {
  const letters = new Map<string, string>();
  const name = (n: number) => letterName(alphabet, n);
  if (first !== undefined) letters.set(first, name(0));
  for (const hash of hashes) if (hash !== undefined && !letters.has(hash)) letters.set(hash, name(letters.size));
  return letters;
}

export function windowRows(explained: ExplainedFinding): WindowRow[] {
  const { traced, count, previews } = explained;
  const judged: TraceRow | undefined = traced.kind === "history" ? traced.probe : undefined;
  const rows: TraceRow[] = judged ? [...traced.rows, judged] : [...traced.rows];
  const counted = judged ? [...count.counted, count.probeCounted] : count.counted;
  const pattern = rows.at(-1)?.argsHash;
  // The result the count was about: the newest counted call's (the aborting one's, for the guard).
  const patternResult = rows.filter((_, i) => counted[i] && rows[i]!.resultHash !== undefined).at(-1)?.resultHash;
  const argLetters = lettering(rows.map((row) => row.argsHash), pattern, ARG_LETTERS);
  const resultLetters = lettering(rows.map((row) => row.resultHash), patternResult, RESULT_LETTERS);
  let running = 0;
  return rows.map((row, i) => {
    if (counted[i]) running++;
    return {
      call: row.call,
      file: row.file,
      line: row.line,
      tool: row.tool,
      args: argLetters.get(row.argsHash)!,
      result: row.resultHash !== undefined ? resultLetters.get(row.resultHash)! : null,
      veto: row.outcomeKind === "tool-loop-veto",
      counted: counted[i] === true,
      running: counted[i] ? running : null,
      judged: judged !== undefined && i === rows.length - 1,
      argsHash: row.argsHash,
      resultHash: row.resultHash ?? null,
      preview: previews[i],
    };
  });
}

/**
 * What each letter stands for, once, in letter order (arguments, then results): equal hashes are
 * equal arguments (or results) as the detector compares them, so the first call with a letter
 * shows what they all were.
 */
export function letterKey(rows: readonly WindowRow[]): Array<{ letter: string; text: string }> {
  const texts = new Map<string, string>();
  for (const row of rows) if (row.preview && !texts.has(row.args)) texts.set(row.args, row.preview.args);
  for (const row of rows) if (row.preview?.outcome !== undefined && row.result !== null && !texts.has(row.result)) texts.set(row.result, row.preview.outcome);
  const inOrder = (alphabet: string) => Array.from({ length: rows.length }, (_, n) => letterName(alphabet, n)).filter((letter) => texts.has(letter));
  return [...inOrder(ARG_LETTERS), ...inOrder(RESULT_LETTERS)].map((letter) => ({ letter, text: texts.get(letter)! }));
}
