/**
 * Recognising a Gemini CLI recording from its first meaningful lines (inputs.ts samples them: parsed
 * JSON, or the raw text of a line that is not JSON). A wrong guess is worse than "not recognised",
 * so each form needs keys no other format puts there:
 * - JSONL: the metadata line (`sessionId` with `projectHash` or `startTime`, and no `type`), or —
 *   a recording whose metadata line is missing — a message record (`id`, `timestamp`, `content`,
 *   `type` "user" or "gemini", none of the keys Claude Code, OpenClaw or Codex lines carry);
 * - the legacy document, pretty-printed: a first line `{` followed by top-level `"key": value`
 *   lines among which `"sessionId": "…"` and `"projectHash"`, `"startTime"` or `"messages"`; on one
 *   line it parses to a metadata object with `messages` and is the JSONL case.
 */
import { isPlainObject, own } from "../../core/plainObject.js";
import { isMetadata, MODEL_TYPE, USER_TYPE } from "./records.js";

const FOREIGN_KEYS = ["message", "uuid", "parentId", "parentUuid", "payload", "source", "kind"];

function isMetadataLine(value: Record<string, unknown>): boolean {
  return isMetadata(value) && (typeof own(value, "projectHash") === "string" || typeof own(value, "startTime") === "string");
}

function isMessageLine(value: Record<string, unknown>): boolean {
  const type = own(value, "type");
  if (type !== USER_TYPE && type !== MODEL_TYPE) return false;
  if (typeof own(value, "id") !== "string" || typeof own(value, "timestamp") !== "string" || !("content" in value)) return false;
  return FOREIGN_KEYS.every((key) => !Object.prototype.hasOwnProperty.call(value, key));
}

const DOCUMENT_KEY = /^\s*"([A-Za-z$_][\w$]*)"\s*:/;
const SESSION_ID_LINE = /^\s*"sessionId"\s*:\s*"/;
const SECOND_KEYS = new Set(["projectHash", "startTime", "messages"]);

/** The head of a pretty-printed legacy document: `{`, then its first keys. */
function isDocumentHead(samples: readonly unknown[]): boolean {
  if (typeof samples[0] !== "string" || samples[0].trim() !== "{") return false;
  let sessionId = false;
  let second = false;
  for (const sample of samples.slice(1)) {
    const key = typeof sample === "string" ? DOCUMENT_KEY.exec(sample)?.[1] : undefined;
    if (key === undefined) break;
    sessionId ||= SESSION_ID_LINE.test(sample as string);
    second ||= SECOND_KEYS.has(key);
  }
  return sessionId && second;
}

export function sniffGemini(samples: readonly unknown[]): boolean {
  const first = samples.find(isPlainObject);
  if (first !== undefined && samples.indexOf(first) === 0) return isMetadataLine(first) || isMessageLine(first);
  return isDocumentHead(samples);
}
