/**
 * Call and outcome hashing (spec: detection.md "Hashing"). The rules decide what counts as "the same
 * call" and "no progress": volatile fields (durations, pids, message ids) must never enter a hash,
 * and rewording a plan must not look like progress.
 *
 * The digest function is injected (xxhash in production) so that this module stays pure.
 */
import { isPlainObject, own } from "./plainObject.js";
import { fromBytes, toBytes, trimIn, type ByteString, type InForm, type StringForm } from "./byteText.js";
import { stableSerialize, wellFormed, type KeyFilter } from "./stableSerialize.js";

/**
 * Maps a text to a short fixed-size digest of its UTF-8 bytes: a byte string's own bytes, a text's
 * UTF-8 encoding (see byteText.ts), so that both forms of the same text digest alike. Only equality
 * of digests matters. Under the literal form "bytes" the text must be a `ByteString`.
 */
export type Digest = <F extends StringForm>(text: InForm<F>, form: F) => string;

export interface OutcomeHash {
  /** Absent for a loop veto or an absent result: such outcomes are never recorded. */
  readonly resultHash?: string;
  /** Lower-cased tool name when the error says the tool does not exist. */
  readonly unknownTool?: string;
  /** The result is the loop detector's own veto: the live runtime blocked this call. */
  readonly veto?: boolean;
  /**
   * Newest generation only (generations.md §2, §4): what kind of outcome the record holds beyond its
   * hash, the identity a terminal exec failure keeps across drifting output, and whether the outcome
   * is marked no-progress (errors, no-op writes). The default generation never sets these.
   */
  readonly outcomeKind?: OutcomeKind;
  readonly failureIdentity?: string;
  readonly noProgress?: boolean;
}

/** Outcome kinds the newest generation stores on a record (generations.md §2). */
export type OutcomeKind = "tool-loop-veto" | "terminal-exec-failure" | "write-mutation";

export type Outcome = { readonly kind: "result"; readonly value: unknown } | { readonly kind: "error"; readonly value: unknown };

const SEND_ACTIONS = new Set([
  "send",
  "broadcast",
  "reply",
  "thread-reply",
  "sendWithEffect",
  "sendAttachment",
  "upload-file",
  "sticker",
  "poll",
]);
const CHANNEL_TOOLS = new Set([
  "telegram",
  "discord",
  "slack",
  "whatsapp",
  "signal",
  "imessage",
  "msteams",
  "googlechat",
  "matrix",
  "mattermost",
]);
const VOLATILE_KEYS = new Set([
  "messageId",
  "message_id",
  "messageIds",
  "platformMessageId",
  "platformMessageIds",
  "fileId",
  "file_id",
  "fileKey",
  "pollId",
  "poll_id",
  "receipt",
  "runId",
  "idempotencyKey",
  "ts",
  "timestamp",
  "sentAt",
  "deliveredAt",
  "createdAt",
]);

