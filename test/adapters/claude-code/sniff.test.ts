/** Sniffing: Claude Code transcripts are recognised from their first lines, and no other format's fixtures are taken for them. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adapterFor } from "../../../src/adapters/registry.js";
import { fileSource, textSource } from "../../../src/adapters/io/sources.js";

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, keep);
    return keep(name) ? [path] : [];
  });
}

const notSnapshot = (name: string) => !name.endsWith(".looplens.json") && !name.endsWith(".meta.json");

async function formatOf(path: string): Promise<string> {
  const choice = await adapterFor(await fileSource(path));
  return "adapter" in choice ? choice.adapter.format : "unusable";
}

describe("Claude Code sniffing", () => {
  const ours = filesUnder("fixtures/agents/claude-code", (name) => name.endsWith(".jsonl"));

  it("recognises every Claude Code fixture", async () => {
    expect(ours.length).toBeGreaterThanOrEqual(9);
    for (const file of ours) expect([file, await formatOf(file)]).toEqual([file, "claude-code"]);
  });

  it("does not take other formats' fixtures for Claude Code, and they keep their own format", async () => {
    const canonical = readdirSync("fixtures").filter((n) => n.endsWith(".jsonl")).map((n) => join("fixtures", n));
    const others = [...canonical, ...filesUnder("fixtures/openclaw", notSnapshot), ...filesUnder("fixtures/gateway", (n) => n.endsWith(".log") || n.endsWith(".jsonl"))];
    expect(others.length).toBeGreaterThan(10);
    for (const file of others) {
      const format = await formatOf(file);
      expect([file, format]).not.toEqual([file, "claude-code"]);
      expect([file, format]).not.toEqual([file, "unusable"]);
    }
  });

  it("recognises a file that starts with Claude Code's own metadata lines, and not a Gemini-like user message", async () => {
    const meta = ['{"type":"permission-mode","permissionMode":"default","sessionId":"s"}', '{"type":"summary","summary":"x","leafUuid":"u9"}'].join("\n");
    const gemini = '{"id":"m1","timestamp":"2025-01-01T00:00:00Z","type":"user","content":[{"text":"hi"}]}\n';
    const of = async (text: string) => {
      const choice = await adapterFor(textSource("x.jsonl", text));
      return "adapter" in choice ? choice.adapter.format : "unusable";
    };
    expect(await of(meta)).toBe("claude-code");
    expect(await of(gemini)).not.toBe("claude-code");
  });
});
