/**
 * `looplens explain` through the CLI (in-process): for each detector, the window it prints for a
 * finding shows the streak the detector counted — the counted calls add up to the finding's count,
 * their letters show which hashes were equal — and places that hold no finding are exit 2.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ndjsonFindings, runMain } from "../helpers/cli.js";
import { call, failure, repeat, result, textResult, toJsonl, type EventLine } from "../helpers/events.js";
import { tempDir } from "../helpers/tempDir.js";

interface Row {
  call: number;
  line: number;
  tool: string;
  args: string;
  result: string | null;
  counted: boolean;
  count: number | null;
  judged: boolean;
  argsPreview: string | null;
  outcomePreview: string | null;
}
interface Explained {
  detector: string;
  level: string;
  count: number;
  call: number;
  line: number;
  threshold: { name: string; value: number };
  window: { kind: string; size: number; counted: number; calls: Row[] };
}

function written(lines: readonly EventLine[], name: string): string {
  const path = join(tempDir("looplens-explain-"), name);
  writeFileSync(path, toJsonl(lines));
  return path;
}

/** The first finding of this detector (and level) as analyze reports it. */
async function findingOf(file: string, detector: string, options: string[] = [], level?: string) {
  const out = await runMain(["analyze", "-f", "ndjson", ...options, file]);
  const found = ndjsonFindings(out.stdout).find((f) => f.detector === detector && (level === undefined || f.level === level));
  expect(found, `${detector} in ${file}`).toBeDefined();
  return found as { line: number; call: number; run: string; count: number };
}

async function explainJson(args: string[]): Promise<Explained[]> {
  const out = await runMain(["explain", "-f", "json", ...args]);
  expect(out.stderr).toBe("");
  expect(out.status).toBe(0);
  return (JSON.parse(out.stdout) as { findings: Explained[] }).findings;
}

const counted = (e: Explained) => e.window.calls.filter((row) => row.counted);
const judged = (e: Explained) => e.window.calls.filter((row) => row.judged);

/** What every window must show: counted calls adding up to the count, numbered as it climbed. */
function expectStreak(e: Explained, finding: { count: number; call: number }) {
  expect([e.count, e.call]).toEqual([finding.count, finding.call]);
  expect(e.window.counted).toBe(e.count);
  expect(counted(e).length).toBe(e.count);
  expect(counted(e).map((row) => row.count)).toEqual(Array.from({ length: e.count }, (_, i) => i + 1));
  expect(e.count).toBeGreaterThanOrEqual(e.threshold.value);
}

const breakerInput = [...repeat(32, "r", "exec", { command: "make" }, textResult("error: build failed")), call("r", "last", "exec", { command: "make" })];
const churnInput = Array.from({ length: 12 }, (_, i) => [call("r", `c${i}`, "read", { path: ["a", "b", "c"][i % 3] }), failure("r", `c${i}`, "read", "ENOENT: no such file")]).flat();

