/** Canonical event files to grow: the lines of random sessions, cut into many short runs (resume tests). */
import { canonicalText, prng, randomSessions } from "./randomSessions.js";

/**
 * Lines of canonical events of random sessions, their runs cut into short runs (before a call) so
 * that many end, most with a run end (handed out before the file ends: the entry's first runs), some
 * left open; usage on some calls.
 */
export function eventLines(seed: number): string[] {
  const random = prng(seed);
  const lines: string[] = [];
  let last: { run: string; session: string; agent: string } | undefined;
  let part = 0;
  for (const session of randomSessions(seed, 8)) {
    for (const line of canonicalText(session).split("\n").filter((text) => text !== "")) {
      const event = JSON.parse(line) as { run: string; session: string; agent: string; type: string };
      if (event.type === "tool_call" && random() < 0.08) part++;
      event.run = `${event.run}/${part}`;
      if (last !== undefined && last.run !== event.run && random() < 0.85) lines.push(JSON.stringify({ type: "run_end", run: last.run, session: last.session, agent: last.agent }));
      if (event.type === "tool_call" && random() < 0.3) Object.assign(event, { turn: `t${lines.length}`, usage: { input: lines.length, output: 3 } });
      lines.push(JSON.stringify(event));
      last = event;
    }
  }
  return lines;
}
