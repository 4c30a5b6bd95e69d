/**
 * What `looplens check` found, fixture by fixture, and its formats: `table` (the readable diff, as
 * check always printed it), `json` (one document) and `ndjson` (one line per fixture). The machine
 * forms carry the difference as data: the runs and findings added and removed, and the other
 * snapshot fields (config, lines, …) whose value changed, before and after.
 */
import { Chalk, type ChalkInstance } from "chalk";
import { jsonText } from "./jsonText.js";
import { sanitize } from "./sanitize.js";

export type CheckStatus = "unchanged" | "changed" | "missing" | "invalid" | "created" | "updated";

export interface SnapshotChanges {
  readonly runs: { readonly added: readonly unknown[]; readonly removed: readonly unknown[] };
  readonly findings: { readonly added: readonly unknown[]; readonly removed: readonly unknown[] };
  /** Other top-level fields of the snapshot whose value differs. */
  readonly fields: Readonly<Record<string, { readonly before: unknown; readonly after: unknown }>>;
}

export interface CheckedFixture {
  readonly input: string;
  readonly snapshot: string;
  readonly status: CheckStatus;
  /** `invalid`: why the snapshot could not be read. */
  readonly reason?: string;
  /** `changed`: the unified diff of the snapshot text (table) and the difference as data. */
  readonly hunks?: readonly string[];
  readonly changes?: SnapshotChanges;
}

export interface CheckTally {
  readonly fixtures: number;
  readonly unchanged: number;
  readonly changed: number;
  readonly missing: number;
  readonly created: number;
  readonly updated: number;
}

const MULTISET_KEYS = ["runs", "findings"] as const;

/** Items of `a` not in `b`, counting repeats (a finding written twice and now once was removed once). */
function minus(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const left = new Map<string, number>();
  for (const item of b) left.set(JSON.stringify(item), (left.get(JSON.stringify(item)) ?? 0) + 1);
  return a.filter((item) => {
    const key = JSON.stringify(item);
    const n = left.get(key) ?? 0;
    if (n > 0) left.set(key, n - 1);
    return n === 0;
  });
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The difference between two snapshot documents, as data. */
export function snapshotChanges(before: Record<string, unknown>, after: Record<string, unknown>): SnapshotChanges {
  const [runs, findings] = MULTISET_KEYS.map((key) => ({ added: minus(asArray(after[key]), asArray(before[key])), removed: minus(asArray(before[key]), asArray(after[key])) }));
  const fields: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if ((MULTISET_KEYS as readonly string[]).includes(key)) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) fields[key] = { before: before[key] ?? null, after: after[key] ?? null };
  }
  return { runs: runs!, findings: findings!, fields };
}

function fixtureJson(fixture: CheckedFixture): Record<string, unknown> {
  return {
    input: fixture.input,
    snapshot: fixture.snapshot,
    status: fixture.status,
    ...(fixture.reason !== undefined && { reason: fixture.reason }),
    ...(fixture.changes !== undefined && { changes: fixture.changes }),
  };
}

export function checkNdjson(fixtures: readonly CheckedFixture[]): string {
  return fixtures.map((fixture) => `${jsonText(fixtureJson(fixture))}\n`).join("");
}

export function checkJson(fixtures: readonly CheckedFixture[], tally: CheckTally, version: string): string {
  return `${jsonText({ version, fixtures: fixtures.map(fixtureJson), summary: tally }, "  ")}\n`;
}

function colourHunk(line: string, chalk: ChalkInstance): string {
  if (line.startsWith("@@")) return chalk.cyan(line);
  if (line.startsWith("-")) return chalk.red(line);
  if (line.startsWith("+")) return chalk.green(line);
  return line;
}

/** The readable lines of one fixture (table format). */
function describe(fixture: CheckedFixture, chalk: ChalkInstance): string[] {
  const name = sanitize(fixture.input);
  const snapshot = sanitize(fixture.snapshot);
  switch (fixture.status) {
    case "unchanged":
      return [`${chalk.green("✓")} ${name}`];
    case "created":
    case "updated":
      return [`${fixture.status} ${snapshot}`];
    case "missing":
      return [`${chalk.red("✗")} ${name}: no snapshot ${snapshot} (looplens check --update creates it)`];
    case "invalid":
      return [`${chalk.red("✗")} ${name}: snapshot ${snapshot} is not valid JSON (${sanitize(fixture.reason ?? "")}); --update rewrites it`];
    case "changed":
      return [
        `${chalk.red("✗")} ${name}: findings differ from ${snapshot}`,
        chalk.red(`--- ${snapshot} (snapshot)`),
        chalk.green(`+++ ${name} (now)`),
        ...(fixture.hunks ?? []).map((line) => colourHunk(sanitize(line), chalk)),
      ];
  }
}

/**
 * The table format, written as each fixture is checked: its lines (under `--update`, only the files
 * written are named), then the tally.
 */
export function checkTableFixture(fixture: CheckedFixture, update: boolean, chalk: ChalkInstance): string {
  if (update && fixture.status !== "created" && fixture.status !== "updated") return "";
  return `${describe(fixture, chalk).join("\n")}\n`;
}

export function checkTableTally(tally: CheckTally, update: boolean): string {
  const summary = update
    ? `${tally.created} created, ${tally.updated} updated, ${tally.unchanged} unchanged`
    : `${tally.unchanged} unchanged, ${tally.changed} changed, ${tally.missing} missing`;
  return `\ncheck: ${tally.fixtures} fixture${tally.fixtures === 1 ? "" : "s"}: ${summary}\n`;
}

/** What `looplens check` found, once every fixture is checked. */
export interface CheckReport {
  readonly version: string;
  readonly fixtures: readonly CheckedFixture[];
  readonly tally: CheckTally;
  /** `--update`: snapshots were written, not compared. */
  readonly update: boolean;
}

export interface CheckWriteOptions {
  readonly color: boolean;
}

/** A format of `looplens check` (the registry's `check` list: index.ts): what it writes as each fixture is checked, and at the end. */
export interface CheckReporter {
  readonly fixture: (fixture: CheckedFixture, update: boolean, options: CheckWriteOptions) => string;
  readonly report: (report: CheckReport, options: CheckWriteOptions) => string;
}

const chalkOf = (options: CheckWriteOptions) => new Chalk({ level: options.color ? 1 : 0 });

export const checkTableReporter: CheckReporter = {
  fixture: (fixture, update, options) => checkTableFixture(fixture, update, chalkOf(options)),
  report: (report) => checkTableTally(report.tally, report.update),
};

export const checkJsonReporter: CheckReporter = { fixture: () => "", report: (report) => checkJson(report.fixtures, report.tally, report.version) };

export const checkNdjsonReporter: CheckReporter = { fixture: () => "", report: (report) => checkNdjson(report.fixtures) };
