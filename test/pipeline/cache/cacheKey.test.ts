/**
 * What an entry is the result of (cacheKey.ts): every option that changes replay changes the key,
 * the options that only change how (progress, pacing, spilling) do not, and so does any change of
 * the build, the kind of result, the unit's files or their order; the effective configs are checked
 * apart, agent by agent.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../../src/core/config.js";
import type { AnalysisOptions } from "../../../src/pipeline/analysis.js";
import { loadByteHasher } from "../../../src/pipeline/cache/byteHash.js";
import { configsDigest, keyText, replayOptions } from "../../../src/pipeline/cache/cacheKey.js";

/** For each option that changes replay, a value other than the default. */
const CHANGED: Required<Pick<AnalysisOptions, "inputFormat" | "activeBranch" | "maxLineBytes" | "profile" | "timelines" | "canReadAgain" | "bytePayloads" | "closeRuns" | "lastFilePassBytes" | "lastOfUnit" | "completeLines">> = {
  inputFormat: "events",
  activeBranch: true,
  maxLineBytes: 1000,
  profile: "newest",
  timelines: true,
  canReadAgain: false,
  bytePayloads: false,
  closeRuns: false,
  lastFilePassBytes: 10,
  lastOfUnit: true,
  completeLines: true,
};

const key = (options: AnalysisOptions, unit = ["a.jsonl"], build = "1.0.0/1") => keyText("analyze", build, unit, options);

describe("cache keys", () => {
  it("change with every option that changes replay, and cover them all", () => {
    const base = key({});
    for (const [name, value] of Object.entries(CHANGED)) expect(key({ [name]: value }), name).not.toBe(base);
    expect(Object.keys(replayOptions({})).sort()).toEqual(Object.keys(CHANGED).sort());
  });

  it("do not change with how the analysis runs, nor with defaults written out", () => {
    const base = key({});
    expect(key({ spill: { dir: "/tmp/x", plainRunsInMemory: 1, findingsInMemory: 1 }, afterChunk: () => undefined })).toBe(base);
    expect(key({ maxLineBytes: 32 * 1024 * 1024, activeBranch: false, timelines: false })).toBe(base);
  });

  it("change with the build, the kind, the unit's files and their order", () => {
    const base = key({}, ["a.jsonl", "b.jsonl"]);
    expect(key({}, ["b.jsonl", "a.jsonl"])).not.toBe(base);
    expect(key({}, ["a.jsonl"])).not.toBe(base);
    expect(key({}, ["a.jsonl", "b.jsonl"], "1.0.1/1")).not.toBe(base);
    expect(keyText("sweep", "1.0.0/1", ["a.jsonl", "b.jsonl"], {})).not.toBe(base);
  });

  it("leave configs to a digest of each asked agent's effective config", async () => {
    const hasher = await loadByteHasher();
    const asked = [{ agent: "ops", profile: "configurable" as const }];
    const config = (warning: number) => () => ({ ...DEFAULT_CONFIG, warningThreshold: warning });
    expect(configsDigest(asked, config(5), hasher)).toBe(configsDigest(asked, config(5), hasher));
    expect(configsDigest(asked, config(5), hasher)).not.toBe(configsDigest(asked, config(6), hasher));
    const unset = () => DEFAULT_CONFIG;
    const off = () => ({ ...DEFAULT_CONFIG, enabled: false });
    expect(configsDigest(asked, unset, hasher)).not.toBe(configsDigest(asked, off, hasher));
    expect(configsDigest([], config(5), hasher)).toBe(configsDigest([], config(6), hasher));
  });
});
