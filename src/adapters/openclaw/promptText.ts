/**
 * What a person asked, out of an OpenClaw user message: the runtime puts the sender's metadata
 * before the text (`Sender (untrusted metadata):` and a fenced JSON block, real 2026.4 files; other
 * `… (untrusted metadata):` blocks alike) and the time the message came in (`[Wed 2026-04-15 09:32
 * GMT+8] `). Both are dropped, so that the prompt reads as typed.
 */
import { keptPrompt } from "../../core/runIdentity.js";

/** One `Label (untrusted metadata):` line and the fenced block after it. */
const METADATA_BLOCK = /^[^\n]{0,80}\(untrusted metadata\):[ \t]*\n```[^\n]*\n[\s\S]*?\n```[ \t]*(\n+|$)/;
/** `[Wed 2026-04-15 09:32 GMT+8] `: the time stamp the runtime puts before the text. */
const TIME_STAMP = /^\[[A-Z][a-z]{2} \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?( [^\]]{1,12})?\][ \t]*/;

export function openclawPrompt(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let rest = text.trimStart();
  for (let blocks = 0; blocks < 4; blocks++) {
    const block = METADATA_BLOCK.exec(rest);
    if (block === null) break;
    rest = rest.slice(block[0].length).trimStart();
  }
  return keptPrompt(rest.replace(TIME_STAMP, "")) ?? keptPrompt(text);
}