// Both patterns start with a literal and their quantified runs cannot overlap between two anchors,
// so backtracking stays linear in the text length even for multi-megabyte errors.
const UNKNOWN_TOOL_PATTERNS = [
  /unknown tool[:\s]+["']?([a-z0-9_.-]+)["']?/i,
  /tool\s+["']?([a-z0-9_.-]+)["']?\s+(not found|is not available)/i,
];

function actionOf(args: unknown): unknown {
  return isPlainObject(args) ? own(args, "action") : undefined;
}

/** `command_status`, or `process` polling/reading logs: the runtime's known polling calls. */
export function isKnownPoll(tool: string, args: unknown): boolean {
  if (tool === "command_status") return true;
  if (tool !== "process") return false;
  const action = actionOf(args);
  return action === "poll" || action === "log";
}

/** Outbound sends, whose results differ only by per-call ids that must not look like progress. */
export function isOutboundSend(tool: string, args: unknown): boolean {
  if (tool === "sessions_send") return true;
  const action = actionOf(args);
  if (tool === "message") return typeof action === "string" && SEND_ACTIONS.has(action);
  if (CHANNEL_TOOLS.has(tool)) return action === undefined || (typeof action === "string" && SEND_ACTIONS.has(action));
  return false;
}

const isNonBlank = (value: unknown, form: StringForm): value is string => typeof value === "string" && trimIn(form, value) !== "";

/** update_plan reduced to its shape: rewording steps is not progress. */
export function normalizePlan(value: unknown, form: StringForm): unknown {
  const obj = isPlainObject(value) ? value : {};
  const planValue = own(obj, "plan");
  const plan = Array.isArray(planValue) ? planValue : [];
  return {
    planLength: plan.length,
    statuses: plan.map((step) => (isPlainObject(step) ? (own(step, "status") ?? null) : null)),
    stepPresence: plan.map((step) => isPlainObject(step) && isNonBlank(own(step, "step"), form)),
    hasExplanation: isNonBlank(own(obj, "explanation"), form),
  };
}

function isMessageLike(obj: Record<string, unknown>): boolean {
  return (
    typeof own(obj, "id") === "string" &&
    typeof own(obj, "text") === "string" &&
    (typeof own(obj, "direction") === "string" ||
      typeof own(obj, "senderId") === "string" ||
      typeof own(obj, "accountId") === "string" ||
      isPlainObject(own(obj, "conversation")))
  );
}

/** Leaves out of a send's details the per-call ids that differ on every delivery. */
export const omitVolatile: KeyFilter = (obj, key) => VOLATILE_KEYS.has(key) || (key === "id" && isMessageLike(obj));

/** Text of every `{type: string, text: string}` entry of `result.content`, joined and trimmed (in the result's form). */
export function contentText(result: Record<string, unknown>, form: StringForm): string {
  const content = own(result, "content");
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const entry of content) {
    if (!isPlainObject(entry)) continue;
    const type = own(entry, "type");
    const text = own(entry, "text");
    if (typeof type === "string" && typeof text === "string") texts.push(text);
  }
  return trimIn(form, texts.join("\n"));
}

/** The text an error is hashed by, as the runtime renders thrown values: a byte string (lone surrogates dropped). */
export function errorBytes(error: unknown, form: StringForm): ByteString {
  // A string of a "bytes" error is a byte string already.
  const bytes = (text: string) => (form === "bytes" ? (text as ByteString) : toBytes(wellFormed(text)));
  if (typeof error === "string") return bytes(error === "" ? "Error" : error);
  if (typeof error === "number" || typeof error === "boolean") return toBytes(String(error));
  if (isPlainObject(error) && typeof own(error, "message") === "string") {
    // A recorded Error: an empty message falls back to its name, like `String(new Error(""))`.
    const message = own(error, "message") as string;
    if (message !== "") return bytes(message);
    const name = own(error, "name");
    return bytes(typeof name === "string" && name !== "" ? name : "Error");
  }
  return stableSerialize(error, undefined, undefined, form);
}

/**
 * Both patterns need the ASCII word `tool` (any case; a case-insensitive match without the `u` flag
 * never maps a char above U+007F to an ASCII one), which the bytes of a text hold exactly when the
 * text does: an error without it is not decoded to be matched (decoding every error of 155 MB of
 * Codex rollouts cost 70 ms).
 */
const TOOL_WORD = /tool/i;
const mayNameUnknownTool = (bytes: ByteString) => TOOL_WORD.test(bytes);

export function unknownToolName(text: string): string | undefined {
  for (const pattern of UNKNOWN_TOOL_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1].toLowerCase();
  }
  return undefined;
}

export function isLoopVeto(details: Record<string, unknown>): boolean {
  return own(details, "status") === "blocked" && own(details, "deniedReason") === "tool-loop";
}

export interface Hashing {
  /** `form`: the form of the strings in `args` (the preparer decides it per event: prepare.ts). */
  argsHash(tool: string, args: unknown, form: StringForm): string;
  /** `form`: the form of the strings in the outcome; `args` is what `argsForOutcome` kept of the call's. */
  outcomeHash(tool: string, args: unknown, outcome: Outcome, form: StringForm): OutcomeHash;
  /** Newest generation only: the hash of the file a `write` call changes (generations.md §6 b). */
  mutationTarget?(tool: string, args: unknown, form: StringForm): string | undefined;
}

/**
 * What an outcome hash needs to know about the call's arguments: only its `action` (process polls
 * and logs, outbound sends). Keeping this instead of the arguments lets pending calls stay small.
 * The action is only ever compared with ASCII names, so its form does not matter.
 */
