/**
 * Format sniffing: a Codex rollout is recognised from its first lines (even without its
 * session_meta), no other format's fixture is taken for one, and no other adapter claims a rollout.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS, adapterFor } from "../../../src/adapters/registry.js";
import { fileSource } from "../../../src/adapters/io/sources.js";
import { codexRolloutAdapter } from "../../../src/adapters/codex/rolloutAdapter.js";

const FIXTURES = join(import.meta.dirname, "../../../fixtures");

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

const codexFiles = filesUnder(join(FIXTURES, "agents", "codex"), /\.jsonl$/);
const otherFiles = [
  ...readdirSync(FIXTURES).filter((n) => n.endsWith(".jsonl")).map((n) => join(FIXTURES, n)),
  ...filesUnder(join(FIXTURES, "openclaw"), /\.jsonl(\.|$)|\.(reset|deleted)\.|\.bak-/),
  ...filesUnder(join(FIXTURES, "gateway"), /\.log$/),
];

async function sniffed(path: string): Promise<string> {
  const choice = await adapterFor(await fileSource(path));
  return "adapter" in choice ? choice.adapter.format : "unusable";
}

function firstSamples(path: string, n = 5): unknown[] {
  const lines = readFileSync(path, "utf8").split("\n").filter((l) => l.trim() !== "").slice(0, n);
  return lines.map((l) => {
    try {
      return JSON.parse(l);
    } catch {
      return l;
    }
  });
}

describe("sniffing Codex rollouts", () => {
  it("finds fixtures of every other format to compare against", () => {
    expect(codexFiles.length).toBeGreaterThanOrEqual(9);
    expect(otherFiles.filter((f) => f.endsWith(".log")).length).toBeGreaterThan(0);
    expect(otherFiles.filter((f) => f.includes("/openclaw/")).length).toBeGreaterThan(0);
  });

  it("recognises each Codex fixture from its first lines", async () => {
    for (const file of codexFiles) expect([file, await sniffed(file)]).toEqual([file, "codex"]);
  });

  it("recognises a rollout cut before its session_meta", () => {
    const samples = firstSamples(codexFiles[0]!, 6).slice(1);
    expect(codexRolloutAdapter.sniff(samples)).toBe(true);
  });

  it("takes no other format's fixture for a rollout", async () => {
    for (const file of otherFiles) expect([file, await sniffed(file)]).not.toEqual([file, "codex"]);
    for (const file of otherFiles) expect([file, codexRolloutAdapter.sniff(firstSamples(file))]).toEqual([file, false]);
  });

  it("no other adapter claims a rollout", () => {
    const others = ADAPTERS.filter((a) => a.format !== "codex");
    for (const file of codexFiles) {
      const samples = firstSamples(file);
      expect([file, others.filter((a) => a.sniff(samples)).map((a) => a.format)]).toEqual([file, []]);
    }
  });
});
