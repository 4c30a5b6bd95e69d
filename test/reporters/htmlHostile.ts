/**
 * A hostile transcript for the HTML report: every string a page could be tricked by (script
 * elements, `</script>` inside JSON, event-handler attributes, `javascript:` links, bidi overrides,
 * line separators) as run ids, tool names, arguments and results, repeated until detectors fire so
 * that they reach the findings table and the timeline too. Were any of it to run in the browser it
 * would set `window.__pwned`.
 */
import { call, result, textResult, toJsonl, type EventLine } from "../helpers/events.js";

export const HOSTILE = {
  script: "<script>window.__pwned=1</script>",
  closeInJson: '{"x":"</script><script>window.__pwned=2</script>"}',
  handler: '<img src=x onerror="window.__pwned=3">',
  link: "javascript:window.__pwned=4",
  svg: "<svg onload=window.__pwned=5>",
  bidi: "\u202Egnp.exe\u202C\u2066x\u2069",
  separators: "a\u2028b\u2029c<!--",
} as const;

/** The run ids and tool names, one hostile string each. */
export const HOSTILE_RUNS = [HOSTILE.script, HOSTILE.link, HOSTILE.bidi];
export const HOSTILE_TOOLS = [HOSTILE.handler, HOSTILE.closeInJson, HOSTILE.svg];

export function hostileTranscript(): string {
  const lines: EventLine[] = [];
  HOSTILE_RUNS.forEach((run, r) => {
    lines.push({ type: "run_start", run, agent: HOSTILE.separators, session: HOSTILE.handler });
    for (let i = 0; i < 22; i++) {
      const tool = HOSTILE_TOOLS[(r + (i < 3 ? i : 0)) % HOSTILE_TOOLS.length]!;
      lines.push(call(run, `c${i}`, tool, { href: HOSTILE.link, html: HOSTILE.script, json: HOSTILE.closeInJson }));
      lines.push(result(run, `c${i}`, tool, textResult(`${HOSTILE.svg} ${HOSTILE.bidi}`)));
    }
    if (r === 0) lines.push({ type: "compaction", run });
  });
  return toJsonl(lines);
}