export function argsForOutcome(args: unknown): unknown {
  const action = actionOf(args);
  // Any present action is kept, not only a string: a non-string action makes a channel tool's call
  // not a send, while no action at all makes it one.
  return action === undefined ? undefined : { action };
}

/** The result's content text, computed at most once and only by the rules that hash it. */
type LazyText = () => string;

export function createHashing(digest: Digest): Hashing {
  // Long strings are hashed on their own (see stableSerialize): the serialization stays small.
  // Serializations are byte strings whatever form the value is in.
  const hashValue = (value: unknown, form: StringForm, omit?: KeyFilter) => digest(stableSerialize(value, omit, digest, form), "bytes");

  const execHash = (details: Record<string, unknown>, text: LazyText, form: StringForm): string | undefined => {
    const status = own(details, "status");
    if (status === "running") return hashValue({ status, tail: own(details, "tail") }, form);
    if (status === "completed" || status === "failed") {
      const exitCode = own(details, "exitCode");
      const aggregated = own(details, "aggregated");
      return hashValue(
        {
          status,
          exitCode: typeof exitCode === "number" ? exitCode : null,
          timedOut: own(details, "timedOut") === true,
          output: isNonBlank(aggregated, form) ? trimIn(form, aggregated) : text(),
        },
        form,
      );
    }
    if (status === "approval-pending" || status === "approval-unavailable") {
      const pick = (key: string) => own(details, key);
      return hashValue({ status, reason: pick("reason"), host: pick("host"), command: pick("command"), warningText: pick("warningText") }, form);
    }
    return undefined; // other statuses fall through to the generic rule
  };

  const processHash = (action: unknown, details: Record<string, unknown>, text: LazyText, form: StringForm): string | undefined => {
    const field = (key: string) => own(details, key) ?? null;
    // A missing status stays absent (undefined), distinct from an explicit null.
    const status = own(details, "status");
    if (action === "poll") {
      const hashed = { action, status, exitCode: field("exitCode"), exitSignal: field("exitSignal"), aggregated: field("aggregated"), text: text() };
      return hashValue(hashed, form);
    }
    if (action === "log") {
      return hashValue(
        {
          action,
          status,
          totalLines: field("totalLines"),
          totalChars: field("totalChars"),
          truncated: field("truncated"),
          exitCode: field("exitCode"),
          exitSignal: field("exitSignal"),
          text: text(),
        },
        form,
      );
    }
    return undefined;
  };

  const resultHash = (tool: string, args: unknown, result: Record<string, unknown>, details: Record<string, unknown>, form: StringForm) => {
    let text: string | undefined;
    const lazyText = () => (text ??= contentText(result, form));
    if (tool === "exec") {
      const hash = execHash(details, lazyText, form);
      if (hash !== undefined) return hash;
    }
    if (tool === "process") {
      const hash = processHash(actionOf(args), details, lazyText, form);
      if (hash !== undefined) return hash;
    }
    if (isOutboundSend(tool, args)) return hashValue(details, form, omitVolatile);
    if (tool === "update_plan") return hashValue({ details: normalizePlan(details, form), text: "" }, form);
    return hashValue({ details, text: lazyText() }, form);
  };

  return {
    argsHash(tool, args, form) {
      return `${tool}:${hashValue(tool === "update_plan" ? normalizePlan(args, form) : args, form)}`;
    },
    outcomeHash(tool, args, outcome, form) {
      if (outcome.kind === "error") {
        const bytes = errorBytes(outcome.value, form);
        const unknownTool = mayNameUnknownTool(bytes) ? unknownToolName(fromBytes(bytes)) : undefined;
        const hash = `error:${digest(bytes, "bytes")}`;
        return unknownTool === undefined ? { resultHash: hash } : { resultHash: hash, unknownTool };
      }
      const result = outcome.value;
      if (!isPlainObject(result)) return result === undefined ? {} : { resultHash: hashValue(result, form) };
      const rawDetails = own(result, "details");
      const details = isPlainObject(rawDetails) ? rawDetails : {};
      if (isLoopVeto(details)) return { veto: true }; // no hash: a veto must not reset a streak
      return { resultHash: resultHash(tool, args, result, details, form) };
    },
  };
}
