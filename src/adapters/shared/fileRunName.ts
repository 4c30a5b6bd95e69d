/**
 * The run that stands for a file without run ids: its base name without extensions. Canonical
 * events without run ids and an OpenHands conversation's event files are named so.
 */
import { basename } from "node:path";

export function runNameForFile(file: string): string {
  if (file === "-") return "stdin";
  return basename(file).replace(/(\.(gz|zst))?$/i, "").replace(/\.(jsonl|ndjson|json|log)$/i, "") || basename(file);
}
