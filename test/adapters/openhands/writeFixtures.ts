/**
 * Regenerates fixtures/agents/openhands/ and openhands-eval/ (bundle and run it, e.g. esbuild --bundle --platform=node --format=esm, then
 * ./bin/looplens check --update on each file). The hand-made extras (bad lines, copies, a delegate)
 * are appended here so the fixtures stay reproducible.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evalOutput } from "./evalWriters.js";
import { EVAL_FIXTURE, FIXTURE_SESSION } from "./fixtureSessions.js";
import { v0Events, v0Trajectory, v1Jsonl } from "./openhandsWriters.js";

const root = join(process.cwd(), "fixtures", "agents", "openhands");
mkdirSync(root, { recursive: true });
writeFileSync(join(root, "v0-trajectory.json"), v0Trajectory(FIXTURE_SESSION));
writeFileSync(join(root, "v1-events.jsonl"), v1Jsonl(FIXTURE_SESSION));

// V1 with what a real stream can hold besides: a copied event (same id written again), bad lines.
const v1 = v1Jsonl({ id: "extras", runs: [[{ kind: "calls", calls: [{ tool: "terminal", args: { command: "ls" }, outcome: { kind: "result", text: "a", details: {} } }], reversedResults: false }]] }).trimEnd().split("\n");
writeFileSync(join(root, "v1-copies-and-bad-lines.jsonl"), [...v1, v1[2]!, v1[3]!, "{not json", '["an array"]', '{"id":"x","source":"agent","kind":"ActionEvent"}', v1[1]!.slice(0, 40)].join("\n"));

// A V0 events folder (one event per file) with a delegate: the sub-agent loops on its own.
const events = v0Events({ id: "s", runs: [[{ kind: "noise" }]] }).slice(0, 3);
const bash = (n: number) => ({ function_name: "execute_bash", tool_call_id: `toolu_d${n}`, model_response: { id: `resp-d${n}`, choices: [] }, total_calls_in_response: 1 });
events.push({ id: 3, source: "agent", message: "delegating", action: "delegate", tool_call_metadata: { function_name: "delegate_to_browsing_agent", tool_call_id: "toolu_del", model_response: { id: "resp-del", choices: [] }, total_calls_in_response: 1 }, args: { agent: "BrowsingAgent", inputs: { task: "look" }, thought: "" } });
events.push({ id: 4, source: "user", message: "TASK: look", action: "message", args: { content: "TASK: look" } });
for (let i = 0; i < 11; i++) {
  events.push({ id: 5 + 2 * i, source: "agent", action: "run", tool_call_metadata: bash(i), args: { command: "curl x.test", thought: `try ${i}` } });
  events.push({ id: 6 + 2 * i, source: "agent", cause: 5 + 2 * i, observation: "run", tool_call_metadata: bash(i), content: "timeout", extras: { command: "curl x.test", metadata: { exit_code: 28, pid: i } }, success: false });
}
events.push({ id: 27, source: "agent", cause: 3, observation: "delegate", tool_call_metadata: events[3]!.tool_call_metadata, content: "Delegated agent finished", extras: { outputs: {} } });
const folder = join(root, "sessions", "d3l3gat3", "events");
mkdirSync(folder, { recursive: true });
for (const event of events) writeFileSync(join(folder, `${event.id as number}.json`), JSON.stringify(event));

// An evaluation's output.jsonl: one instance per line (fixtures/agents/openhands-eval/).
const evalRoot = join(process.cwd(), "fixtures", "agents", "openhands-eval");
mkdirSync(evalRoot, { recursive: true });
writeFileSync(join(evalRoot, "output.jsonl"), evalOutput(EVAL_FIXTURE));
