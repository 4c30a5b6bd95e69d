/**
 * Prototype safety: `__proto__`, `constructor`, `prototype` (and other Object.prototype names) as
 * run ids, sessions, agents, tool names, argument/result/details keys or config keys are data like
 * any other name: nothing crashes, nothing is polluted, and behaviour is what the same input with
 * plain names gives.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { loopingTranscript, PROTO_NAMES, toJsonl } from "./arbitraries.js";
import { ADAPTERS, analyzeFile, runMain, tempDir } from "./harness.js";
import type { Analysis } from "../../src/pipeline/analysis.js";

const tmp = tempDir();
const events = ADAPTERS.find((a) => a.format === "events")!;

/** A bijective renaming of the special names, applied to JSON text (keys and string values alike). */
const renameText = (text: string) => PROTO_NAMES.reduce((out, name) => out.split(`"${name}"`).join(`"plain_${name}"`), text);
const renameName = (name: string) => ((PROTO_NAMES as readonly string[]).includes(name) ? `plain_${name}` : name);

function outcome(analysis: Analysis, rename: (name: string) => string = (n) => n): string[] {
  return analysis.runs.flatMap((run) => [
    `run ${rename(run.run)} ${run.session === null ? "-" : rename(run.session)} ${run.calls} ${run.compactions}`,
    ...[...run.findings].map((f) => [f.line, f.call, rename(f.tool), f.detector, f.level, f.count, f.afterStop].join(" ")),
  ]);
}

const lines = (events: object[]) => events.map((e) => JSON.stringify(e)).join("\n") + "\n";

afterAll(() => {
  // Nothing anywhere wrote through a prototype.
  const probe = {} as Record<string, unknown>;
  for (const key of ["enabled", "warningThreshold", "status", "x", "a", "loopDetection", "windowSize"]) expect(probe[key]).toBeUndefined();
});

describe("prototype names in events", () => {
  it("a transcript using them finds exactly what it finds with the names renamed", async () => {
    await fc.assert(
      fc.asyncProperty(loopingTranscript, async (transcript) => {
        const text = toJsonl(transcript);
        const hostile = await analyzeFile(tmp.write("hostile.jsonl", text), events);
        const plain = await analyzeFile(tmp.write("plain.jsonl", renameText(text)), events);
        expect(outcome(hostile, renameName)).toEqual(outcome(plain));
        expect(hostile.lines).toEqual(plain.lines);
      }),
      { numRuns: 60 },
    );
  });

  it("run __proto__, session hasOwnProperty, tool constructor: a polling loop is blocked at call 21", async () => {
    const transcript: object[] = [];
    for (let i = 1; i <= 22; i++) {
      transcript.push({ type: "tool_call", run: "__proto__", session: "hasOwnProperty", agent: "prototype", id: `toString${i}`, tool: "constructor", args: JSON.parse('{"__proto__":{"polluted":true}}') });
      transcript.push({ type: "tool_result", run: "__proto__", id: `toString${i}`, result: { content: [{ type: "text", text: "same" }], details: JSON.parse('{"__proto__":{"status":"completed"}}') } });
    }
    const result = await runMain(["analyze", tmp.write("names.jsonl", lines(transcript)), "--format", "ndjson"]);
    expect(result.stderr).toBe("");
    const findings = result.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(findings.map((f) => [f.run, f.session, f.agent, f.tool, f.call, f.detector, f.level])).toEqual([
      ...Array.from({ length: 10 }, (_, i) => ["__proto__", "hasOwnProperty", "prototype", "constructor", 11 + i, "generic_repeat", "warning"]),
      ["__proto__", "hasOwnProperty", "prototype", "constructor", 21, "generic_repeat", "critical"],
      ["__proto__", "hasOwnProperty", "prototype", "constructor", 22, "generic_repeat", "critical"],
    ]);
  });

  it("a __proto__ key is an ordinary argument: different values are different calls", async () => {
    const transcript: object[] = [];
    for (let i = 0; i < 12; i++) {
      transcript.push({ type: "tool_call", run: "r", id: `c${i}`, tool: "read", args: JSON.parse(`{"__proto__":{"n":${i % 2}}}`) });
      transcript.push({ type: "tool_result", run: "r", id: `c${i}`, result: { content: [{ type: "text", text: "same" }] } });
    }
    const analysis = await analyzeFile(tmp.write("args.jsonl", lines(transcript)), events);
    // Two alternating call signatures: a ping-pong, never a generic repeat of one signature.
    expect(new Set([...analysis.runs[0]!.findings].map((f) => f.detector))).toEqual(new Set(["ping_pong"]));
  });

  it("an inherited-looking status is not read: details {__proto__:{status:blocked,…}} is no veto", async () => {
    const veto = JSON.parse('{"__proto__":{"status":"blocked","deniedReason":"tool-loop"}}');
    const transcript = [
      { type: "tool_call", run: "r", id: "c1", tool: "exec", args: {} },
      { type: "tool_result", run: "r", id: "c1", result: { details: veto } },
    ];
    const analysis = await analyzeFile(tmp.write("veto.jsonl", lines(transcript)), events);
    expect(analysis.runs[0]!.recordedVetoes).toBe(0);
    expect(analysis.lines.used).toBe(2);
  });
});

