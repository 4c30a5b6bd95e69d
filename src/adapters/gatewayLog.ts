/**
 * OpenClaw Gateway logs (`/tmp/openclaw/openclaw-YYYY-MM-DD.log`, spec: inputs.md §4) → live events.
 * A log holds no tool arguments or results, so it feeds no detector; it tells what the live runtime
 * reported, per run. Streamed line by line: memory grows with the runs open at once, not the file.
 *
 * Accounting: lines that make or echo a live event are used; blank lines, other subsystems and
 * messages looplens has no use for are ignored; broken JSON, lines that are not tslog objects and
 * near misses (a message resembling a template without matching it) are skipped with a diagnostic.
 */
import { isPlainObject } from "../core/plainObject.js";
import { quote } from "../core/quote.js";
import { isBlank, parseJsonLine, type AdapterContext, type InputAdapter } from "./adapter.js";
import { classify } from "./gatewayMessages.js";
import { LiveAttribution } from "./liveAttribution.js";
import type { LineSource } from "./lineSource.js";
import { looksLikeTslog, TslogParser } from "./tslogLine.js";

export const gatewayLogAdapter: InputAdapter = {
  format: "gateway-log",

  sniff(samples) {
    const first = samples.find(isPlainObject);
    return first !== undefined && looksLikeTslog(first);
  },

  async read(source: LineSource, { tally, emit }: AdapterContext) {
    const file = source.file;
    const parser = new TslogParser();
    const attribution = new LiveAttribution((event) => void emit(event));
    await source.forEachLine((text, line, terminated, problem) => {
      if (isBlank(text)) return tally.ignored();
      const json = parseJsonLine(text, terminated, problem);
      if (!json.ok) return tally.skipped(file, line, json.reason);
      const parsed = parser.parse(json.value);
      if (!parsed.ok) return tally.skipped(file, line, parsed.reason);
      if (json.notice !== undefined) tally.note({ file, line, reason: json.notice });
      const { subsystem, message, ts } = parsed.entry;
      const record = classify(subsystem, message);
      if (record.kind === "irrelevant") return tally.ignored();
      if (record.kind === "near_miss") {
        const why = record.expected
          ? `is logged by ${subsystem === null ? "the console" : `subsystem ${quote(subsystem)}`}, not ${record.expected}`
          : "does not match it";
        return tally.skipped(file, line, `near miss: message resembles "${record.template}" but ${why}; not counted`);
      }
      const handled = attribution.handle(record, { file, line, ts, message });
      if (handled.used) tally.used();
      else tally.ignored(file, line, handled.reason);
    });
    attribution.finish();
  },
};