describe("looplens explain, per detector", () => {
  it("generic_repeat: the repeated calls, all with the judged call's arguments", async () => {
    const finding = await findingOf("fixtures/generic-repeat.jsonl", "generic_repeat");
    const [e] = await explainJson([`fixtures/generic-repeat.jsonl:${finding.line}`]);
    expectStreak(e!, finding);
    expect(new Set(counted(e!).map((row) => row.args))).toEqual(new Set(["A"]));
    expect(judged(e!).map((row) => [row.call, row.args])).toEqual([[finding.call, "A"]]);
  });

  it("known_poll_no_progress: the polls that came back unchanged (one result letter)", async () => {
    const finding = await findingOf("fixtures/poll-loop.jsonl", "known_poll_no_progress", [], "critical");
    const [e] = await explainJson([`fixtures/poll-loop.jsonl:${finding.line}`]);
    expectStreak(e!, finding);
    expect(new Set(counted(e!).map((row) => `${row.args}${row.result}`))).toEqual(new Set(["Ax"]));
  });

  it("ping_pong: two argument letters alternating up to the judged call, which the count includes", async () => {
    const finding = await findingOf("fixtures/ping-pong.jsonl", "ping_pong", [], "critical");
    const [e] = await explainJson([`fixtures/ping-pong.jsonl:${finding.line}`]);
    expect(e!.count).toBe(finding.count);
    const streak = e!.window.calls.filter((row) => row.counted);
    expect(streak.length).toBe(finding.count);
    expect(streak.at(-1)!.judged).toBe(true);
    expect(streak.at(-1)!.count).toBe(finding.count);
    streak.forEach((row, i) => expect(row.args).toBe((streak.length - 1 - i) % 2 === 0 ? "A" : "B"));
  });

  it("unknown_tool_repeat: the failed calls naming one unavailable tool, one error", async () => {
    const finding = await findingOf("fixtures/unknown-tool.jsonl", "unknown_tool_repeat");
    const [e] = await explainJson([`fixtures/unknown-tool.jsonl:${finding.line}`]);
    expectStreak(e!, finding);
    expect(new Set(counted(e!).map((row) => row.result))).toEqual(new Set(["x"]));
  });

  it("global_circuit_breaker: the no-progress streak, with the generic detector off", async () => {
    const file = written(breakerInput, "breaker.jsonl");
    const options = ["--set", "detectors.genericRepeat=false"];
    const finding = await findingOf(file, "global_circuit_breaker", options);
    const [e] = await explainJson([`${file}:${finding.line}`, ...options]);
    expect(e!.detector).toBe("global_circuit_breaker");
    expectStreak(e!, finding);
    expect(new Set(counted(e!).map((row) => `${row.args}${row.result}`))).toEqual(new Set(["Ax"]));
  });

  it("compaction_loop_persisted: the guard's window, each outcome identical", async () => {
    const finding = await findingOf("fixtures/compaction-loop.jsonl", "compaction_loop_persisted");
    const [e] = await explainJson([`fixtures/compaction-loop.jsonl:${finding.line}`]);
    expect(e!.window.kind).toBe("guard");
    expectStreak(e!, finding);
    expect(e!.window.size).toBe(e!.threshold.value);
    expect(new Set(counted(e!).map((row) => `${row.args}${row.result}`))).toEqual(new Set(["Ax"]));
  });

  it("argument_churn (--profile newest): several argument variants, one outcome", async () => {
    const file = written(churnInput, "churn.jsonl");
    const finding = await findingOf(file, "argument_churn", ["--profile", "newest"]);
    const [e] = await explainJson([`${file}:${finding.line}`, "--profile", "newest"]);
    expect(e!.detector).toBe("argument_churn");
    expectStreak(e!, finding);
    expect(new Set(counted(e!).map((row) => row.args)).size).toBe(3);
    expect(new Set(counted(e!).map((row) => row.result))).toEqual(new Set(["x"]));
  });
});

