/**
 * The project's OpenHands fixtures (fixtures/agents/openhands/, written by writeFixtures.ts in the
 * real shapes): what each yields, the findings each scenario gives, a V0 events folder read as one
 * conversation with a delegate sub-agent, and format sniffing against every other format's fixtures.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeSerially } from "../../../src/pipeline/analysis.js";
import { createConfigResolver } from "../../../src/pipeline/configResolution.js";
import { ADAPTERS, adapterFor } from "../../../src/adapters/registry.js";
import { fileSource } from "../../../src/adapters/io/sources.js";
import { groupOpenHandsFiles } from "../../../src/adapters/openhands/index.js";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { analyzePaths } from "../../helpers/inProcess.js";
import { samplesOf, walk } from "./fixtureFiles.js";

const ROOT = join(process.cwd(), "fixtures", "agents", "openhands");
const FOLDER = join(ROOT, "sessions", "d3l3gat3", "events");

/** Per run: [run, agent, calls, compactions, [detector, level, call] of its first finding]. */
async function yields(path: string) {
  const analysis = await analyzePaths([path]);
  const runs = analysis.runs.map((r) => [r.run, r.agent, r.calls, r.compactions, firstOf(r.findings)]);
  function firstOf(findings: Iterable<{ detector: string; level: string; call: number }>) {
    const [first] = findings;
    return first ? [first.detector, first.level, first.call] : null;
  }
  return { analysis, runs };
}

describe("OpenHands fixtures in the shape of the samples", () => {
  for (const [file, version] of [["v0-trajectory.json", "V0 trajectory"], ["v1-events.jsonl", "V1 stream"]] as const) {
    it(`${version}: a loop, ping-pong, an unknown tool, compaction + repeat, parallel calls, a run without calls`, async () => {
      const { analysis, runs } = await yields(join(ROOT, file));
      const name = file.replace(/\.jsonl?$/, "");
      expect(runs).toEqual([
        [`${name}#1`, "openhands", 12, 0, ["generic_repeat", "warning", 11]],
        [`${name}#2`, "openhands", 12, 0, ["ping_pong", "warning", 10]],
        [`${name}#3`, "openhands", 12, 0, ["unknown_tool_repeat", "critical", 11]],
        [`${name}#4`, "openhands", 6, 1, ["compaction_loop_persisted", "abort", 6]],
        [`${name}#5`, "openhands", 5, 0, null],
        [`${name}#6`, "openhands", 0, 0, null],
      ]);
      const { read, used, ignored, skipped } = analysis.lines;
      expect([read, skipped]).toEqual([readFileSync(join(ROOT, file), "utf8").trimEnd().split("\n").length, 0]);
      expect(read).toBe(used + ignored);
      // V0 writes unknown tools as an error observation with no action: the call is rebuilt.
      expect(analysis.transcript.reconstructedCalls).toBe(version === "V0 trajectory" ? 12 : 0);
    });
  }

  it("V1: copied events are replayed once, bad lines are skipped with their reason and the rest is read", async () => {
    const { analysis, runs } = await yields(join(ROOT, "v1-copies-and-bad-lines.jsonl"));
    expect(runs).toEqual([["v1-copies-and-bad-lines#1", "openhands", 1, 0, null]]);
    expect(analysis.transcript.copies).toBe(2);
    expect(analysis.lines).toEqual({ read: 10, used: 3, ignored: 3, skipped: 4 });
    expect(analysis.diagnostics.map((d) => [d.line, d.reason])).toEqual([
      [7, "not valid JSON"],
      [8, "not a JSON object"],
      [9, 'ActionEvent without "tool_name" or "tool_call.name"'],
      [10, "truncated last line (not valid JSON)"],
    ]);
  });

  it("a V0 events folder is one conversation in event order; a delegate's events are its own session", async () => {
    const files = walk(FOLDER, (name) => name.endsWith(".json"));
    const units = groupOpenHandsFiles(files);
    expect(units).toHaveLength(1);
    expect(units[0]!.slice(0, 3).map((f) => f.split("/").pop())).toEqual(["0.json", "1.json", "2.json"]);
    const resolver = await createConfigResolver({});
    const analysis = await analyzeSerially(units, await loadXxhashDigest(), (agent) => resolver.effectiveFor(agent).config, {});
    const runs = analysis.runs.map((r) => [r.session, r.run, r.agent, r.calls, [...r.findings].map((f) => f.detector)[0] ?? null]);
    expect(runs).toEqual([
      ["d3l3gat3", "d3l3gat3#1", "openhands", 1, null],
      ["d3l3gat3/delegate-3", "d3l3gat3/delegate-3#1", "openhands/BrowsingAgent", 11, "generic_repeat"],
    ]);
    expect(analysis.lines).toMatchObject({ read: files.length, skipped: 0 });
  });
});

describe("sniffing", () => {
  const fixtures = join(process.cwd(), "fixtures");
  const others = [
    ...readdirSync(fixtures).filter((n) => n.endsWith(".jsonl")).map((n) => join(fixtures, n)),
    ...walk(join(fixtures, "openclaw"), (n) => n.endsWith(".jsonl")),
    ...walk(join(fixtures, "gateway"), (n) => n.endsWith(".log") || n.endsWith(".jsonl")),
  ];
  const ours = [...walk(ROOT, (n) => /\.jsonl?$/.test(n) && !n.endsWith(".looplens.json"))];

  it("OpenHands files are recognised from their first lines, whichever layout", async () => {
    expect(ours.length).toBeGreaterThan(20);
    for (const path of ours) {
      const choice = await adapterFor(await fileSource(path));
      expect("adapter" in choice && choice.adapter.format, path).toBe("openhands");
    }
  });

  it("no other format's fixture is taken for OpenHands, and no OpenHands file for another format", async () => {
    expect(others.length).toBeGreaterThan(10);
    for (const path of others) {
      const choice = await adapterFor(await fileSource(path));
      expect("adapter" in choice ? choice.adapter.format : "unusable", path).not.toBe("openhands");
    }
    const otherAdapters = ADAPTERS.filter((a) => a.format !== "openhands");
    for (const path of ours) expect(otherAdapters.filter((a) => a.sniff(samplesOf(path))).map((a) => a.format), path).toEqual([]);
  });
});
