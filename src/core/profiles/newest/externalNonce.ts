/**
 * External-content nonce canonicalisation (generations.md §4.1, OpenClaw PR #130261). The runtime
 * wraps untrusted content in `<<<EXTERNAL_UNTRUSTED_CONTENT id="X">>> … <<<END_EXTERNAL_UNTRUSTED_CONTENT id="X">>>`
 * with a fresh random X per call, so two otherwise identical results would never hash equal. Outcome
 * hashing therefore zeroes the id of every well-formed pair, at any JSON-encoding depth inside a
 * string (the quotes of a pair encoded n times carry 2ⁿ−1 backslashes), but only when no quote of a
 * shallower level lies inside the pair: such a quote is a field boundary of the enclosing document,
 * so the "pair" was assembled from two different fields and is not one wrapped block.
 *
 * Pure string → string; only ever applied to outcome hashing, never to arguments or unknown-tool names.
 */

const START = "<<<EXTERNAL_UNTRUSTED_CONTENT";
const END = "<<<END_EXTERNAL_UNTRUSTED_CONTENT";
const ZERO_ID = "0000000000000000";
/** The shortest text that holds a pair: both markers with empty escapes and body. */
const SHORTEST_PAIR = `${START} id=""${ZERO_ID}>>>${END} id=""${ZERO_ID}>>>`.length;

// Sticky: matched exactly at a marker's position. Group 1: the backslash run E; group 2: the id X.
const START_MARKER = /<<<EXTERNAL_UNTRUSTED_CONTENT id=(\\*)"([0-9a-f]{16})\1">>>/y;
const END_MARKER = /<<<END_EXTERNAL_UNTRUSTED_CONTENT id=(\\*)"([0-9a-f]{16})\1">>>/y;

/** n when `count` = 2ⁿ−1 (the backslashes n levels of JSON encoding put before a quote), else undefined. */
function encodingDepth(count: number): number | undefined {
  const plusOne = count + 1;
  return (plusOne & count) === 0 ? Math.log2(plusOne) : undefined;
}

/** True when every quote between `from` and `to`, with the backslash run before it, spans a multiple of 2ⁿ chars. */
function quotesAtDepth(text: string, from: number, to: number, depth: number): boolean {
  const unit = 2 ** depth;
  if (unit === 1) return true;
  for (let i = text.indexOf('"', from); i !== -1 && i < to; i = text.indexOf('"', i + 1)) {
    let run = 0;
    // The run may begin before `from`: it is the quote's own escape, wherever it starts.
    while (i - run - 1 >= 0 && text.charCodeAt(i - run - 1) === 0x5c) run++;
    if ((run + 1) % unit !== 0) return false;
  }
  return true;
}

/** The position of the next start or end marker text (well-formed or not) at or after `from`, or -1. */
function nextMarker(text: string, from: number): number {
  const start = text.indexOf(START, from);
  const end = text.indexOf(END, from);
  if (start === -1) return end;
  if (end === -1) return start;
  return Math.min(start, end);
}

/** The string with the ids of every qualifying wrapper pair zeroed; the same string when there is none. */
export function canonicalizeExternalNonces(text: string): string {
  // Almost no string holds a marker: its length, or one substring search, decides (every string of
  // an outcome comes here, most of them short).
  if (text.length < SHORTEST_PAIR) return text;
  let at = text.indexOf(START);
  if (at === -1) return text;
  let out = "";
  let copied = 0;
  while (at !== -1) {
    START_MARKER.lastIndex = at;
    const start = START_MARKER.exec(text);
    if (!start) {
      at = text.indexOf(START, at + START.length);
      continue;
    }
    const [startText, escapes, id] = start as unknown as [string, string, string];
    const bodyFrom = at + startText.length;
    const closing = nextMarker(text, bodyFrom);
    END_MARKER.lastIndex = closing;
    const end = closing === -1 ? null : END_MARKER.exec(text);
    const depth = encodingDepth(escapes.length);
    if (end && end[1] === escapes && end[2] === id && depth !== undefined && quotesAtDepth(text, bodyFrom, closing, depth)) {
      // Both ids sit at a known offset inside their markers: `… id=` + E + `"` then 16 hex chars.
      const startId = at + `${START} id=`.length + escapes.length + 1;
      const endId = closing + `${END} id=`.length + escapes.length + 1;
      out += text.slice(copied, startId) + ZERO_ID + text.slice(startId + 16, endId) + ZERO_ID;
      copied = endId + 16;
      at = text.indexOf(START, closing + end[0].length);
    } else {
      // Not a pair: the next start marker may still open one.
      at = text.indexOf(START, bodyFrom);
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}