describe("looplens explain, places and formats", () => {
  it("--run/--call find the same finding as its file:line", async () => {
    const finding = await findingOf("fixtures/poll-loop.jsonl", "known_poll_no_progress", [], "critical");
    const byLine = await explainJson([`fixtures/poll-loop.jsonl:${finding.line}`]);
    const byCall = await explainJson(["fixtures/poll-loop.jsonl", "--run", finding.run, "--call", String(finding.call)]);
    expect(byCall).toEqual(byLine);
  });

  it("the table shows each counted call, the count reaching its threshold, and previews", async () => {
    const finding = await findingOf("fixtures/poll-loop.jsonl", "known_poll_no_progress", [], "critical");
    const out = await runMain(["explain", `fixtures/poll-loop.jsonl:${finding.line}`]);
    expect(out.status).toBe(0);
    const rows = out.stdout.split("\n");
    expect(rows.filter((row) => /^\s*● \d/.test(row)).length).toBe(finding.count);
    expect(out.stdout).toContain(`${finding.count} ≥ 20`);
    expect(out.stdout).toContain("criticalThreshold=20");
    expect(out.stdout).toContain("commandId=build-42");
  });

  it("a place without a finding is exit 2, naming the nearest findings", async () => {
    const finding = await findingOf("fixtures/poll-loop.jsonl", "known_poll_no_progress", [], "critical");
    const out = await runMain(["explain", `fixtures/poll-loop.jsonl:${finding.line - 1}`]);
    expect(out.status).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(new RegExp(`poll-loop\\.jsonl:${finding.line - 1} is not a finding; nearest: .*poll-loop\\.jsonl:${finding.line} `));
  });

  it("without a line or --call, and with a bad line, a usage error", async () => {
    expect((await runMain(["explain", "fixtures/poll-loop.jsonl"])).stderr).toMatch(/say which finding/);
    expect((await runMain(["explain", "fixtures/poll-loop.jsonl:0"])).status).toBe(2);
    expect((await runMain(["explain", "fixtures/poll-loop.jsonl", "--call", "x"])).status).toBe(2);
  });

  it("explains a run as it explains the run alone when another run ends in the middle of it", async () => {
    // Run "b" appears first and ends (it is handed out, with its previews) while run "a" is open:
    // after a's 11th call, which has its finding, and before that call's result.
    const loop = repeat(12, "a", "read", { path: "/same" }, textResult("same"));
    const other = [{ type: "run_start", run: "b" }, call("b", "x", "exec", { command: "ls" }), result("b", "x", "exec", textResult("ok")), { type: "run_end", run: "b" }];
    const mixed = written([other[0]!, other[1]!, ...loop.slice(0, 21), other[2]!, other[3]!, ...loop.slice(21)], "mixed.jsonl");
    const alone = written(loop, "alone.jsonl");
    const [inAlone, inMixed] = [await findingOf(alone, "generic_repeat"), await findingOf(mixed, "generic_repeat")];
    expect(inMixed.call).toBe(11);
    const [fromAlone] = await explainJson([alone, "--run", "a", "--call", String(inAlone.call)]);
    const [fromMixed] = await explainJson([mixed, "--run", "a", "--call", String(inMixed.call)]);
    const shape = (e: Explained) => e.window.calls.map(({ call: n, args, result: r, counted: c, argsPreview, outcomePreview }) => [n, args, r, c, argsPreview, outcomePreview]);
    expect(fromMixed!.window.calls.every((row) => row.argsPreview === "path=/same" && row.outcomePreview === "same")).toBe(true);
    expect(shape(fromMixed!)).toEqual(shape(fromAlone!));
  });

  it("names only the nearest findings of the run asked for, however many runs precede it", async () => {
    const runs = Array.from({ length: 40 }, (_, r) => [{ type: "run_start", run: `r${r}` }, ...repeat(11, `r${r}`, "read", { path: "/same" }, textResult("same")), { type: "run_end", run: `r${r}` }]).flat();
    const file = written(runs, "many.jsonl");
    const out = await runMain(["explain", `${file}:1`, "--run", "r7"]);
    expect(out.status).toBe(2);
    const named = [...out.stderr.matchAll(/\(run (\S+), call (\d+)/g)].map((m) => [m[1], Number(m[2])]);
    expect(named).toEqual([["r7", 11]]);
  });

  it("applies --max-line-bytes, and --strict makes a skipped line exit 2", async () => {
    const loop = repeat(12, "a", "read", { path: "/same" }, textResult("same"));
    const file = written([{ type: "run_start", run: "a", note: "x".repeat(5000) }, ...loop], "long.jsonl");
    const finding = await findingOf(file, "generic_repeat");
    const lenient = await runMain(["explain", `${file}:${finding.line}`, "--max-line-bytes", "1000"]);
    expect(lenient.status).toBe(0);
    expect(lenient.stderr).toMatch(/long\.jsonl:1: .*1000/);
    const strict = await runMain(["explain", `${file}:${finding.line}`, "--max-line-bytes", "1000", "--strict"]);
    expect(strict.status).toBe(2);
    expect(strict.stdout).toBe(""); // an input that ends in exit 2 prints no explanation
    expect(lenient.stdout).toContain(`${file}:${finding.line}`);
    expect((await runMain(["explain", `${file}:${finding.line}`, "--strict"])).status).toBe(0);
  });

  it("hostile arguments are sanitised in the table", async () => {
    const lines = repeat(11, "r", "exec", { command: "ls \u001b[31mred\u001b[0m \u202e" }, textResult("out \u0007"));
    const file = written(lines, "hostile.jsonl");
    const finding = await findingOf(file, "generic_repeat");
    const out = await runMain(["explain", `${file}:${finding.line}`]);
    expect(out.status).toBe(0);
    expect(out.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(out.stdout).toContain("ls red");
  });
});
