/**
 * Forked rollouts (agents.md A2, rule 7). A rollout whose first `session_meta` has `forked_from_id`
 * starts with the parent's items written again (openai/codex codex-rs/history: a fork's history is
 * the parent's, possibly cut before its n-th user message, then the new turns): same payloads, new
 * line timestamps. Codex items carry no ids of their own (only calls have `call_id`), so a copy is
 * told by its payload: while the fork's items are the parent's, in the parent's order, they are
 * copies (counted as duplicates, not replayed again); the first item the parent does not have ends
 * the copy, and everything after it is the fork's own.
 *
 * The parent must be in the same unit, read before (discovery groups a fork with its parent:
 * `codexForkTag`); a fork read alone replays all its items. Two rollouts of one session id (a
 * copied file) are grouped too, the second one's items being the first one's copies.
 */
import type { UnitHistory } from "../adapter.js";
import type { ForkTag, ForkTagger } from "../shared/forkFamilies.js";
import { hash53 } from "../shared/textHash.js";
import { toBytes, type StringForm } from "../../core/byteText.js";
import { isPlainObject, own } from "../../core/plainObject.js";
import { sessionIdOf } from "./identity.js";

const key = (session: string) => `codex:${session}`;

/** Ties a rollout to its own session and to the one it was forked from (from its first line). */
export const codexForkTag: ForkTagger = () => (head): ForkTag | null => {
  const line = head?.value();
  if (line === undefined) return null;
  const payload = own(line, "payload");
  if (own(line, "type") !== "session_meta" || !isPlainObject(payload)) return null;
  const self = sessionIdOf(payload);
  if (self === undefined) return null;
  const parent = forkedFrom(payload);
  return parent === undefined ? { keys: [key(self)], self: key(self) } : { keys: [key(self), key(parent)], self: key(self), parent: key(parent) };
};

/**
 * A line's identity for copy matching: its item kind and payload, without the line's timestamp. The
 * same in either form of the line's strings (a parent read from its bytes, a copy with an escape
 * read as text): the payload's JSON is hashed as a byte string (io/jsonBytes.ts `valueAsText` says
 * why `JSON.stringify` of byte strings is that).
 */
export function itemHash(line: Record<string, unknown>, form: StringForm): number {
  const payload = JSON.stringify(own(line, "payload")) ?? "";
  return hash53(`${String(own(line, "type"))}\u0000${form === "bytes" ? payload : toBytes(payload)}`);
}

/** The items of the rollouts of one unit read so far, by session id (kept only when the unit has several files). */
class UnitItems {
  readonly bySession = new Map<string, ItemList>();
}

class ItemList {
  readonly hashes: number[] = [];
  readonly positions = new Map<number, number[]>();

  add(hash: number): void {
    const at = this.positions.get(hash);
    if (at === undefined) this.positions.set(hash, [this.hashes.length]);
    else at.push(this.hashes.length);
    this.hashes.push(hash);
  }

  /** The first position at or after `from` holding this hash. */
  next(hash: number, from: number): number | undefined {
    return this.positions.get(hash)?.find((position) => position >= from);
  }
}

const units = new WeakMap<UnitHistory, UnitItems>();

/**
 * One rollout's side of it: records its items for the unit's later files, and, in a fork whose
 * parent the unit read, tells the copied items.
 */
export class ForkCopies {
  private readonly items: UnitItems | undefined;
  private own: ItemList | undefined;
  /** The parent's items and where the copy has got to; undefined once the copy is over (or there is none). */
  private copying: { list: ItemList; cursor: number } | undefined;

  constructor(unit: UnitHistory) {
    if (unit.files.length < 2) return;
    let items = units.get(unit);
    if (items === undefined) units.set(unit, (items = new UnitItems()));
    this.items = items;
  }

  /** The rollout's session, named by its first session_meta (`line`), which the fork's copy may repeat. */
  session(id: string, forkedFrom: string | undefined, line: Record<string, unknown>, form: StringForm): void {
    if (this.items === undefined || this.own !== undefined) return;
    // A second rollout of the same session (a copied file) starts with that session's items too.
    const parent = (forkedFrom === undefined ? undefined : this.items.bySession.get(forkedFrom)) ?? this.items.bySession.get(id);
    this.own = new ItemList();
    this.own.add(itemHash(line, form));
    this.items.bySession.set(id, this.own);
    if (parent !== undefined) this.copying = { list: parent, cursor: 0 };
  }

  /** Whether this line (after the first session_meta) is a copy of the parent's; every line is recorded. */
  isCopy(line: Record<string, unknown>, form: StringForm): boolean {
    if (this.own === undefined) return false;
    const hash = itemHash(line, form);
    this.own.add(hash);
    if (this.copying === undefined) return false;
    const at = this.copying.list.next(hash, this.copying.cursor);
    if (at === undefined) {
      this.copying = undefined;
      return false;
    }
    this.copying.cursor = at + 1;
    return true;
  }
}

/** `forked_from_id` of a session_meta payload. */
export function forkedFrom(meta: Record<string, unknown>): string | undefined {
  const forked = own(meta, "forked_from_id");
  return typeof forked === "string" && forked.trim() !== "" ? forked.trim() : undefined;
}
