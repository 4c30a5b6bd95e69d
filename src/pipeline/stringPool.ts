/**
 * One copy of each repeated string of the results worker threads send back.
 *
 * Structured clone writes every string of a message out in full, so a worker's unit result arrives
 * with its own copy of the file path, session, agent, tool, detector name and level in every run and
 * finding it holds: on a state folder of 7,241 files (105,678 runs, 13,971 findings), the main
 * thread held 32,007 copies of file paths, ~20,000 of "main" and ~17,800 each of the profile name
 * and reason of the runs, ~16 MB of strings in all at the merge. Pooling the strings of the fields
 * that repeat by nature (POOLED_KEYS) makes them one copy each; fields that are unique per run or
 * finding (run ids, times, messages) are left alone, where a pool entry would only cost memory.
 */

/** Fields whose values repeat across runs and findings: who, where, which tool, which rule. */
const POOLED_KEYS: ReadonlySet<string> = new Set([
  "agent",
  "session",
  "file",
  "path",
  "format",
  "tool",
  "detector",
  "level",
  "name",
  "profile",
  "reason",
  "kind",
]);

/** The pool lives as long as the results it served (one analysis). */
export class StringPool {
  private readonly strings = new Map<string, string>();

  /** `value`, with the strings of its pooled fields replaced by the pool's copies (in place). */
  internIn<T>(value: T): T {
    this.visit(value);
    return value;
  }

  private visit(value: unknown): void {
    if (typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) this.visit(item);
      return;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const field = record[key];
      if (typeof field === "string") {
        if (POOLED_KEYS.has(key)) record[key] = this.intern(field);
      } else this.visit(field);
    }
  }

  private intern(text: string): string {
    const pooled = this.strings.get(text);
    if (pooled !== undefined) return pooled;
    this.strings.set(text, text);
    return text;
  }
}