describe("prototype names in config", () => {
  const loop = (() => {
    const transcript: object[] = [];
    for (let i = 0; i < 6; i++) {
      transcript.push({ type: "tool_call", run: "r", agent: "__proto__", id: `c${i}`, tool: "read", args: {} });
      transcript.push({ type: "tool_result", run: "r", id: `c${i}`, result: { content: [{ type: "text", text: "same" }] } });
    }
    return lines(transcript);
  })();

  async function firstWarningCall(configText: string, ...flags: string[]): Promise<{ call: number | undefined; stderr: string; status: number | null }> {
    const result = await runMain(["analyze", tmp.write("loop.jsonl", loop), "--config", tmp.write("c.json5", configText), "--format", "ndjson", ...flags]);
    const first = result.stdout.trim().split("\n").filter(Boolean)[0];
    return { call: first ? ((JSON.parse(first) as { call: number }).call) : undefined, stderr: result.stderr, status: result.status };
  }

  it("__proto__ and constructor blocks are unknown keys (a notice), never merged or inherited", async () => {
    const result = await firstWarningCall(`{
      __proto__: { warningThreshold: 2 },
      tools: { loopDetection: { enabled: true, __proto__: { warningThreshold: 2 }, constructor: { warningThreshold: 2 },
        detectors: { __proto__: { genericRepeat: false } }, postCompactionGuard: { constructor: 1 } } },
    }`);
    expect(result.status).toBe(0);
    expect(result.call).toBeUndefined(); // default warningThreshold 10: six calls find nothing
    expect(result.stderr).toMatch(/unknown key tools\.loopDetection\.__proto__; ignored/);
    expect(result.stderr).toMatch(/unknown key tools\.loopDetection\.constructor; ignored/);
    expect(result.stderr).toMatch(/unknown key tools\.loopDetection\.detectors\.__proto__; ignored/);
  });

  it("an agent with id __proto__ gets its own override, by the run's agent and by --agent", async () => {
    const config = `{ tools: { loopDetection: { enabled: true } },
      agents: { list: [ { id: "__proto__", tools: { loopDetection: { warningThreshold: 3 } } } ] } }`;
    expect((await firstWarningCall(config)).call).toBe(4);
    expect((await firstWarningCall(config, "--agent", "__proto__")).call).toBe(4);
    const other = await firstWarningCall(config, "--agent", "constructor");
    expect(other.call).toBeUndefined();
    expect(other.stderr).toMatch(/--agent constructor: the config has no loopDetection override/);
  });

  it("--set with prototype names is an unknown key (exit 2), never a write through a prototype", async () => {
    for (const key of ["__proto__.enabled", "constructor.prototype.enabled", "detectors.__proto__", "__proto__"]) {
      const result = await runMain(["analyze", tmp.write("loop.jsonl", loop), "--set", `${key}=true`]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^looplens: --set: unknown key /);
    }
  });
});
