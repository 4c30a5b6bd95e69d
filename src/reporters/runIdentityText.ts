/**
 * A run's identity (model.ts `RunIdentity`) in the words the human formats show: its start in local
 * time, how long it ran, where it came in, the model and how it ended, then its prompt. Each part
 * is left out when the input did not record it. Strings are clean already (reporters/runIdentity.ts);
 * each format escapes them its own way.
 */
import { outcomeText } from "../core/runIdentity.js";
import type { RunIdentity } from "./model.js";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** An ISO time as the local time of the machine the report is made on: `2026-04-14 15:05:52`. */
export function localTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/** A duration in the two largest units that matter: `850ms`, `12s`, `3m 12s`, `2h 05m`, `3d 4h`. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${pad(s % 60)}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${pad(m % 60)}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** The identity's parts but the prompt: `2026-04-14 15:05:52`, `3m 12s`, `telegram direct`, `model qwen`, `ended stop`. */
export function identityParts(identity: RunIdentity): string[] {
  const parts: string[] = [];
  if (identity.startedAt !== null) parts.push(localTime(identity.startedAt));
  if (identity.durationMs !== null) parts.push(durationText(identity.durationMs));
  if (identity.channel !== null) parts.push(identity.channel);
  if (identity.model !== null) parts.push(`model ${identity.model}`);
  if (identity.outcome !== null) parts.push(`ended ${outcomeText(identity.outcome)}`);
  return parts;
}
