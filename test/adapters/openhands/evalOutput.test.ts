/**
 * OpenHands evaluation output (`output.jsonl`, one instance per line): the project's fixture
 * (fixtures/agents/openhands-eval/, written by writeFixtures.ts), detection, what a line that is no
 * instance or a bad history entry gives, the history forms (events, pairs, null), instances written
 * twice, delegates, the line limit, gzip, and the CLI (`events`, `--input-format`, `explain`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { ADAPTERS, adapterFor } from "../../../src/adapters/registry.js";
import { fileSource } from "../../../src/adapters/io/sources.js";
import { MAX_SAMPLE_LINE } from "../../../src/adapters/adapter.js";
import { analyzePaths, comparable } from "../../helpers/inProcess.js";
import { runMain } from "../../helpers/cli.js";
import { evalInstance, evalOutput } from "./evalWriters.js";
import { samplesOf, walk } from "./fixtureFiles.js";
import { EVAL_FIXTURE } from "./fixtureSessions.js";
import { v0Events, type AbstractSession, type CallSpec, type Step } from "./openhandsWriters.js";

const FIXTURE = join("fixtures", "agents", "openhands-eval", "output.jsonl");

const failing: CallSpec = { tool: "execute_bash", args: { command: "make check" }, outcome: { kind: "error", text: "exit 2" } };
const loop = (n: number): Step[] => Array.from({ length: n }, () => ({ kind: "calls", calls: [failing], reversedResults: false }));
const looping = (id: string): AbstractSession => ({ id, runs: [loop(12)] });

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function tempFile(content: string | Buffer, name = "output.jsonl"): string {
  const dir = mkdtempSync(join(tmpdir(), "looplens-oh-eval-"));
  dirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Per run: [session, run, agent, calls, detectors of its findings]. */
async function runsOf(path: string, options = {}) {
  const analysis = await analyzePaths([path], options);
  return { analysis, runs: analysis.runs.map((r) => [r.session, r.run, r.agent, r.calls, [...r.findings].map((f) => `${f.detector}@${f.call}`)]) };
}

const line = (value: unknown) => JSON.stringify(value);

describe("the evaluation output fixture", () => {
  it("one session and one run per instance, the loop across the harness's 'continue' found, the failed instance a run without calls", async () => {
    const { analysis, runs } = await runsOf(FIXTURE);
    expect(runs).toEqual([
      ["django__django-11099", "django__django-11099#1", "openhands", 12, ["generic_repeat@11", "generic_repeat@12"]],
      ["astropy__astropy-12907", "astropy__astropy-12907#1", "openhands", 3, []],
      ["sympy__sympy-20590", "sympy__sympy-20590#1", "openhands", 0, []],
    ]);
    expect(analysis.files).toEqual([{ file: FIXTURE, format: "openhands-eval" }]);
    expect(analysis.lines).toEqual({ read: EVAL_FIXTURE.length, used: EVAL_FIXTURE.length, ignored: 0, skipped: 0 });
    expect(analysis.diagnostics).toEqual([]);
    // Every finding of an instance is at its line.
    expect(analysis.runs.flatMap((r) => [...r.findings].map((f) => `${f.file}:${f.line}`))).toEqual([`${FIXTURE}:1`, `${FIXTURE}:1`]);
  });

  it("is the file writeFixtures.ts writes", () => {
    expect(readFileSync(FIXTURE, "utf8")).toBe(evalOutput(EVAL_FIXTURE));
  });
});

async function formatOf(path: string): Promise<string> {
  const choice = await adapterFor(await fileSource(path));
  return "adapter" in choice ? choice.adapter.format : "unusable";
}

