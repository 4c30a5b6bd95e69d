/**
 * Codex rollout lines read from their bytes (the replay path: arguments and outputs stay UTF-8 byte
 * strings for hashing, io/jsonBytes.ts) give the verdicts and runs of the same lines read as text.
 * The JSON-string `arguments` and 0.47 `output` envelopes are parsed a second time: written with
 * raw non-ASCII text on some lines and with `\u` escapes of the same chars (accents, surrogate
 * pairs) on others, they are the same calls and outputs, so the repeats must count across both.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sameFromBytesAndText, verdicts } from "../../helpers/inProcess.js";
import { tempDir } from "../../helpers/tempDir.js";

const SESSION = "0199aa00-1111-7222-8333-c0dexb17e500";

/** JSON of `value` with every char above U+007F written as a `\u` escape (surrogate pairs for astral ones). */
function escaped(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function rollout(): string {
  const lines: string[] = [];
  let n = 0;
  const push = (type: string, payload: unknown) => lines.push(JSON.stringify({ timestamp: `2026-03-01T09:00:${String(n++ % 60).padStart(2, "0")}.000Z`, type, payload }));
  const json = (value: unknown, escape: boolean) => (escape ? escaped(value) : JSON.stringify(value));
  push("session_meta", { id: SESSION, cwd: "/home/dév", originator: "codex_cli_rs", cli_version: "0.47.0", source: "cli" });
  push("event_msg", { type: "user_message", message: "Réparer les tests 🚀" });
  for (let i = 0; i < 12; i++) {
    const escape = i % 2 === 1;
    push("response_item", { type: "function_call", name: "shell", arguments: json({ command: ["npm", "test", "— café"], workdir: "/home/dév" }, escape), call_id: `call_a${i}` });
    push("response_item", { type: "function_call_output", call_id: `call_a${i}`, output: json({ output: "1 échec ✗ 数据 🚀", metadata: { exit_code: 0, duration_seconds: i / 10 } }, escape) });
  }
  push("event_msg", { type: "user_message", message: "Patcher" });
  for (let i = 0; i < 12; i++) {
    const escape = i % 3 === 0;
    // freeform input (not JSON: stays a string in the line's form) and JSON input, both with astral chars
    const input = i % 2 === 0 ? "*** Begin Patch\n+naïve 🚀\n*** End Patch" : json({ patch: "naïve 🚀", ok: true }, escape);
    push("response_item", { type: "custom_tool_call", status: "completed", call_id: `call_p${i}`, name: "apply_patch", input });
    push("response_item", { type: "custom_tool_call_output", call_id: `call_p${i}`, output: json({ output: "Échec: fichier « a.ts » 𝄞", metadata: { exit_code: 1, duration_seconds: 0 } }, escape) });
  }
  push("event_msg", { type: "user_message", message: "Déployer" });
  for (let i = 0; i < 11; i++) {
    push("response_item", { type: "function_call", name: "Déployer", arguments: json({ cible: "prod ✓" }, i % 2 === 0), call_id: `call_d${i}` });
    // the agent's no-such-tool answer, plain and inside an envelope with an escaped name
    const output = i % 2 === 0 ? "unsupported call: Déployer" : escaped({ output: "unsupported call: Déployer", metadata: { exit_code: 1 } });
    push("response_item", { type: "function_call_output", call_id: `call_d${i}`, output });
  }
  // a whole line with an escape above U+007F (read as text) among lines read as bytes
  lines.push(lines.at(-2)!.replaceAll("call_d10", "call_e1").replace("Déployer", "D\\u00e9ployer"));
  lines.push(lines.at(-2)!.replaceAll("call_d10", "call_e1"));
  // a lone surrogate inside a JSON-string argument: text, not bytes
  push("response_item", { type: "function_call", name: "shell", arguments: '{"command":["echo","\\ud800"]}', call_id: "call_s1" });
  push("response_item", { type: "function_call_output", call_id: "call_s1", output: '{"output":"\\udc00 ok","metadata":{"exit_code":0}}' });
  return lines.join("\n") + "\n";
}

describe("Codex rollout lines read from their bytes", () => {
  it("give the findings and runs of the lines read as text, escapes or not", async () => {
    const dir = join(tempDir("looplens-codex-bytes-"), "sessions", "2026", "03", "01");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `rollout-2026-03-01T09-00-00-${SESSION}.jsonl`);
    writeFileSync(path, rollout());
    const { fromBytes, fromText, detectors } = await sameFromBytesAndText([path]);
    // The repeats span the raw and the escaped lines: every one of them was counted.
    expect(detectors).toEqual(new Set(["generic_repeat", "ping_pong", "unknown_tool_repeat"]));
    const maxCount = (detector: string) => Math.max(...verdicts(fromBytes).filter(([, , d]) => d === detector).map(([, , , , count]) => count));
    // (a finding's count is the repeats before the call: the 12th call of a run counts 11)
    expect(maxCount("generic_repeat")).toBe(11);
    expect(maxCount("unknown_tool_repeat")).toBe(11);
    expect(fromBytes.runs.map((run) => run.calls)).toEqual([12, 12, 13]);
    expect(fromBytes.lines).toEqual(fromText.lines);
    expect(fromBytes.lines.skipped).toBe(0);
  });
});
