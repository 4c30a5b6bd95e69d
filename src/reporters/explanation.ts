/**
 * A finding row in plain words: which call repeated (tool and its telling arguments), what came back
 * unchanged, how often, and the threshold it crossed, e.g. `command_status(commandId=build-42)
 * returned "running" unchanged 10 times; warns at 10`. Shown under each table row (unless
 * `--no-explain`) and as the markdown table's last column. Built from the finding's preview (core/
 * preview.ts); findings without one (Gateway logs, which record no arguments) name the tool alone.
 * A pattern of calls the runtime refused as `Tool <name> not found` for a name its unknown-tool guard
 * does not extract (`google:search`) says so: a reader expects an unknown-tool streak there.
 */
import type { Finding } from "../core/findings.js";
import { unrecognisedToolNotFound } from "../core/toolNotFound.js";
import type { FindingGroup } from "./findingGroups.js";
import { sanitize } from "./sanitize.js";

const VERB: Readonly<Record<Finding["level"], string>> = { warning: "warns", critical: "blocks", abort: "aborts" };

function timesText(group: FindingGroup): string {
  const { minCount, maxCount } = group;
  return minCount === maxCount ? `${maxCount} ${maxCount === 1 ? "time" : "times"}` : `${minCount}–${maxCount} times`;
}

/** The quoted result text, or `the same error "…"`. */
function resultText(finding: Finding): string | undefined {
  const result = finding.preview?.result;
  if (result === undefined || result === null) return undefined;
  return finding.preview!.error ? `the same error "${sanitize(result)}"` : `"${sanitize(result)}"`;
}

/** `tool(args)`, or the tool alone when the arguments are unknown. */
export function callText(finding: Finding): string {
  const tool = sanitize(finding.tool);
  return finding.preview === undefined ? tool : `${tool}(${sanitize(finding.preview.args)})`;
}

/** What the pattern did, in words, without the threshold. */
function patternText(group: FindingGroup): string {
  const { first } = group;
  const call = callText(first);
  const times = timesText(group);
  const result = resultText(first);
  const failed = first.preview?.error === true;
  const unchanged = result === undefined ? `made no progress ${times}` : failed ? `failed with ${result} ${times}` : `returned ${result} unchanged ${times}`;
  switch (first.detector) {
    case "generic_repeat":
      if (first.level !== "warning") return `${call} ${unchanged}`;
      return `${call} was called ${times} with the same arguments${result === undefined ? "" : failed ? `, last failing with ${result}` : `, last returning ${result}`}`;
    case "ping_pong":
      return `${call} and another call alternated ${times}${first.level === "warning" ? "" : ", results unchanged"}`;
    case "unknown_tool_repeat":
      return `${call} was refused as an unknown tool ${times} in a row${result === undefined ? "" : ` (${result.replace(/^the /, "")})`}`;
    case "compaction_loop_persisted":
      return `${call} ${unchanged} after a compaction`;
    case "argument_churn":
      return `${call} kept changing its arguments without progress ${times}`;
    default:
      // known_poll_no_progress, global_circuit_breaker
      return `${call} ${unchanged}`;
  }
}

/** Why no unknown-tool streak counts the pattern, when its error is the runtime's `Tool <name> not found` for a name the guard does not take. */
function unrecognisedNameText(finding: Finding): string {
  const preview = finding.preview;
  if (preview?.error !== true || preview.result === null) return "";
  const name = unrecognisedToolNotFound(preview.result);
  return name === undefined ? "" : `; OpenClaw's unknown-tool guard does not recognise the name "${sanitize(name)}", so these calls are no unknown-tool streak`;
}

/**
 * The whole plain line for a row: the pattern, then where the detector acts (`warns at 10`; with
 * `named`, `warns at warningThreshold=10`, for tables too narrow to show the threshold's name).
 */
export function explanation(group: FindingGroup, named = false): string {
  const { first } = group;
  const { name, value } = first.threshold;
  const at = value === null ? "" : `; ${first.detector === "compaction_loop_persisted" ? "the guard " : ""}${VERB[first.level]} at ${named ? `${name}=${value}` : value}`;
  return `${patternText(group)}${at}${unrecognisedNameText(first)}`;
}
