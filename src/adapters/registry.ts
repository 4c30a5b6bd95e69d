/**
 * The adapter registry: every input format looplens reads, in sniffing order, and the detection of a
 * file's format from its first meaningful lines. A new format is one folder under src/adapters/ and
 * one line here; `--input-format` and the detection both read this list.
 */
import { isBlank, MAX_SAMPLE_LINE, type InputAdapter, type InputFormat } from "./adapter.js";
import { claudeCodeAdapter } from "./claude-code/claudeCodeAdapter.js";
import { codexRolloutAdapter } from "./codex/rolloutAdapter.js";
import { canonicalEventsAdapter } from "./events/canonicalEvents.js";
import { gatewayLogAdapter } from "./gateway/gatewayLog.js";
import { geminiCliAdapter } from "./gemini/geminiAdapter.js";
import { InputError, type LineSource } from "./io/lineSource.js";
import { openclawSessionAdapter } from "./openclaw/session.js";
import { openclawTrajectoryAdapter } from "./openclaw/trajectory.js";
import { openhandsEvalAdapter } from "./openhands/evalOutput.js";
import { openhandsAdapter } from "./openhands/index.js";
import { unusableReason } from "./unusableInput.js";

/** Every known format, in sniffing order (most specific first; canonical events last). */
export const ADAPTERS: readonly InputAdapter[] = [
  openclawTrajectoryAdapter,
  openclawSessionAdapter,
  gatewayLogAdapter,
  codexRolloutAdapter,
  openhandsEvalAdapter,
  openhandsAdapter,
  geminiCliAdapter,
  claudeCodeAdapter,
  canonicalEventsAdapter,
];

export const INPUT_FORMATS: readonly InputFormat[] = ADAPTERS.map((adapter) => adapter.format);

const SNIFF_LINES = 5;
const SNIFF_MAX_LINES = 50;

interface Samples {
  /** The first meaningful lines, parsed when they are JSON (raw text otherwise). */
  readonly parsed: unknown[];
  /** The adapter that claims a line too long to sample by how it begins (`sniffLongLine`), if one did. */
  readonly longLineAdapter: InputAdapter | undefined;
}

/**
 * First few meaningful lines, parsed when they are JSON (raw text otherwise); huge lines are passed
 * over. Past SNIFF_LINES, sampling goes on (up to SNIFF_MAX_LINES) while no line was JSON at all, so
 * that a damaged head does not hide the format of what follows. A huge line whose beginning an
 * adapter claims ends the sampling when no JSON line came before it (a file of huge lines is not
 * scanned fifty lines deep to be recognised).
 */
async function samplesOf(source: LineSource): Promise<Samples> {
  const parsed: unknown[] = [];
  let sawJson = false;
  let longLineAdapter: InputAdapter | undefined;
  await source.forEachLine(
    (text, line, _terminated, problem) => {
      if (problem?.tooLong !== undefined) {
        longLineAdapter ??= ADAPTERS.find((a) => a.sniffLongLine?.(problem.head ?? ""));
        if (longLineAdapter !== undefined && !sawJson) return false;
      } else if (!isBlank(text) && text.length <= MAX_SAMPLE_LINE) {
        try {
          parsed.push(JSON.parse(text));
          sawJson = true;
        } catch {
          parsed.push(text);
        }
      }
      return (parsed.length < SNIFF_LINES || !sawJson) && line < SNIFF_MAX_LINES;
    },
    { maxLineBytes: MAX_SAMPLE_LINE },
  );
  return { parsed, longLineAdapter };
}

export type AdapterChoice = { readonly adapter: InputAdapter } | { readonly unusable: string };

/**
 * The adapter for a source: forced, or sniffed; a file no adapter recognises is unusable, with the
 * reason. An empty file goes to the canonical events adapter, which accounts for its blank lines.
 */
export async function adapterFor(source: LineSource, forced?: InputFormat): Promise<AdapterChoice> {
  if (forced) {
    const adapter = ADAPTERS.find((a) => a.format === forced);
    if (!adapter) throw new InputError(`unknown input format ${JSON.stringify(forced)}`);
    return { adapter };
  }
  const { parsed, longLineAdapter } = await samplesOf(source);
  const adapter = ADAPTERS.find((a) => a.sniff(parsed)) ?? longLineAdapter;
  if (adapter) return { adapter };
  if (parsed.length === 0) return { adapter: canonicalEventsAdapter };
  return { unusable: await unusableReason(source.file, parsed) };
}