describe("detection", () => {
  it("the fixture is recognised, and no other adapter would take it", async () => {
    expect(await formatOf(FIXTURE)).toBe("openhands-eval");
    expect(ADAPTERS.filter((a) => a.format !== "openhands-eval" && a.sniff(samplesOf(FIXTURE))).map((a) => a.format)).toEqual([]);
  });

  it("no other fixture is taken for evaluation output", async () => {
    const others = walk("fixtures", (name) => /\.(jsonl|json|log)$/.test(name) && !name.endsWith(".looplens.json")).filter((p) => !p.includes("openhands-eval"));
    expect(others.length).toBeGreaterThan(30);
    for (const path of others) expect(await formatOf(path), path).not.toBe("openhands-eval");
  });

  it("from a first instance with an empty or null history (it failed), or after a damaged first line", async () => {
    const failed = evalInstance({ session: { id: "a__a-1", runs: [] }, error: "RuntimeError: no runtime" });
    expect(await formatOf(tempFile(line(failed) + "\n"))).toBe("openhands-eval");
    expect(await formatOf(tempFile(line({ ...failed, history: null }) + "\n"))).toBe("openhands-eval");
    expect(await formatOf(tempFile(`{"instance_id": "cut` + "\n" + line(failed) + "\n"))).toBe("openhands-eval");
  });

  it("not from other lines that carry an instance id (benchmark predictions, a history that is no list)", async () => {
    expect(await formatOf(tempFile(line({ instance_id: "a__a-1", model_patch: "diff", model_name_or_path: "m" }) + "\n"))).not.toBe("openhands-eval");
    expect(await formatOf(tempFile(line({ instance_id: "a__a-1", history: "none" }) + "\n"))).not.toBe("openhands-eval");
    expect(await formatOf(tempFile(line({ instance_id: "a__a-1", history: null }) + "\n"))).not.toBe("openhands-eval");
  });

  it("a file whose every line is over the sampling limit is recognised by how its lines begin", async () => {
    const big = (id: string) => line(evalInstance({ session: looping(id), history: [...v0Events(looping(id)), { id: 999, source: "agent", observation: "null", content: "x".repeat(MAX_SAMPLE_LINE), extras: {} }] }));
    const path = tempFile([big("b__b-1"), big("b__b-2")].join("\n") + "\n");
    expect(await formatOf(path)).toBe("openhands-eval");
    const { runs, analysis } = await runsOf(path);
    expect(runs.map((r) => [r[1], r[3]])).toEqual([
      ["b__b-1#1", 12],
      ["b__b-2#1", 12],
    ]);
    expect(analysis.lines).toEqual({ read: 2, used: 2, ignored: 0, skipped: 0 });
    // A huge line of another shape is not claimed: the file stays unrecognised as before.
    expect(await formatOf(tempFile(line({ data: "x".repeat(MAX_SAMPLE_LINE) }) + "\n"))).not.toBe("openhands-eval");
  });
});

