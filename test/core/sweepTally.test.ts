/**
 * Sweep figures folded run by run, with units voided and read again and several passes, equal the
 * figures computed from whole lists of runs per config (how sweep computed them when it held every
 * run under every config).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ReplayedRun, RunStop } from "../../src/core/findings.js";
import { ConfigTally, runVerdict, verdictChange, type Labels, type RunVerdict } from "../../src/core/sweepStats.js";
import { SweepTally } from "../../src/core/sweepTally.js";

/** A run's outcome under one config: 0 ok, 1 warned, 2 blocked, 3 aborted, with the stop's call. */
type Outcome = { readonly kind: 0 | 1 | 2 | 3; readonly call: number };

function report(id: string, agent: string | null, outcome: Outcome): ReplayedRun {
  const firstStop: RunStop | null = outcome.kind >= 2 ? { kind: outcome.kind === 3 ? "abort" : "block", call: outcome.call } : null;
  const warning = {
    run: id,
    agent,
    session: null,
    file: "f.jsonl",
    line: 1,
    call: 1,
    tool: "t",
    detector: "generic_repeat" as const,
    level: "warning" as const,
    count: 1,
    threshold: { name: "warningThreshold" as const, value: 1 },
    afterStop: false,
    message: "",
    argsHash: "t:x",
  };
  const findings = outcome.kind === 1 || outcome.call % 2 === 0 ? [warning] : [];
  return { run: id, agent, session: null, file: "f.jsonl", calls: 40, compactions: 0, findings, firstStop, guardWindows: [], recordedVetoes: 0 };
}

/** The figures of one config from the whole list of its verdicts (the model). */
function modelRow(verdicts: readonly RunVerdict[], before: readonly RunVerdict[] | undefined, labels: Labels | undefined) {
  const tally = new ConfigTally();
  for (const v of verdicts) tally.add(v, labels);
  const changed = before ? verdicts.flatMap((now, i) => verdictChange(before[i]?.kind, now) ?? []) : [];
  return { stats: tally.stats(), changed, ...(labels && { score: tally.score() }) };
}

const outcome = fc.record({ kind: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const), call: fc.integer({ min: 1, max: 9 }) });

describe("SweepTally", () => {
  it("folds runs unit by unit, through voided units and passes, into the figures of whole lists", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.array(fc.record({ agent: fc.constantFrom(null, "main", "ops"), outcomes: fc.array(outcome, { minLength: 12, maxLength: 12 }) }), { maxLength: 6 }), { maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        fc.option(fc.constantFrom("main", "ops", "nobody"), { nil: undefined }),
        fc.boolean(),
        (configs, passCount, units, voided, agentFilter, labelled) => {
          const runs = units.flat().map((run, i) => ({ ...run, id: `r${i}` }));
          const labels: Labels | undefined = labelled ? { stuck: new Set(runs.filter((_, i) => i % 3 === 0).map((r) => r.id)), healthy: undefined } : undefined;
          const select = agentFilter === undefined ? undefined : (run: { agent: string | null }) => run.agent === agentFilter;
          const passes = Array.from({ length: passCount }, () => configs);
          const tally = new SweepTally({ passes, ...(labels && { labels }), ...(select && { select }), watch: (run) => run.agent === "main" });
          // The outcome of run r under config c of pass p.
          const under = (run: (typeof runs)[number], pass: number, config: number) => run.outcomes[(pass * configs + config) % 12]!;
          let first = 0;
          for (let pass = 0; pass < passCount; pass++) {
            if (pass > 0) tally.nextPass();
            first = 0;
            units.forEach((unit, u) => {
              const ofUnit = runs.slice(first, first + unit.length);
              first += unit.length;
              const give = () => ofUnit.forEach((run) => tally.add(Array.from({ length: configs }, (_, c) => report(run.id, run.agent, under(run, pass, c)))));
              if (voided[u]) {
                // Half the unit, then it is read again from its start.
                ofUnit.slice(0, Math.ceil(ofUnit.length / 2)).forEach((run) => tally.add(Array.from({ length: configs }, (_, c) => report(run.id, run.agent, under(run, pass, c)))));
                tally.voidUnit();
              }
              give();
              tally.commitUnit();
            });
          }
          const figures = tally.figures();
          const selected = runs.filter((run) => !select || select(run));
          const rows = [];
          let before: RunVerdict[] | undefined;
          for (let pass = 0; pass < passCount; pass++) {
            for (let c = 0; c < configs; c++) {
              const verdicts = selected.map((run) => runVerdict(report(run.id, run.agent, under(run, pass, c))));
              rows.push(modelRow(verdicts, before, labels));
              before = verdicts;
            }
          }
          expect(figures.rows).toEqual(rows);
          expect(figures.runs).toBe(runs.length);
          expect(figures.selected).toBe(selected.length);
          expect(tally.watched).toBe(runs.filter((run) => run.agent === "main").length);
          expect(figures.calls).toBe(40 * selected.length);
          expect(figures.agents).toEqual([...new Set(selected.flatMap((run) => (run.agent === null ? [] : [run.agent])))]);
          expect([...figures.labelledMet].sort()).toEqual(labels ? selected.filter((run) => labels.stuck.has(run.id)).map((run) => run.id).sort() : []);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("compares the first config of a later pass with the last config of the pass before", () => {
    const tally = new SweepTally({ passes: [2, 2] });
    tally.add([report("a", null, { kind: 0, call: 1 }), report("a", null, { kind: 2, call: 5 })]);
    tally.commitUnit();
    tally.nextPass();
    tally.add([report("a", null, { kind: 3, call: 3 }), report("a", null, { kind: 3, call: 3 })]);
    tally.commitUnit();
    const changes = tally.figures().rows.map((row) => row.changed.map((c) => `${c.from}>${c.to}`));
    expect(changes).toEqual([[], ["ok>blocked"], ["blocked>aborted"], []]);
  });
});
