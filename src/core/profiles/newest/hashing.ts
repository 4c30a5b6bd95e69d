/**
 * Call and outcome hashing of the newest OpenClaw generation (generations.md §3, §4). Differences
 * from the default rules (hashing.ts): arguments are hashed as written (`update_plan` is no longer
 * reduced to its shape); every digest keeps lone surrogates; outcome digests canonicalise external-
 * content nonces in every string and key; errors and no-op writes are marked no-progress; a failing
 * `exec` gets a failure identity that survives drifting timestamps and pids; a changing `write`
 * is marked as a mutation of its target.
 *
 * The digest is injected, as for the default rules: the module stays pure.
 */
import { fromBytes, trimIn, type ByteString, type StringForm } from "../../byteText.js";
import {
  contentText,
  isLoopVeto,
  isOutboundSend,
  omitVolatile,
  unknownToolName,
  type Digest,
  type Hashing,
  type OutcomeHash,
} from "../../hashing.js";
import { isPlainObject, own } from "../../plainObject.js";
import { stableSerialize, type KeyFilter, type StringPolicy } from "../../stableSerialize.js";
import { canonicalizeExternalNonces } from "./externalNonce.js";
import { maskVolatileSpans } from "./volatileSpans.js";

/** Arguments: lone surrogates kept, no normaliser (nonces in arguments are the model's own text). */
const ARGS_POLICY: StringPolicy = { keepLoneSurrogates: true, normalise: undefined };
/** Outcomes: the nonce normaliser on every string value and key. */
const OUTCOME_POLICY: StringPolicy = { keepLoneSurrogates: true, normalise: canonicalizeExternalNonces };

const isNonBlank = (value: unknown, form: StringForm): value is string => typeof value === "string" && trimIn(form, value) !== "";

/**
 * The text an error is hashed by: an Error's message (its name when empty), a string, a scalar as
 * text, anything else SS. With the form its chars are in: SS always gives a byte string.
 */
function errorText(error: unknown, form: StringForm): { readonly text: string; readonly form: StringForm } {
  // The runtime turns an empty thrown string into `new Error("")`, whose name stands in.
  if (typeof error === "string") return { text: error === "" ? "Error" : error, form };
  if (typeof error === "number" || typeof error === "boolean" || typeof error === "bigint") return { text: String(error), form };
  if (isPlainObject(error) && typeof own(error, "message") === "string") {
    const message = own(error, "message") as string;
    if (message !== "") return { text: message, form };
    const name = own(error, "name");
    return { text: typeof name === "string" && name !== "" ? name : "Error", form };
  }
  return { text: stableSerialize(error, undefined, undefined, form, ARGS_POLICY), form: "bytes" };
}

/** `(Command exited with code N)`: the runtime's synthetic output for a command that printed nothing. */
const syntheticExitOutput = (exitCode: number) => `(Command exited with code ${String(exitCode)})`;

