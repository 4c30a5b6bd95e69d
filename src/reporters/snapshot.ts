/**
 * The `<input>.looplens.json` snapshot that `looplens check` compares against: everything that
 * decides a fixture's verdicts and nothing volatile. It records the effective config (so a config
 * change shows up as a diff), the line accounting, each run with its first stop, and the findings.
 * Left out: paths (they depend on where check is run from; the input is named by its base name),
 * the looplens version, internal pattern hashes, and finding messages (prose that follows from
 * tool, detector, level and count: rewording it must not fail everyone's CI).
 *
 * The text is stable (fixed key order) and diff-friendly: pretty-printed, with each run and each
 * finding (in input order, like ndjson without its volatile fields) on one line, so that a changed
 * verdict is a changed line.
 */
import { basename } from "node:path";
import type { LineCounts } from "../core/findings.js";
import { configEntries, type ResolvedConfig } from "../core/config.js";
import { stopJson, type ReplayedFinding, type ReplayedRun } from "../core/findings.js";

/** Bumped when the snapshot shape changes, so old snapshots read as a difference, not as garbage. */
export const SNAPSHOT_FORMAT = 1;

export interface SnapshotInput {
  readonly file: string;
  readonly config: ResolvedConfig;
  /** Effective configs of the agents whose own override applied to a run of this file. */
  readonly agentConfigs: ReadonlyMap<string, ResolvedConfig>;
  readonly lines: LineCounts;
  readonly runs: readonly ReplayedRun[];
  /** `--profile` when given: recorded (with each run's profile) so that a generation change is a diff. */
  readonly profile?: string;
}

/** Dotted keys, with `enabled` unset written as null (distinct from false: the guard stays on). */
function flatConfig(config: ResolvedConfig): Record<string, unknown> {
  return Object.fromEntries(configEntries(config).map(([key, value]) => [key, value ?? null]));
}

function snapshotFinding(f: ReplayedFinding): Record<string, unknown> {
  return {
    run: f.run,
    call: f.call,
    line: f.line,
    tool: f.tool,
    detector: f.detector,
    level: f.level,
    count: f.count,
    threshold: { name: f.threshold.name, value: f.threshold.value },
    afterStop: f.afterStop,
  };
}

function snapshotRun(run: ReplayedRun): Record<string, unknown> {
  return {
    run: run.run,
    agent: run.agent,
    session: run.session,
    calls: run.calls,
    compactions: run.compactions,
    firstStop: run.firstStop && stopJson(run.firstStop),
  };
}

export function buildSnapshot(input: SnapshotInput): Record<string, unknown> {
  const agents = [...input.agentConfigs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    looplensSnapshot: SNAPSHOT_FORMAT,
    input: basename(input.file),
    // Absent for the default generation: snapshots written before profiles existed stay valid.
    ...(input.profile !== undefined ? { profile: input.profile } : {}),
    config: flatConfig(input.config),
    ...(agents.length > 0 ? { agentConfigs: Object.fromEntries(agents.map(([id, config]) => [id, flatConfig(config)])) } : {}),
    lines: { read: input.lines.read, used: input.lines.used, ignored: input.lines.ignored, skipped: input.lines.skipped },
    runs: input.runs.map((run) => (input.profile !== undefined ? { ...snapshotRun(run), profile: run.profile?.profile ?? null } : snapshotRun(run))),
    // Input order, as ndjson prints them (a stable sort keeps replay order within a line).
    findings: input.runs
      .flatMap((run) => [...run.findings])
      .sort((a, b) => a.line - b.line)
      .map(snapshotFinding),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isFlat = (value: Record<string, unknown>) => Object.values(value).every((v) => v === null || typeof v !== "object");
const INLINE_WIDTH = 60;

/** Arrays whose items are written one per line: a changed run or verdict is a changed line. */
const ONE_LINE_ITEMS = new Set(["runs", "findings"]);

/** Two-space pretty JSON, except that `runs` and `findings` items and short flat objects stay on one line each. */
function render(value: unknown, indent: string, inlineItems: boolean): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => inner + (inlineItems ? JSON.stringify(item) : render(item, inner, false)));
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const oneLine = JSON.stringify(value);
    if (isFlat(value) && oneLine.length <= INLINE_WIDTH) return oneLine;
    const items = entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${render(item, inner, ONE_LINE_ITEMS.has(key))}`);
    return `{\n${items.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * A snapshot as this version writes it. Snapshots written by looplens 0.1.0 name a run's first stop
 * `"block"` (the level is now `"critical"` in every machine output): read as the same, so that
 * upgrading looplens does not fail every fixture's check; `--update` rewrites them.
 */
export function currentSnapshot(snapshot: unknown): unknown {
  if (!isObject(snapshot) || !Array.isArray(snapshot.runs)) return snapshot;
  const runs = snapshot.runs.map((run: unknown) => {
    if (!isObject(run) || !isObject(run.firstStop) || run.firstStop.kind !== "block") return run;
    return { ...run, firstStop: { ...run.firstStop, kind: "critical" } };
  });
  return { ...snapshot, runs };
}

export function renderSnapshot(snapshot: unknown): string {
  return `${render(snapshot, "", false)}\n`;
}
