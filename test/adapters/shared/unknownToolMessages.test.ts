/**
 * Each agent's own "no such tool" message, in its exact wording, names the tool for the unknown-tool
 * detector (agents.md rule 3); other error texts do not.
 */
import { describe, expect, it } from "vitest";
import { unknownToolIn as claudeUnknownTool } from "../../../src/adapters/claude-code/toolResults.js";
import { codexUnknownTool, outputOutcome } from "../../../src/adapters/codex/outputs.js";
import { unknownToolOf as geminiUnknownTool } from "../../../src/adapters/gemini/outcome.js";
import { unknownToolIn as openhandsUnknownTool } from "../../../src/adapters/openhands/outcome.js";

/** The outcome of an output read as text. */
const textOutcome = (output: unknown, exitCode?: number) => outputOutcome(output, exitCode, "text").outcome;

describe("agents' own unknown-tool messages", () => {
  it("Claude Code: <tool_use_error>Error: No such tool available: X</tool_use_error>", () => {
    expect(claudeUnknownTool("<tool_use_error>Error: No such tool available: mcp__github__create_pr</tool_use_error>")).toBe("mcp__github__create_pr");
    expect(claudeUnknownTool("<tool_use_error>File has not been read yet.</tool_use_error>")).toBeUndefined();
  });

  it("Codex: 'unsupported call: X' and 'unsupported custom tool call: X', as an output's text", () => {
    expect(codexUnknownTool("unsupported call: browser_open")).toBe("browser_open");
    expect(codexUnknownTool("unsupported custom tool call: apply_diff")).toBe("apply_diff");
    expect(textOutcome("unsupported call: browser_open")).toEqual({ error: "unsupported call: browser_open", unknownTool: "browser_open" });
    // a command's own output that merely mentions the words is not the agent's message
    expect(codexUnknownTool("error: unsupported call: x in foo.c")).toBeUndefined();
    expect(textOutcome(JSON.stringify({ output: "ok", metadata: { exit_code: 0 } }))).not.toHaveProperty("unknownTool");
  });

  it("OpenHands V1: Tool 'X' not found. Available: [...]; V0: Tool X is not registered. ...", () => {
    expect(openhandsUnknownTool("Tool 'browser' not found. Available: ['terminal', 'file_editor', 'task_tracker']")).toBe("browser");
    expect(
      openhandsUnknownTool("Tool web_read is not registered. (arguments: {'url': 'https://x.test'}). Please check the tool name and retry with an existing tool."),
    ).toBe("web_read");
    expect(openhandsUnknownTool("Command exited with code 127: browser: command not found")).toBeUndefined();
  });

  it('Gemini CLI: Tool "X" not found in registry (with its suggestion)', () => {
    expect(geminiUnknownTool('Tool "mcp:srv/do" not found in registry. Tools must use the exact names that are registered. Did you mean one of: "read_file"?')).toBe("mcp:srv/do");
    expect(geminiUnknownTool("File not found: /a.ts")).toBeUndefined();
  });
});
