/**
 * `looplens runs`: a run in one line (issue 34 §4), so that a person finds the run before reading its
 * findings: when it started and how long it ran, who ran it (agent, channel, model), its calls, its
 * worst finding, and what it was asked. The one list of its fields (`RUN_LINE_FIELDS`) is what every
 * format of `runs` writes: a new per-run figure is one entry there (as tokens and cost are).
 */
import { LEVEL_RANK, levelLabel, type ReplayedFinding } from "../core/findings.js";
import type { ReportRun } from "./model.js";
import { durationText, localTime } from "./runIdentityText.js";
import { usageJson } from "../core/usage.js";
import { compactCount, moneyText } from "./usageText.js";
import { clip, ID_WIDTH, sanitize } from "./sanitize.js";

/** A run's worst finding: its highest level, the first at that level. */
export function worstFinding(run: ReportRun["run"]): ReplayedFinding | undefined {
  let worst: ReplayedFinding | undefined;
  for (const finding of run.findings) if (worst === undefined || LEVEL_RANK[finding.level] > LEVEL_RANK[worst.level]) worst = finding;
  return worst;
}

/**
 * One field of a run line: its machine name and value (json, ndjson: `null` when not recorded), and
 * for the human formats its heading, its text, and how it gives way on a narrow terminal (`width`:
 * its widest; `min`: it may be clipped to that; `drop`: left out before others, lowest first).
 */
export interface RunLineField {
  readonly key: string;
  readonly head: string;
  value(entry: ReportRun): string | number | null | Record<string, unknown>;
  text(entry: ReportRun): string;
  readonly width: number;
  readonly min: number;
  readonly drop?: number;
  readonly align?: "right";
}

const orNone = (text: string | null): string => text ?? "–";

/** A session id of the kind that is long and says nothing (a UUID, a ULID-like hex id). */
const UUID_LIKE = /^[0-9a-f-]{32,}$/i;

/** The run's id as a line shows it: a `<uuid>#n` run with its session's first 8 characters. */
function shortRun({ run }: ReportRun): string {
  const session = run.session;
  if (session !== null && UUID_LIKE.test(session) && run.run.startsWith(session)) return sanitize(`${session.slice(0, 8)}…${run.run.slice(session.length)}`);
  return clip(run.run, ID_WIDTH);
}

function worstText(entry: ReportRun): string {
  const worst = worstFinding(entry.run);
  return worst === undefined ? "–" : `${levelLabel(worst.level)} ${worst.detector}`;
}

export const RUN_LINE_FIELDS: readonly RunLineField[] = [
  { key: "startedAt", head: "start", value: (e) => e.identity.startedAt, text: (e) => (e.identity.startedAt === null ? "–" : localTime(e.identity.startedAt)), width: 19, min: 19 },
  {
    key: "durationMs",
    head: "took",
    value: (e) => e.identity.durationMs,
    text: (e) => (e.identity.durationMs === null ? "–" : durationText(e.identity.durationMs)),
    width: 7,
    min: 7,
    drop: 2,
    align: "right",
  },
  { key: "run", head: "run", value: (e) => e.run.run, text: shortRun, width: 24, min: 12 },
  { key: "agent", head: "agent", value: (e) => e.run.agent, text: (e) => orNone(e.run.agent === null ? null : clip(e.run.agent, ID_WIDTH)), width: 14, min: 6, drop: 1 },
  { key: "channel", head: "channel", value: (e) => e.identity.channel, text: (e) => orNone(e.identity.channel), width: 16, min: 8, drop: 3 },
  { key: "model", head: "model", value: (e) => e.identity.model, text: (e) => orNone(e.identity.model), width: 20, min: 8, drop: 4 },
  { key: "calls", head: "calls", value: (e) => e.run.calls, text: (e) => String(e.run.calls), width: 6, min: 5, align: "right" },
  {
    key: "worst",
    head: "worst finding",
    value: (e) => {
      const worst = worstFinding(e.run);
      return worst === undefined ? null : { level: worst.level, detector: worst.detector, call: worst.call, line: worst.line };
    },
    text: worstText,
    width: 28,
    min: 13,
    drop: 6,
  },
  // What the run's turns used (cost.md §2): `null` when its input recorded none; json keeps the sum whole.
  {
    key: "usage",
    head: "tokens",
    value: (e) => (e.run.usage === undefined ? null : usageJson(e.run.usage)),
    text: (e) => (e.run.usage?.total === undefined ? "–" : compactCount(e.run.usage.total)),
    width: 7,
    min: 6,
    drop: 5,
    align: "right",
  },
  { key: "cost", head: "cost", value: (e) => e.run.usage?.cost ?? null, text: (e) => (e.run.usage?.cost === undefined ? "–" : moneyText(e.run.usage.cost)), width: 8, min: 6, drop: 0, align: "right" },
  { key: "prompt", head: "prompt", value: (e) => e.identity.prompt, text: (e) => orNone(e.identity.prompt), width: Infinity, min: 16 },
];

/** A run line as json and ndjson write it: the run's file too, for opening it. */
export function runLineDocument(entry: ReportRun): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const field of RUN_LINE_FIELDS) document[field.key] = field.value(entry);
  document.endedAt = entry.identity.endedAt;
  document.session = entry.run.session;
  document.file = entry.run.file;
  document.outcome = entry.identity.outcome;
  return document;
}
