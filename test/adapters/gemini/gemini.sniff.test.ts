/**
 * Sniffing: Gemini CLI recordings are recognised from their first lines, every other format's
 * fixtures in this repo are not taken for them, and they are not taken for any other format.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adapterFor, ADAPTERS } from "../../../src/adapters/registry.js";
import { fileSource } from "../../../src/adapters/io/sources.js";
import { geminiCliAdapter } from "../../../src/adapters/gemini/geminiAdapter.js";
import { GEMINI_CHAT_JSON_FILE, geminiDefaultRoot, subAgentParent } from "../../../src/adapters/gemini/identity.js";
import { geminiFixtures } from "./geminiFixtures.js";
import { writeChat } from "./geminiRecording.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, keep) : keep(name) ? [path] : [];
  });
}

const formatOf = async (path: string) => {
  const choice = await adapterFor(await fileSource(path));
  return "adapter" in choice ? choice.adapter.format : "unusable";
};

/** The first lines as inputs.ts samples them: parsed JSON, else the raw text. */
function samples(text: string): unknown[] {
  return text.split("\n").filter((l) => l.trim() !== "").slice(0, 5).map((l) => { try { return JSON.parse(l); } catch { return l; } });
}

describe("sniffing Gemini CLI recordings", () => {
  it("recognises every Gemini fixture (JSONL, sub-agent, legacy .json) from its first lines", async () => {
    for (const { path } of geminiFixtures()) expect(await formatOf(join(ROOT, path)), path).toBe("gemini-cli");
  });

  it("takes no other format's fixture for a Gemini recording", async () => {
    const others = [
      ...filesUnder(join(ROOT, "fixtures"), (n) => /\.jsonl$/.test(n)).filter((p) => !p.includes(join("fixtures", "agents"))),
      ...filesUnder(join(ROOT, "fixtures", "openclaw"), (n) => !n.endsWith(".looplens.json")),
      ...filesUnder(join(ROOT, "fixtures", "gateway"), (n) => n.endsWith(".log")),
    ];
    expect(others.length).toBeGreaterThan(10);
    for (const path of others) expect(await formatOf(path), path).not.toBe("gemini-cli");
  });

  it("no other adapter claims a Gemini recording's first lines, whatever the order", () => {
    for (const { path, text } of geminiFixtures()) {
      const head = samples(text);
      expect(geminiCliAdapter.sniff(head), path).toBe(true);
      for (const adapter of ADAPTERS.filter((a) => a !== geminiCliAdapter)) expect(adapter.sniff(head), `${adapter.format} ${path}`).toBe(false);
    }
  });

  it("recognises a legacy document written on one line, and not a JSON-lines file of another agent", async () => {
    const doc = JSON.stringify({ sessionId: "s", projectHash: "p", startTime: "t", lastUpdated: "t", messages: [] });
    expect(await formatOf(writeChat(doc + "\n", "session-one-line.json"))).toBe("gemini-cli");
    const claude = JSON.stringify({ type: "user", sessionId: "s", uuid: "u1", parentUuid: null, timestamp: "t", message: { role: "user", content: "hi" } });
    expect(geminiCliAdapter.sniff([claude].map((l) => JSON.parse(l)))).toBe(false);
    expect(geminiCliAdapter.sniff(["{", '  "id": 1,', '  "source": "user"'])).toBe(false); // an OpenHands event file
  });

  it("names the files and the default location a folder scan should know", () => {
    expect(GEMINI_CHAT_JSON_FILE.test("/h/.gemini/tmp/p/chats/session-2025-10-21T20-04-0b23371a.json")).toBe(true);
    expect(GEMINI_CHAT_JSON_FILE.test("/h/.gemini/tmp/p/chats/session-x.json.looplens.json")).toBe(false);
    expect(GEMINI_CHAT_JSON_FILE.test("/h/.gemini/tmp/p/logs.json")).toBe(false);
    expect(geminiDefaultRoot("/home/u")).toBe(join("/home/u", ".gemini", "tmp"));
    expect(subAgentParent("/h/.gemini/tmp/p/chats/parent-1/child.jsonl")).toBe("parent-1");
    expect(subAgentParent("/h/.gemini/tmp/p/chats/session-1.jsonl")).toBeUndefined();
  });
});
