/**
 * The `--vary NAME=SPEC` grammar and the grid it spans (spec: cli.md `sweep`).
 *
 *   SPEC := INT ".." INT [":" STEP]    inclusive range, STEP defaults to 1; a > b counts down
 *         | VALUE ("," VALUE)*         a list, in the order given
 *
 * NAME is any numeric or boolean config key, dotted (`criticalThreshold`, `detectors.pingPong`,
 * `postCompactionGuard.windowSize`). Numbers must be positive integers, as `--set` requires;
 * booleans are `true`/`false` and only come as a list. Every mistake is a `UsageError` (exit 2)
 * naming the option, so a typo never silently sweeps the wrong thing.
 */
import { CONFIG_KEYS, isPositiveInt } from "../core/config.js";
import { closest } from "../core/configKeys.js";
import { UsageError } from "./errors.js";

/** A profile name is a value too (`--vary profile=configurable,newest`). */
export type GridValue = number | boolean | string;

export interface Axis {
  readonly key: string;
  readonly values: readonly GridValue[];
}

/** One config of the grid: a value per varied key, in the order the keys were given. */
export type GridPoint = Readonly<Record<string, GridValue>>;

/** More configs than this is almost certainly a typo (`1..100000`), and would take long to replay. */
export const MAX_GRID_SIZE = 1000;

const INTEGER = /^[+-]?\d+$/;

function fail(option: string, reason: string): never {
  throw new UsageError(`--vary ${JSON.stringify(option)}: ${reason}`);
}

function positiveInt(option: string, text: string, what: string): number {
  const value = INTEGER.test(text) ? Number(text) : NaN;
  if (Number.isNaN(value)) fail(option, `${what} ${JSON.stringify(text)} is not an integer`);
  if (!isPositiveInt(value) || !Number.isSafeInteger(value)) fail(option, `${what} ${text} is not a positive integer`);
  return value;
}

function rangeValues(option: string, from: string, to: string, stepText: string | undefined): number[] {
  const a = positiveInt(option, from, "start");
  const b = positiveInt(option, to, "end");
  const step = stepText === undefined ? 1 : INTEGER.test(stepText) ? Number(stepText) : NaN;
  if (!Number.isSafeInteger(step) || step <= 0) fail(option, `step ${JSON.stringify(stepText)} must be a positive integer`);
  const count = Math.floor(Math.abs(b - a) / step) + 1;
  if (count > MAX_GRID_SIZE) fail(option, `${count} values; a sweep takes at most ${MAX_GRID_SIZE} configs`);
  const direction = b >= a ? 1 : -1;
  return Array.from({ length: count }, (_, i) => a + direction * i * step);
}

function listValues(option: string, key: string, kind: "boolean" | "positiveInt", text: string): GridValue[] {
  const items = text.split(",").map((item) => item.trim());
  const values = items.map((item): GridValue => {
    if (item === "") fail(option, "empty value in the list");
    if (kind === "positiveInt") return positiveInt(option, item, "value");
    if (item === "true" || item === "false") return item === "true";
    return fail(option, `${key} is a boolean: ${JSON.stringify(item)} is not true or false`);
  });
  const seen = new Set<GridValue>();
  for (const value of values) {
    if (seen.has(value)) fail(option, `${String(value)} is listed twice`);
    seen.add(value);
  }
  return values;
}

/** Parses one `--vary NAME=SPEC`. */
export function parseVary(option: string): Axis {
  const eq = option.indexOf("=");
  if (eq <= 0) fail(option, "expected NAME=SPEC, e.g. criticalThreshold=10..30:5 or warningThreshold=5,8,10");
  const key = option.slice(0, eq).trim();
  const spec = option.slice(eq + 1).trim();
  const kind = Object.prototype.hasOwnProperty.call(CONFIG_KEYS, key) ? CONFIG_KEYS[key] : undefined;
  if (kind === undefined) {
    const hint = closest(key, Object.keys(CONFIG_KEYS));
    fail(option, `unknown config key ${JSON.stringify(key)}${hint ? ` (did you mean ${hint}?)` : ""}`);
  }
  if (spec === "") fail(option, "no values after =");
  const range = /^([^.,:]*)\.\.([^.,:]*)(?::(.*))?$/.exec(spec);
  if (range) {
    if (kind === "boolean") fail(option, `${key} is a boolean: list its values (true,false) instead of a range`);
    return { key, values: rangeValues(option, range[1]!.trim(), range[2]!.trim(), range[3]?.trim()) };
  }
  if (spec.includes("..") || spec.includes(":")) fail(option, "expected a range a..b:step or a list a,b,c");
  return { key, values: listValues(option, key, kind, spec) };
}

/** Parses every `--vary` (at least one, each key once) and checks the size of the grid. */
export function parseAxes(options: readonly string[]): Axis[] {
  if (options.length === 0) throw new UsageError("sweep needs at least one --vary NAME=SPEC, e.g. --vary criticalThreshold=10..30:5");
  const axes = options.map(parseVary);
  const keys = new Set<string>();
  for (const axis of axes) {
    if (keys.has(axis.key)) throw new UsageError(`--vary: ${axis.key} is varied twice; give all its values in one SPEC`);
    keys.add(axis.key);
  }
  const size = axes.reduce((product, axis) => product * axis.values.length, 1);
  if (size > MAX_GRID_SIZE) {
    throw new UsageError(`--vary: the grid has ${size} configs (${axes.map((a) => a.values.length).join(" × ")}); a sweep takes at most ${MAX_GRID_SIZE}`);
  }
  return axes;
}

/** The cross product, first axis outermost: the last --vary changes fastest, like nested loops. */
export function gridPoints(axes: readonly Axis[]): GridPoint[] {
  let points: Array<Record<string, GridValue>> = [{}];
  for (const axis of axes) {
    points = points.flatMap((point) => axis.values.map((value) => ({ ...point, [axis.key]: value })));
  }
  return points;
}
