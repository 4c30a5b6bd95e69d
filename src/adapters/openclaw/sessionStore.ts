/**
 * Where an OpenClaw session's runs came in (issue 34 §4: `telegram direct`, `cron`, `webchat
 * direct`): from its session key (`agent:<agentId>:<rest>`, on every trajectory line as `sessionKey`)
 * and from the session store `sessions.json` beside the transcripts, which maps each live session
 * key to its `sessionId` and records the channel it was last reached on (`lastChannel`,
 * `deliveryContext.channel`, `origin.provider`) and the kind of chat (`chatType`). Archived sessions
 * are no longer in the store: their runs name no channel.
 */
import { readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isPlainObject, own } from "../../core/plainObject.js";

/** A key part that identifies rather than names (a cron job's, a peer's, a sub-agent's id). */
const ID_PART = /^([0-9a-f]{8}-[0-9a-f-]{27}|[+\d][\d-]{3,}|[A-Za-z0-9_-]{20,})$/i;

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/** The channel a session key and (when the store has it) its entry name, in a few words. */
export function channelOf(key: unknown, entry?: Record<string, unknown>): string | undefined {
  const words = typeof key === "string" ? key.trim().replace(/^agent:[^:\s]+:/, "").split(":").filter((part) => part !== "" && !ID_PART.test(part)) : [];
  const origin = entry === undefined ? undefined : own(entry, "origin");
  const delivery = entry === undefined ? undefined : own(entry, "deliveryContext");
  const channel =
    text(entry && own(entry, "lastChannel")) ??
    text(entry && own(entry, "channel")) ??
    text(isPlainObject(delivery) ? own(delivery, "channel") : undefined) ??
    text(isPlainObject(origin) ? own(origin, "provider") : undefined);
  const chatType = text(entry && own(entry, "chatType")) ?? text(isPlainObject(origin) ? own(origin, "chatType") : undefined);
  // The main session says only "main": where it was reached says more.
  const named = words.length === 1 && words[0] === "main" && channel !== undefined ? [channel, ...(chatType !== undefined ? [chatType] : [])] : words;
  const unique = named.filter((word, i) => named.indexOf(word) === i);
  return unique.length > 0 ? unique.join(" ").slice(0, 80) : undefined;
}

/** Stores larger than this are not read for channels (a store is kilobytes; a runaway one is not worth the memory). */
const MAX_STORE_BYTES = 32 * 1024 * 1024;

/** The store read last, by folder: a folder's transcripts are read one after another. */
let last: { readonly dir: string; readonly channels: Promise<ReadonlyMap<string, string>> } | undefined;

/** The channel of a session id in the store beside `file`, if the store names it. */
export async function storeChannel(file: string, sessionId: string): Promise<string | undefined> {
  if (file === "-" || file.includes(".sqlite#")) return undefined;
  const dir = dirname(file);
  if (last?.dir !== dir) last = { dir, channels: readStore(join(dir, "sessions.json")) };
  return (await last.channels).get(sessionId);
}

async function readStore(path: string): Promise<ReadonlyMap<string, string>> {
  const channels = new Map<string, string>();
  try {
    if ((await stat(path)).size > MAX_STORE_BYTES) return channels;
    const store: unknown = JSON.parse(await readFile(path, "utf8"));
    if (!isPlainObject(store)) return channels;
    for (const [key, entry] of Object.entries(store)) {
      if (!isPlainObject(entry)) continue;
      const id = text(own(entry, "sessionId"));
      const channel = channelOf(key, entry);
      if (id !== undefined && channel !== undefined && !channels.has(id)) channels.set(id, channel);
    }
  } catch {
    // No store, or not one: the runs name no channel.
  }
  return channels;
}
