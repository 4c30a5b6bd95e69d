/** Output forms of Codex builds that no fixture holds (outputs.ts), and the agent's no-such-tool messages. */
import { describe, expect, it } from "vitest";
import { codexUnknownTool, outputOutcome } from "../../../src/adapters/codex/outputs.js";
import { classifyRolloutLine } from "../../../src/adapters/codex/rolloutLines.js";
import { toBytes } from "../../../src/core/byteText.js";

/** The outcome of an output read as text. */
const textOutcome = (output: unknown, exitCode?: number) => outputOutcome(output, exitCode, "text").outcome;

describe("Codex outputs", () => {
  it("reads the 0.47 JSON envelope, dropping the duration", () => {
    expect(textOutcome(JSON.stringify({ output: "ok", metadata: { exit_code: 0, duration_seconds: 1.5 } }))).toEqual({ result: { content: [{ type: "text", text: "ok" }], details: { exit_code: 0 } } });
    expect(textOutcome(JSON.stringify({ output: "boom", metadata: { exit_code: 2, duration_seconds: 0.1 } }))).toEqual({ error: "boom" });
  });

  it("reads the 'Exit code:' text form without its wall time", () => {
    const a = textOutcome("Exit code: 0\nWall time: 0.2 seconds\nOutput:\nhi\n");
    const b = textOutcome("Exit code: 0\nWall time: 3.9 seconds\nOutput:\nhi\n");
    expect(a).toEqual(b);
    expect(textOutcome("Exit code: 1\nWall time: 1 seconds\nOutput:\nno\n")).toEqual({ error: "no\n" });
  });

  it("joins content items, takes an exec_command_end exit code, honours success:false", () => {
    expect(textOutcome([{ type: "input_text", text: "a" }, { type: "input_image" }, { type: "input_text", text: "b" }])).toEqual({ result: { content: [{ type: "text", text: "a\nb" }], details: {} } });
    expect(textOutcome([{ type: "input_text", text: "x" }], 127)).toEqual({ error: "x" });
    expect(textOutcome({ content: "denied", success: false })).toEqual({ error: "denied" });
  });

  it("recognises Codex's own no-such-tool answers", () => {
    expect(codexUnknownTool("unsupported call: web.run")).toBe("web.run");
    expect(codexUnknownTool("unsupported custom tool call: patcher")).toBe("patcher");
    expect(codexUnknownTool("Plan updated")).toBeUndefined();
  });

  it("classifies local_shell_call and parses JSON-string arguments, keeping non-JSON strings", () => {
    const line = (payload: unknown) => classifyRolloutLine({ type: "response_item", payload } as Record<string, unknown>, "text");
    expect(line({ type: "local_shell_call", call_id: "c1", action: { type: "exec", command: ["ls"] } })).toEqual({ kind: "call", id: "c1", tool: "local_shell", args: { type: "exec", command: ["ls"] }, form: "text" });
    expect(line({ type: "function_call", name: "shell", call_id: "c2", arguments: "not json" })).toEqual({ kind: "call", id: "c2", tool: "shell", args: "not json", form: "text" });
  });

  it("reads outputs in byte form: the envelope's strings stay bytes unless an escape in it is above U+007F", () => {
    const envelope = (output: string, exit: number) => JSON.stringify({ output, metadata: { exit_code: exit, duration_seconds: 0.5 } });
    expect(outputOutcome(toBytes(envelope("échec ✗", 0)), undefined, "bytes")).toEqual({ outcome: { result: { content: [{ type: "text", text: toBytes("échec ✗") }], details: { exit_code: 0 } } }, form: "bytes" });
    expect(outputOutcome(toBytes(envelope("échec ✗", 1)), undefined, "bytes")).toEqual({ outcome: { error: toBytes("échec ✗") }, form: "bytes" });
    const escaped = '{"output":"\\u00e9chec","metadata":{"exit_code":1}}';
    expect(outputOutcome(toBytes(escaped), undefined, "bytes")).toEqual({ outcome: { error: "échec" }, form: "text" });
  });

  it("finds the no-such-tool message behind non-ASCII white space in byte form, and its name as text", () => {
    expect(outputOutcome(toBytes("\u00a0\u3000unsupported call: déployer"), undefined, "bytes").outcome).toEqual({ error: toBytes("\u00a0\u3000unsupported call: déployer"), unknownTool: "déployer" });
    expect(outputOutcome(toBytes(" ok: unsupported call: x"), undefined, "bytes").outcome).not.toHaveProperty("unknownTool");
  });
});
