/**
 * OpenHands evaluation output (`output.jsonl` of a benchmark run, `evaluation/utils/shared.py`
 * `EvalOutput.model_dump_json()`): one task instance per line,
 * `{instance_id, test_result, instruction, metadata, history, metrics, error, instance}`, where
 * `history` is the instance's event list (V0 events as in a trajectory; V1 SDK events from the newer
 * benchmarks; or, from older benchmarks, `[action, observation]` pairs). Format name
 * `openhands-eval`.
 *
 * Each line is one session, `instance_id`, read with the OpenHands replay of a conversation
 * (replay.ts) and cut into one run (`<instance_id>#1`; evalInstance.ts says why). Every event of an
 * instance comes from its line, so every finding of the instance is at `file:line` of that line:
 * `looplens explain file:line` explains them all, and `--call N` picks one (the report's call column).
 *
 * Lines are read one at a time and nothing of an instance outlives its line (its replay, with the
 * event ids it saw, is dropped; its runs are closed), so a file of many large instances streams.
 * A line of 5 MB is under the default line limit (32 MiB); one over the limit is skipped with a
 * diagnostic, as in every format. Such lines are over the sniffing limit too: a file whose first
 * lines are all that large is recognised by how they begin (`sniffLongLine`).
 */
import type { AdapterContext, InputAdapter } from "../adapter.js";
import { parseObjectLine } from "../adapter.js";
import type { LineSource } from "../io/lineSource.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { readInstance } from "./evalInstance.js";
import { eventIdOf } from "./recordTypes.js";

export const EVAL_FORMAT = "openhands-eval";

/**
 * An evaluation instance: an `instance_id` and a `history` array; or a `history` of null (pydantic
 * writes every field; an instance that failed before its agent ran has none) beside the
 * `test_result` every instance has. Never a shape of another format: no other writes `instance_id`.
 */
export function isEvalInstance(value: unknown): boolean {
  if (!isPlainObject(value) || eventIdOf(own(value, "instance_id")) === undefined) return false;
  const history = own(value, "history");
  return Array.isArray(history) || (history === null && own(value, "test_result") !== undefined);
}

/** The first JSON value of the samples is an instance (text lines before it, e.g. a cut head, are passed over). */
export function sniffEvalOutput(samples: readonly unknown[]): boolean {
  const first = samples.find((sample) => typeof sample !== "string");
  return first !== undefined && isEvalInstance(first);
}

/** How an instance line begins: `model_dump_json()` writes `instance_id` first (json.dumps with spaces too). */
const INSTANCE_HEAD = /^\uFEFF?\s*\{\s*"instance_id"\s*:/;

export const openhandsEvalAdapter: InputAdapter = {
  format: EVAL_FORMAT,

  sniff: sniffEvalOutput,

  sniffLongLine(head) {
    return INSTANCE_HEAD.test(head);
  },

  async read(source: LineSource, context: AdapterContext) {
    const { tally } = context;
    const file = source.file;
    /** Instances read so far in this file, by id, with their runs: an instance written again is its next run. */
    const runsOf = new Map<string, number>();
    await source.forEachLine((text, line, terminated, problem) => {
      const parsed = parseObjectLine(text, terminated, problem);
      if (parsed.kind === "blank") return void tally.ignored();
      if (parsed.kind === "bad") return void tally.skipped(file, line, parsed.reason);
      if (parsed.notice !== undefined) tally.note({ file, line, reason: parsed.notice });
      readInstance(parsed.value, { file, line }, context, runsOf);
    });
  },
};