describe("reading", () => {
  it("lines that are no instance are skipped with a diagnostic naming the line; the others are read", async () => {
    const path = tempFile(
      [line(evalInstance({ session: looping("c__c-1") })), "{not json", line({ history: [] }), line({ instance_id: "c__c-2", history: { events: [] } }), "", '["an array"]', line(evalInstance({ session: looping("c__c-3") }))].join("\n") + "\n",
    );
    const { analysis, runs } = await runsOf(path);
    expect(runs.map((r) => r[1])).toEqual(["c__c-1#1", "c__c-3#1"]);
    expect(analysis.lines).toEqual({ read: 7, used: 2, ignored: 1, skipped: 4 });
    expect(analysis.diagnostics.map((d) => [d.file, d.line, d.reason])).toEqual([
      [path, 2, "not valid JSON"],
      [path, 3, 'an evaluation output line without an "instance_id"; not an instance'],
      [path, 4, 'instance "c__c-2" whose "history" is an object, not an array of events'],
      [path, 6, "not a JSON object"],
    ]);
  });

  it("a bad event in a history is a diagnostic at the instance's line naming the entry; the rest of the history is read", async () => {
    const events = v0Events(looping("d__d-1"));
    events.splice(5, 0, 42 as unknown as Record<string, unknown>, { id: 500, source: "agent", action: "run", tool_call_metadata: { tool_call_id: "t" }, args: {} });
    const path = tempFile(line(evalInstance({ session: looping("d__d-0") })) + "\n" + line(evalInstance({ session: looping("d__d-1"), history: events })) + "\n");
    const { analysis, runs } = await runsOf(path);
    expect(runs.map((r) => [r[1], r[3], r[4]])).toEqual([
      ["d__d-0#1", 12, ["generic_repeat@11", "generic_repeat@12"]],
      ["d__d-1#1", 12, ["generic_repeat@11", "generic_repeat@12"]],
    ]);
    expect(analysis.diagnostics.map((d) => [d.line, d.reason])).toEqual([
      [2, "history[5]: not a JSON object; skipped"],
      [2, 'history[6]: tool_call_metadata without a "function_name"; skipped'],
    ]);
    expect(analysis.lines).toEqual({ read: 2, used: 2, ignored: 0, skipped: 0 });
  });

  it("a history of [action, observation] pairs (older benchmarks) gives what the event list gives", async () => {
    const session = looping("e__e-1");
    const events = v0Events(session);
    const pairs: unknown[] = [];
    for (let i = 0; i < events.length; i += 2) pairs.push(events.slice(i, i + 2));
    const flat = await analyzePaths([tempFile(line(evalInstance({ session })) + "\n")]);
    const paired = await analyzePaths([tempFile(line(evalInstance({ session, history: pairs })) + "\n")]);
    expect(comparable(paired)).toEqual(comparable(flat));
    expect(paired.runs[0]!.findings.length).toBeGreaterThan(0);
  });

  it("a null history (the instance failed before its agent ran) is a run without calls", async () => {
    const failed = { ...evalInstance({ session: { id: "f__f-1", runs: [] }, error: "Timeout" }), history: null };
    const { analysis, runs } = await runsOf(tempFile(line(failed) + "\n"));
    expect(runs).toEqual([["f__f-1", "f__f-1#1", "openhands", 0, []]]);
    expect(analysis.lines).toEqual({ read: 1, used: 1, ignored: 0, skipped: 0 });
  });

  it("an instance written again further down (outputs joined) is its session's next run, never the same run twice", async () => {
    const { runs } = await runsOf(tempFile(evalOutput([{ session: looping("g__g-1") }, { session: { id: "g__g-2", runs: [loop(2)] } }, { session: looping("g__g-1") }])));
    expect(runs.map((r) => [r[0], r[1], r[3]])).toEqual([
      ["g__g-1", "g__g-1#1", 12],
      ["g__g-2", "g__g-2#1", 2],
      ["g__g-1", "g__g-1#2", 12],
    ]);
  });

  it("every user message after the first is the harness's reply: the calls on both sides of it are one run", async () => {
    // Split into runs of 5, the loop would reach no threshold.
    const session: AbstractSession = { id: "h__h-1", runs: [loop(5), loop(5), loop(5)] };
    const { runs } = await runsOf(tempFile(evalOutput([{ session }])));
    expect(runs).toEqual([["h__h-1", "h__h-1#1", "openhands", 15, ["generic_repeat@11", "generic_repeat@12", "generic_repeat@13", "generic_repeat@14", "generic_repeat@15"]]]);
  });

  it("a V0 delegate in a history is a session of its own, as in a conversation", async () => {
    const meta = (n: number) => ({ function_name: "execute_bash", tool_call_id: `toolu_d${n}`, model_response: { id: `resp-d${n}`, choices: [] }, total_calls_in_response: 1 });
    const delegateMeta = { function_name: "delegate_to_browsing_agent", tool_call_id: "toolu_del", model_response: { id: "resp-del", choices: [] }, total_calls_in_response: 1 };
    const history: Array<Record<string, unknown>> = [
      { id: 0, source: "user", action: "message", args: { content: "task" } },
      { id: 1, source: "agent", action: "delegate", tool_call_metadata: delegateMeta, args: { agent: "BrowsingAgent", inputs: {} } },
      { id: 2, source: "user", action: "message", args: { content: "TASK: look" } },
    ];
    for (let i = 0; i < 11; i++) {
      history.push({ id: 3 + 2 * i, source: "agent", action: "run", tool_call_metadata: meta(i), args: { command: "curl x.test" } });
      history.push({ id: 4 + 2 * i, source: "agent", cause: 3 + 2 * i, observation: "run", content: "timeout", extras: { metadata: { exit_code: 28 } }, success: false });
    }
    history.push({ id: 30, source: "agent", cause: 1, observation: "delegate", tool_call_metadata: delegateMeta, content: "done", extras: {} });
    const { runs } = await runsOf(tempFile(line(evalInstance({ session: { id: "i__i-1", runs: [] }, history })) + "\n"));
    expect(runs).toEqual([
      ["i__i-1", "i__i-1#1", "openhands", 1, []],
      ["i__i-1/delegate-1", "i__i-1/delegate-1#1", "openhands/BrowsingAgent", 11, ["generic_repeat@11"]],
    ]);
  });

  it("a line over the line limit is skipped with a diagnostic; the other instances are read", async () => {
    const small = line(evalInstance({ session: { id: "j__j-1", runs: [loop(1)] } }));
    const large = line(evalInstance({ session: looping("j__j-2") }));
    const limit = small.length + 100;
    expect(large.length).toBeGreaterThan(limit);
    const { analysis, runs } = await runsOf(tempFile([small, large, small.replace("j__j-1", "j__j-3")].join("\n") + "\n"), { maxLineBytes: limit });
    expect(runs.map((r) => r[1])).toEqual(["j__j-1#1", "j__j-3#1"]);
    expect(analysis.lines).toEqual({ read: 3, used: 2, ignored: 0, skipped: 1 });
    expect(analysis.diagnostics.map((d) => [d.line, d.reason.replace(/;.*/, "")])).toEqual([[2, `line too long (${large.length} bytes, over the ${limit}-byte limit`]]);
  });

  it("gzip: output.jsonl.gz reads as output.jsonl", async () => {
    const plain = await analyzePaths([FIXTURE]);
    const gz = await analyzePaths([tempFile(gzipSync(readFileSync(FIXTURE)), "output.jsonl.gz")]);
    expect(comparable(gz)).toEqual(comparable(plain));
    expect(gz.files[0]!.format).toBe("openhands-eval");
    expect(gz.lines).toEqual(plain.lines);
  });
});