export function createNewestHashing(digest: Digest): Hashing {
  const hashWith = (policy: StringPolicy) => (value: unknown, form: StringForm, omit?: KeyFilter) =>
    digest(stableSerialize(value, omit, digest, form, policy), "bytes");
  const argsValue = hashWith(ARGS_POLICY);
  const outcomeValue = hashWith(OUTCOME_POLICY);

  // The last finished exec's hashed fields and hashes: a loop repeats one failing command with one
  // output, whose masking and two digests are then made once (state of this hashing only; the
  // same fields always give the same hashes).
  let lastExec: { status: string; exitCode: number | null; timedOut: boolean; output: string; form: StringForm; hashed: OutcomeHash } | undefined;

  const execOutcome = (details: Record<string, unknown>, text: () => string, form: StringForm): OutcomeHash | undefined => {
    const status = own(details, "status");
    if (status === "running") {
      const tail = own(details, "tail");
      return { resultHash: outcomeValue({ status, tail: typeof tail === "string" ? tail : "" }, form) };
    }
    if (status === "completed" || status === "failed") {
      const rawExit = own(details, "exitCode");
      const exitCode = typeof rawExit === "number" ? rawExit : null;
      const timedOut = own(details, "timedOut") === true;
      const aggregated = own(details, "aggregated");
      const output = isNonBlank(aggregated, form) ? trimIn(form, aggregated) : text();
      const last = lastExec;
      if (last && last.output === output && last.status === status && last.exitCode === exitCode && last.timedOut === timedOut && last.form === form) return last.hashed;
      const hashed = finishedExec(status, exitCode, timedOut, output, form);
      lastExec = { status, exitCode, timedOut, output, form, hashed };
      return hashed;
    }
    if (status === "approval-pending" || status === "approval-unavailable") {
      const host = own(details, "host");
      const warningText = own(details, "warningText");
      return {
        resultHash: outcomeValue(
          {
            status,
            reason: own(details, "reason"),
            host: typeof host === "string" ? host : null,
            command: own(details, "command"),
            warningText: typeof warningText === "string" ? warningText : "",
          },
          form,
        ),
      };
    }
    return undefined; // other statuses fall through to the later rules
  };

  const finishedExec = (status: string, exitCode: number | null, timedOut: boolean, output: string, form: StringForm): OutcomeHash => {
    const resultHash = outcomeValue({ status, exitCode, timedOut, output }, form);
    const terminal =
      exitCode !== null && Number.isFinite(exitCode) && exitCode !== 0 && !timedOut && output !== "" && output !== syntheticExitOutput(exitCode);
    if (!terminal) return { resultHash };
    // The identity masks what drifts between retries of one failure (times, pids, attempts, durations);
    // with nothing to mask it is the result hash itself (the same value hashed), spared a second digest.
    const masked = maskVolatileSpans(output, form);
    const failureIdentity = masked === output ? resultHash : outcomeValue({ status, exitCode, timedOut, output: masked }, form);
    return { resultHash, outcomeKind: "terminal-exec-failure", failureIdentity };
  };

  const writeOutcome = (details: Record<string, unknown>, text: () => string, form: StringForm): OutcomeHash | undefined => {
    const changed = own(details, "changed");
    // Every no-op write shares one hash, whatever path or text it echoes.
    if (changed === false) return { resultHash: outcomeValue({ status: "unchanged" }, form), noProgress: true };
    if (changed === true) return { resultHash: outcomeValue({ details, text: text() }, form), outcomeKind: "write-mutation" };
    return undefined;
  };

  const pollOutcome = (action: unknown, details: Record<string, unknown>, text: () => string, form: StringForm): string | undefined => {
    const field = (key: string) => own(details, key) ?? null;
    // A missing status stays undefined, which serialises differently from null.
    const status = own(details, "status");
    if (action === "poll") {
      return outcomeValue({ action, status, exitCode: field("exitCode"), exitSignal: field("exitSignal"), aggregated: field("aggregated"), text: text() }, form);
    }
    if (action === "log") {
      const fields = { totalLines: field("totalLines"), totalChars: field("totalChars"), truncated: field("truncated") };
      return outcomeValue({ action, status, ...fields, exitCode: field("exitCode"), exitSignal: field("exitSignal"), text: text() }, form);
    }
    return undefined;
  };

  const resultOutcome = (tool: string, args: unknown, result: Record<string, unknown>, form: StringForm): OutcomeHash => {
    const rawDetails = own(result, "details");
    const details = isPlainObject(rawDetails) ? rawDetails : {};
    if (isLoopVeto(details)) return { outcomeKind: "tool-loop-veto" };
    let text: string | undefined;
    const lazyText = () => (text ??= contentText(result, form));
    if (tool === "exec") {
      const hashed = execOutcome(details, lazyText, form);
      if (hashed) return hashed;
    }
    if (tool === "write") {
      const hashed = writeOutcome(details, lazyText, form);
      if (hashed) return hashed;
    }
    if (tool === "process") {
      const action = isPlainObject(args) ? own(args, "action") : undefined;
      const hashed = pollOutcome(action, details, lazyText, form);
      if (hashed !== undefined) return { resultHash: hashed };
    }
    if (isOutboundSend(tool, args)) return { resultHash: outcomeValue(details, form, omitVolatile) };
    return { resultHash: outcomeValue({ details, text: lazyText() }, form) };
  };

  return {
    argsHash(tool, args, form) {
      return `${tool}:${argsValue(args, form)}`;
    },
    mutationTarget(tool, args, form) {
      if (tool !== "write" || !isPlainObject(args)) return undefined;
      const path = own(args, "path");
      // Replay has no cwd to resolve against: the raw path string is the target.
      return typeof path === "string" && path !== "" ? argsValue({ path }, form) : undefined;
    },
    outcomeHash(tool, args, outcome, form) {
      if (outcome.kind === "error") {
        const error = errorText(outcome.value, form);
        // The unknown-tool name comes from the raw (trimmed) text, never nonce-normalised.
        const raw = trimIn(error.form, error.text);
        const unknownTool = unknownToolName(error.form === "bytes" ? fromBytes(raw as ByteString) : raw);
        const resultHash = `error:${outcomeValue(error.text, error.form)}`;
        return unknownTool === undefined ? { resultHash, noProgress: true } : { resultHash, noProgress: true, unknownTool };
      }
      const result = outcome.value;
      if (!isPlainObject(result)) return result === undefined ? {} : { resultHash: outcomeValue(result, form) };
      return resultOutcome(tool, args, result, form);
    },
  };
}
