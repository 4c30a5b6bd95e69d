/**
 * A run's identity through the run writer (shared/runIdentities.ts): gathered per run, handed on
 * after the run's events (when the next run starts, or the file is through), first and last times
 * as its start and end.
 */
import { describe, expect, it } from "vitest";
import { LineTally, UnitHistory, type AdapterContext } from "../../../src/adapters/adapter.js";
import { RunWriter } from "../../../src/adapters/shared/runWriter.js";
import type { LoopEvent } from "../../../src/core/events.js";
import type { RunFacts } from "../../../src/core/runIdentity.js";

function context(withFacts = true) {
  const log: string[] = [];
  const facts: Array<[string, RunFacts]> = [];
  const ctx: AdapterContext = {
    tally: new LineTally(),
    unit: new UnitHistory(["f"], false),
    options: { closeRuns: true },
    emit(event) {
      log.push(`${(event as LoopEvent).type} ${(event as LoopEvent).run}`);
      return { used: true };
    },
    ...(withFacts && {
      facts: (run: string, told: RunFacts) => {
        log.push(`facts ${run}`);
        facts.push([run, told]);
      },
    }),
  };
  return { ctx, log, facts };
}

const owner = () => ({ session: "s", agent: "a" });
const at = (line: number) => ({ file: "f", line });
const call = { id: "c1", tool: "read", args: {}, form: "text" } as const;

describe("run identity through the writer", () => {
  it("hands a run's facts on after its events and before its final end, its first and last times as start and end", () => {
    const { ctx, log, facts } = context();
    const writer = new RunWriter(ctx, owner);
    writer.startRun("r1", at(1), { time: "2026-05-01T09:00:00.000Z", announce: "now", facts: { prompt: "fix the test", channel: "cron" } });
    writer.call("r1", at(2), call);
    writer.facts("r1", { model: "gpt-5", outcome: { kind: "stopped", reason: "toolUse" } });
    writer.lineTime("r1", Date.parse("2026-05-01T09:01:30.000Z"));
    writer.facts("r1", { model: "gpt-5-mini", outcome: { kind: "stopped", reason: "stop" } });
    writer.startRun("r2", at(3), { announce: "now" });
    expect(log).toEqual(["run_start r1", "tool_call r1", "facts r1", "run_end r1", "run_start r2"]);
    expect(facts).toEqual([
      [
        "r1",
        {
          prompt: "fix the test",
          channel: "cron",
          // The last model and the last stop reason stand; the first prompt does.
          model: "gpt-5-mini",
          outcome: { kind: "stopped", reason: "stop" },
          startedAt: "2026-05-01T09:00:00.000Z",
          endedAt: "2026-05-01T09:01:30.000Z",
        },
      ],
    ]);
  });

  it("hands on at the end of the file what is left, a silent run announced first", () => {
    const { ctx, log, facts } = context();
    const writer = new RunWriter(ctx, owner);
    writer.startRun("r1", at(1), { time: 1_777_000_000_000, announce: "ifSilent", facts: { prompt: "hello" } });
    writer.endFile();
    expect(log).toEqual(["run_start r1", "facts r1"]);
    expect(facts[0]![1]).toEqual({ prompt: "hello", startedAt: new Date(1_777_000_000_000).toISOString(), endedAt: new Date(1_777_000_000_000).toISOString() });
    writer.endFile();
    expect(facts).toHaveLength(1); // handed on once
  });

  it("keeps nothing when nothing reports runs (looplens events)", () => {
    const { ctx, log } = context(false);
    const writer = new RunWriter(ctx, owner);
    writer.startRun("r1", at(1), { announce: "now", facts: { prompt: "x" } });
    writer.facts("r1", { model: "m" });
    writer.endFile();
    expect(log).toEqual(["run_start r1"]);
  });
});
