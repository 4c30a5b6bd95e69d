import { analyze, loadConfig, replay, type CanonicalEvent } from "looplens";

// One in-memory session of canonical events (no `run`: one run, named "stdin").
const events: CanonicalEvent[] = [];
for (let i = 0; i < 12; i++) {
  events.push({ type: "tool_call", id: `c${i}`, tool: "exec", args: { command: "make test" } });
  events.push({ type: "tool_result", id: `c${i}`, tool: "exec", result: "1 failing" });
}
const report = await replay(events, { enabled: true, warningThreshold: 5, criticalThreshold: 10 });
console.log(report.runs[0]?.firstStop); // { kind: 'critical', call: … }

// A config file read once, used for many analyses (notices are in report.config.notices).
const config = await loadConfig("fixtures/config/openclaw.json5");
const perAgent = await analyze("fixtures/config/two-agents.jsonl", { config });
console.log(perAgent.config.agentOverrides);

// Lines from anywhere (a stream, a database): read as standard input is, file "-".
async function* lines(): AsyncGenerator<string> {
  for (const event of events) yield JSON.stringify(event);
}
const fromLines = await analyze(lines(), { inputFormat: "events" });
console.log(fromLines.summary.lines); // { read: 24, used: 24, … }
