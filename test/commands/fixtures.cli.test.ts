/** Each bundled fixture replayed through the real CLI, with its exact findings. */
import { describe, expect, it } from "vitest";
import { ndjsonFindings, runCli } from "../helpers/cli.js";

type Row = [run: string, call: number, detector: string, level: string, count: number, afterStop: boolean];

function findings(file: string, ...extra: string[]): Row[] {
  const result = runCli(["analyze", file, "--format", "ndjson", ...extra]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return ndjsonFindings(result.stdout).map((f) => [
    f.run as string,
    f.call as number,
    f.detector as string,
    f.level as string,
    f.count as number,
    f.afterStop as boolean,
  ]);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("bundled fixtures through the CLI", () => {
  it("poll-loop: warnings at 11-20, a block at 21, and the recorded veto keeps the streak at 20", () => {
    expect(findings("fixtures/poll-loop.jsonl")).toEqual([
      ...range(11, 20).map((call): Row => ["poll-1", call, "known_poll_no_progress", "warning", call - 1, false]),
      ["poll-1", 21, "known_poll_no_progress", "critical", 20, false],
      ["poll-1", 22, "known_poll_no_progress", "critical", 20, true],
    ]);
  });

  it("ping-pong: warnings from the 10th alternating call, a block at 20 with stable results", () => {
    expect(findings("fixtures/ping-pong.jsonl")).toEqual([
      ...range(10, 19).map((call): Row => ["pingpong-1", call, "ping_pong", "warning", call, false]),
      ["pingpong-1", 20, "ping_pong", "critical", 20, false],
    ]);
  });

  it("unknown-tool: blocked on the 11th call after 10 identical unavailable-tool failures", () => {
    expect(findings("fixtures/unknown-tool.jsonl")).toEqual([["unknown-1", 11, "unknown_tool_repeat", "critical", 10, false]]);
  });

  it("compaction-loop: aborts on the third identical outcome after compaction; the recovering run does not", () => {
    expect(findings("fixtures/compaction-loop.jsonl")).toEqual([["compact-stuck", 6, "compaction_loop_persisted", "abort", 3, false]]);
  });

  it("generic-repeat: warns on repeats whose outcomes change, never blocks", () => {
    expect(findings("fixtures/generic-repeat.jsonl")).toEqual([
      ["exec-retry", 11, "generic_repeat", "warning", 10, false],
      ["exec-retry", 12, "generic_repeat", "warning", 11, false],
    ]);
  });

  it("healthy: nothing", () => {
    expect(findings("fixtures/healthy.jsonl")).toEqual([]);
  });

  it("a folder is read recursively in sorted order, and thresholds can be changed with --set", () => {
    // --quiet: the Gateway-log fixture holds two deliberately bad lines (reported on stderr).
    const rows = findings("fixtures", "--set", "criticalThreshold=12", "--quiet");
    // Files in sorted order; the sessions of a transcript store (`<db>#<id>`) in the order they began.
    // (A folder's entries are sorted by name, so `openclaw/` comes before `openclaw-store/`.)
    const files = ndjsonFindings(runCli(["analyze", "fixtures", "-f", "ndjson"]).stdout).map((f) => String(f.file).split("#")[0]!);
    const bySegments = (a: string, b: string) => {
      const [x, y] = [a.split("/"), b.split("/")];
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return x.length - y.length;
    };
    expect([...files]).toEqual([...files].sort(bySegments));
    expect(rows.filter((r) => r[0] === "poll-1" && r[3] === "critical").map((r) => r[1])).toEqual(range(13, 22));
  });
});
