/**
 * The output formats of each command, by name, in the order `--format` lists them (`table` first,
 * the default). Apart from the reporters themselves (index.ts `REPORTERS`, which is typed to hold
 * exactly these), so that a command's options can be declared without loading every reporter: the
 * CLI loads a command's work only when it runs (cli.ts), and `--help`, `--version` and a kept output
 * load no reporter at all.
 */
export const FORMAT_NAMES = {
  analyze: ["table", "json", "ndjson", "markdown", "github", "html", "sarif", "junit", "gitlab"],
  runs: ["table", "json", "ndjson", "markdown"],
  sweep: ["table", "json", "ndjson", "markdown"],
  check: ["table", "json", "ndjson"],
  explain: ["table", "json"],
  config: ["table", "json"],
} as const;

export type ReportCommand = keyof typeof FORMAT_NAMES;

/** A command's format names (its `--format` choices). */
export const formatsOf = (command: ReportCommand): string[] => [...FORMAT_NAMES[command]];

/** `analyze`'s formats. */
export const REPORT_FORMATS = formatsOf("analyze");

/**
 * The formats whose reporter draws each run's timeline (`needs.timelines`: the analysis records
 * them, and the result cache keys on it). index.test checks it against the reporters.
 */
export const TIMELINE_FORMATS: ReadonlySet<string> = new Set(["html"]);