describe("the CLI", () => {
  it("events prints each instance's canonical events, located at its line", async () => {
    const { status, stdout } = await runMain(["events", FIXTURE]);
    expect(status).toBe(0);
    const events = stdout.trimEnd().split("\n").map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(events.filter((e) => e.type === "run_start").map((e) => [e.run, e.session, e.agent, e.line])).toEqual([
      ["django__django-11099#1", "django__django-11099", "openhands", 1],
      ["astropy__astropy-12907#1", "astropy__astropy-12907", "openhands", 2],
      ["sympy__sympy-20590#1", "sympy__sympy-20590", "openhands", 3],
    ]);
    expect(events.filter((e) => e.type === "tool_call").map((e) => e.line)).toEqual([...Array(12).fill(1), 2, 2, 2]);
    expect(events.filter((e) => e.type === "tool_call").every((e) => e.format === "openhands")).toBe(true);
    expect(events.filter((e) => e.type === "tool_result")).toHaveLength(15);
    // The run is dated by the instance's first event (OpenHands' zoneless time, read as UTC).
    expect(events[0]!.ts).toBe("2025-01-20T20:29:00.000000Z");
    // --input-format names the format and gives the same events.
    const forced = await runMain(["events", "--input-format", "openhands-eval", FIXTURE]);
    expect([forced.status, forced.stdout]).toEqual([0, stdout]);
  });

  it("explain file:line of an instance explains each of its findings; --call picks one; another instance's line names the nearest", async () => {
    const all = await runMain(["explain", "-f", "json", `${FIXTURE}:1`]);
    expect(all.status).toBe(0);
    const explained = (JSON.parse(all.stdout) as { findings: Array<{ call: number; run: string }> }).findings;
    expect(explained.map((f) => [f.run, f.call])).toEqual([
      ["django__django-11099#1", 11],
      ["django__django-11099#1", 12],
    ]);
    const one = await runMain(["explain", "-f", "json", `${FIXTURE}:1`, "--call", "12"]);
    expect((JSON.parse(one.stdout) as { findings: Array<{ call: number }> }).findings.map((f) => f.call)).toEqual([12]);
    const healthy = await runMain(["explain", `${FIXTURE}:2`]);
    expect(healthy.status).toBe(2);
    expect(healthy.stderr).toContain(`${FIXTURE}:2 is not a finding; nearest: ${FIXTURE}:1 (run django__django-11099#1, call 11, generic_repeat warning)`);
  });
});
