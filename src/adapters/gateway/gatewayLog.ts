/**
 * OpenClaw Gateway logs (`/tmp/openclaw/openclaw-YYYY-MM-DD.log`, spec: inputs.md §4) → live events.
 * A log holds no tool arguments or results, so it feeds no detector; it tells what the live runtime
 * reported, per run. Streamed line by line: memory grows with the runs open at once, not the file.
 *
 * Two forms, one reading: the JSON form (tslog objects) and the text console form (`<ISO time>
 * [<subsystem>] <message>`, see consoleLine.ts). A file is one form throughout, told by its first
 * line that is either a JSON object or a text record of that full shape; past that, a line of the
 * other form is a bad line of this one. Both give the same records to the same classification and attribution.
 *
 * Accounting: lines that make or echo a live event, or that the spec reads for run boundaries and
 * compaction timing, are used; blank lines, other subsystems and messages looplens has no use for
 * are ignored; broken JSON, lines that are not tslog objects (or, in the text form, not records) and
 * near misses (a message resembling a template without matching it) are skipped with a diagnostic.
 *
 * Text form, multi-line messages: a continuation line (indented, like stack frames, or closing
 * brackets) is part of the record above, joined to its message with `\n` as the JSON form holds it,
 * and is ignored; the record's line is accounted for as the record. A continuation with no record
 * above it is skipped. Blank lines are ignored and end nothing.
 */
import { isPlainObject } from "../../core/plainObject.js";
import { quote } from "../../core/quote.js";
import { isBlank, parseJsonLine, type AdapterContext, type InputAdapter, type LineTally } from "../adapter.js";
import { isContinuation, isFullRecord, looksLikeTextLog, parseTextRecord, stripAnsi } from "./consoleLine.js";
import { classify } from "./messages.js";
import { LiveAttribution } from "./liveAttribution.js";
import { TOO_LONG_LINE, tooLongReason, type LineSource } from "../io/lineSource.js";
import { looksLikeTslog, TslogParser, type TslogEntry } from "./tslogLine.js";

/** A text record's message stops growing past this many characters of continuation lines. */
const MAX_JOINED_MESSAGE = 64 * 1024;

type Entry = Pick<TslogEntry, "subsystem" | "message" | "ts">;

export const gatewayLogAdapter: InputAdapter = {
  format: "gateway-log",
  agent: { kind: "openclaw" },

  sniff(samples) {
    const first = samples.find(isPlainObject);
    return first !== undefined ? looksLikeTslog(first) : looksLikeTextLog(samples);
  },

  async read(source: LineSource, { tally, emit }: AdapterContext) {
    const file = source.file;
    const attribution = new LiveAttribution((event) => void emit(event));
    const record = (line: number, { subsystem, message, ts }: Entry): void => {
      const classified = classify(subsystem, message);
      if (classified.kind === "irrelevant") return tally.ignored();
      if (classified.kind === "near_miss") {
        const why = classified.expected
          ? `is logged by ${subsystem === null ? "the console" : `subsystem ${quote(subsystem)}`}, not ${classified.expected}`
          : "does not match it";
        return tally.skipped(file, line, `near miss: message resembles "${classified.template}" but ${why}; not counted`);
      }
      const handled = attribution.handle(classified, { file, line, ts, message });
      if (handled.used) tally.used();
      else tally.ignored(file, line, handled.reason);
    };
    if ((await formOf(source)) === "text") await readText(source, tally, record);
    else await readJson(source, tally, record);
    attribution.finish();
  },
};

type RecordHandler = (line: number, entry: Entry) => void;

/** The form of the first line that shows one; JSON when none does (every line is then a bad line). */
async function formOf(source: LineSource): Promise<"json" | "text"> {
  let form: "json" | "text" | undefined;
  await source.forEachLine(
    (text, _line, _terminated, problem) => {
      if (problem?.tooLong !== undefined) return true;
      if (text.trimStart().startsWith("{")) form = "json";
      else if (isFullRecord(text)) form = "text";
      return form === undefined;
    },
    { maxLineBytes: 1 << 20 },
  );
  return form ?? "json";
}

async function readJson(source: LineSource, tally: LineTally, record: RecordHandler): Promise<void> {
  const file = source.file;
  const parser = new TslogParser();
  await source.forEachLine((text, line, terminated, problem) => {
    if (isBlank(text)) return tally.ignored();
    const json = parseJsonLine(text, terminated, problem);
    if (!json.ok) return tally.skipped(file, line, json.reason);
    const parsed = parser.parse(json.value);
    if (!parsed.ok) return tally.skipped(file, line, parsed.reason);
    if (json.notice !== undefined) tally.note({ file, line, reason: json.notice });
    record(line, parsed.entry);
  });
}

/**
 * The text form. A record waits until the next line that is not its continuation, so that its
 * message is whole when it is classified; it is still accounted for, and attributed, at its own line.
 */
async function readText(source: LineSource, tally: LineTally, record: RecordHandler): Promise<void> {
  const file = source.file;
  let open: { line: number; entry: Entry; rest: string[]; size: number } | undefined;
  let seenRecord = false;
  const close = () => {
    if (!open) return;
    const { line, entry, rest } = open;
    open = undefined;
    record(line, rest.length === 0 ? entry : { ...entry, message: [entry.message, ...rest].join("\n") });
  };
  await source.forEachLine((text, line, terminated, problem) => {
    if (problem?.tooLong !== undefined || text === TOO_LONG_LINE) {
      close();
      return tally.skipped(file, line, tooLongReason(problem?.tooLong, problem?.head));
    }
    if (isBlank(text)) return tally.ignored();
    const parsed = parseTextRecord(text);
    const continues = !parsed && isContinuation(text);
    if (!continues) close(); // before this line's diagnostics, which keeps them in line order
    if (problem?.invalidUtf8) tally.note({ file, line, reason: "invalid UTF-8 (replaced by U+FFFD)" });
    if (parsed) {
      seenRecord = true;
      if (!terminated) tally.note({ file, line, reason: "last line has no line end (it may be cut short); read as it is" });
      open = { line, entry: parsed, rest: [], size: parsed.message.length };
      return;
    }
    if (continues) {
      if (!seenRecord) return tally.skipped(file, line, "continuation line with no record above it");
      const clean = stripAnsi(text);
      if (open && open.size + clean.length < MAX_JOINED_MESSAGE) {
        open.rest.push(clean);
        open.size += clean.length + 1;
      }
      return tally.ignored();
    }
    tally.skipped(file, line, "not a Gateway log record (expected <ISO time> [<subsystem>] <message>)");
  });
  close();
}
