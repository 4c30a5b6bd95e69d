/** `--profile auto`: the generation a run replays under, from the OpenClaw version its input records. */
import { describe, expect, it } from "vitest";
import { chooseProfile, NEWEST_FROM_VERSION, parseHarnessVersion } from "../../../src/core/profiles/choice.js";
import { call } from "../../helpers/events.js";
import { identityDigest, toLoopEvents } from "../../helpers/replay.js";
import { EventPreparer } from "../../../src/core/prepare.js";
import { Replayer } from "../../../src/core/replay.js";
import { selectProfiles } from "../../../src/core/profiles/selection.js";
import { resolveConfig } from "../../../src/core/config.js";
import { resolveNewestConfig } from "../../../src/core/profiles/newest/config.js";

describe("chooseProfile", () => {
  it("an explicit profile wins whatever the input records", () => {
    expect(chooseProfile("configurable", "2026.9.1").profile).toBe("configurable");
    expect(chooseProfile("newest", "2026.4.29").profile).toBe("newest");
  });

  it("auto: a build before the boundary replays as configurable", () => {
    expect(chooseProfile("auto", "2026.4.29")).toEqual({ profile: "configurable", reason: expect.stringContaining("2026.4.29") });
  });

  it("auto: a build from the boundary on replays as newest", () => {
    expect(chooseProfile("auto", NEWEST_FROM_VERSION.join(".")).profile).toBe("newest");
    expect(chooseProfile("auto", "2026.8.3").profile).toBe("newest");
    expect(chooseProfile("auto", "v2027.1.0-beta.2").profile).toBe("newest");
  });

  it("auto: no version, or one that does not parse, falls back to configurable and says why", () => {
    expect(chooseProfile("auto", undefined)).toEqual({ profile: "configurable", reason: "auto: the input records no OpenClaw version" });
    expect(chooseProfile("auto", "nightly").reason).toContain("not understood");
  });

  it("parses year.month.patch versions", () => {
    expect(parseHarnessVersion("2026.4.29")).toEqual([2026, 4, 29]);
    expect(parseHarnessVersion("2026.4")).toBeUndefined();
  });
});

describe("auto through the pipeline seam (run_start harnessVersion)", () => {
  function replayAuto(version: string | undefined) {
    const profiles = selectProfiles("auto", identityDigest);
    const preparer = new EventPreparer(profiles.hashingFor);
    const configFor = (_agent: string | null, profile: "configurable" | "newest") => {
      const blocks = [{ origin: "test", source: "looplens" as const, values: { enabled: true } }];
      return (profile === "newest" ? resolveNewestConfig(blocks) : resolveConfig(blocks)).config;
    };
    const replayer = new Replayer(configFor, profiles.profileFor);
    // Three variants of one error: argument churn exists only in the newest generation.
    const lines = [
      { type: "run_start", run: "r", ...(version !== undefined && { harnessVersion: version }) },
      ...Array.from({ length: 11 }, (_, i) => [call("r", `c${i}`, "read", { path: ["a", "b", "c"][i % 3] }), { type: "tool_result", run: "r", id: `c${i}`, tool: "read", error: "ENOENT" }]).flat(),
    ];
    for (const event of toLoopEvents(lines)) {
      const d = preparer.prepare(event);
      if (d.used) replayer.push(d.prepared);
    }
    return replayer.finish()[0]!;
  }

  it("a run recorded by a newest build is replayed under newest and says so", () => {
    const run = replayAuto("2026.8.1");
    expect(run.profile?.profile).toBe("newest");
    expect([...run.findings].map((f) => f.detector)).toContain("argument_churn");
  });

  it("a run recorded by 2026.4.29 is replayed under configurable", () => {
    const run = replayAuto("2026.4.29");
    expect(run.profile?.profile).toBe("configurable");
    expect([...run.findings].map((f) => f.detector)).not.toContain("argument_churn");
  });

  it("a run without a recorded version falls back to configurable", () => {
    expect(replayAuto(undefined).profile).toEqual({ profile: "configurable", reason: "auto: the input records no OpenClaw version" });
  });

  it("the default (no --profile) replays as before", () => {
    const profiles = selectProfiles(undefined, identityDigest);
    expect(profiles.profileFor("2026.8.1")).toEqual({ profile: "configurable", reason: "default" });
  });
});

