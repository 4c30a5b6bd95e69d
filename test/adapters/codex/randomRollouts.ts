/**
 * Seeded random Codex sessions, written twice: as a rollout (rolloutBuilder.ts, either style) and
 * as the canonical events the detectors should see. The two writers share only the abstract
 * session, so a mistake in the adapter shows up as a difference in findings.
 */
import { prng } from "../../helpers/randomSessions.js";
import { RolloutBuilder, type CallSpec, type OutputSpec, type RolloutStyle } from "./rolloutBuilder.js";

interface Call {
  readonly spec: CallSpec;
  /** `undefined`: the call never got an output. */
  readonly out: OutputSpec | undefined;
}

type Step =
  | { readonly kind: "calls"; readonly calls: readonly Call[]; readonly order: readonly number[] }
  | { readonly kind: "compaction" }
  | { readonly kind: "noise" };

export interface RandomRollout {
  readonly id: string;
  readonly style: RolloutStyle;
  readonly subAgent: string | undefined;
  readonly runs: ReadonlyArray<readonly Step[]>;
}

interface Pattern {
  readonly name: string;
  readonly args: unknown;
  readonly custom?: boolean;
  readonly outs: readonly OutputSpec[];
}

const PATTERNS: readonly Pattern[] = [
  { name: "shell", args: { command: ["bash", "-lc", "ls"] }, outs: [{ text: "a.txt\n", exitCode: 0 }, { text: "a.txt\nb.txt\n", exitCode: 0 }] },
  { name: "shell", args: { command: ["bash", "-lc", "npm test"] }, outs: [{ text: "1 failed", exitCode: 1 }, { text: "ok", exitCode: 0 }] },
  { name: "shell", args: { command: ["bash", "-lc", "cat a.txt"] }, outs: [{ text: "alpha", exitCode: 0 }] },
  { name: "update_plan", args: { plan: [{ step: "look", status: "in_progress" }] }, outs: [{ text: "Plan updated" }] },
  { name: "apply_patch", args: "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch", custom: true, outs: [{ text: "Success. Updated the following files:\nM a.txt\n", exitCode: 0 }, { text: "apply_patch verification failed: Failed to find expected lines" }] },
  { name: "browser_open", args: { url: "https://x.test" }, outs: [{ text: "unsupported call: browser_open" }] },
];

class Generator {
  private calls = 0;
  constructor(private readonly random: () => number) {}

  private int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  rollout(index: number): RandomRollout {
    const id = `0199${String(index).padStart(4, "0")}-aaaa-7bbb-8ccc-${String(this.int(100000000000, 999999999999))}`;
    const style: RolloutStyle = this.random() < 0.5 ? "0.47" : "0.146";
    const subAgent = this.random() < 0.2 ? this.pick(["scout", "fixer"]) : undefined;
    const runs = Array.from({ length: this.int(1, 3) }, () => this.steps(this.int(0, 25)));
    return { id, style, subAgent, runs };
  }

  private steps(n: number): Step[] {
    // A favourite pattern (or an alternating pair) per stretch, so that loops form.
    let favourite = this.favourite();
    let turn = 0;
    const steps: Step[] = [];
    for (let i = 0; i < n; i++) {
      const roll = this.random();
      if (roll < 0.05) steps.push({ kind: "compaction" });
      else if (roll < 0.1) steps.push({ kind: "noise" });
      else {
        if (this.random() < 0.08) favourite = this.favourite();
        const size = this.random() < 0.2 ? this.int(2, 3) : 1;
        const calls = Array.from({ length: size }, () => this.call(this.random() < 0.85 ? favourite[turn++ % favourite.length]! : this.pick(PATTERNS)));
        const order = calls.map((_, k) => k);
        if (size > 1 && this.random() < 0.5) order.reverse();
        steps.push({ kind: "calls", calls, order });
      }
    }
    return steps;
  }

  private favourite(): readonly Pattern[] {
    return this.random() < 0.25 ? [PATTERNS[0]!, PATTERNS[2]!] : [this.pick(PATTERNS)];
  }

  private call(pattern: Pattern): Call {
    const spec: CallSpec = { id: `call_${++this.calls}`, name: pattern.name, args: pattern.args, ...(pattern.custom ? { custom: true } : {}) };
    const out = this.random() < 0.04 ? undefined : this.random() < 0.85 ? pattern.outs[0]! : this.pick(pattern.outs);
    return { spec, out };
  }
}

export function randomRollouts(seed: number, count: number): RandomRollout[] {
  const generator = new Generator(prng(seed));
  return Array.from({ length: count }, (_, i) => generator.rollout(i));
}

export function rolloutText(session: RandomRollout): string {
  const b = new RolloutBuilder(session.id, session.style, session.subAgent ? { parent: "0199ffff-parent", nickname: session.subAgent } : undefined);
  for (const steps of session.runs) {
    b.userTurn("next task");
    for (const step of steps) {
      if (step.kind === "compaction") b.compaction();
      else if (step.kind === "noise") b.noise();
      else {
        for (const call of step.calls) b.call(call.spec);
        for (const k of step.order) {
          const call = step.calls[k]!;
          if (call.out) b.output(call.spec, call.out);
        }
      }
    }
    b.endTurn();
  }
  return b.text();
}

function canonicalOutcome(session: RandomRollout, out: OutputSpec): Record<string, unknown> {
  const unknown = /^unsupported call: (\S+)/.exec(out.text);
  if (unknown) return { error: out.text, unknownTool: unknown[1] };
  if (out.exitCode !== undefined && out.exitCode !== 0) return { error: out.text };
  const details = session.style === "0.47" && out.exitCode !== undefined ? { exit_code: out.exitCode } : {};
  return { result: { content: [{ type: "text", text: out.text }], details } };
}

/** The canonical events: each call followed by its output, in response order; silent runs as run_start. */
export function rolloutCanonicalText(session: RandomRollout): string {
  const lines: string[] = [];
  const agent = session.subAgent ? `codex/${session.subAgent}` : "codex";
  session.runs.forEach((steps, index) => {
    const run = session.style === "0.146" ? RolloutBuilder.turnId(session.id, index + 1) : `${session.id}#${index + 1}`;
    const base = { run, session: session.id, agent };
    const before = lines.length;
    for (const step of steps) {
      if (step.kind === "compaction") lines.push(JSON.stringify({ type: "compaction", ...base }));
      if (step.kind !== "calls") continue;
      for (const { spec, out } of step.calls) {
        lines.push(JSON.stringify({ type: "tool_call", ...base, id: spec.id, tool: spec.name, format: "codex", args: spec.args }));
        if (out) lines.push(JSON.stringify({ type: "tool_result", ...base, id: spec.id, ...canonicalOutcome(session, out) }));
      }
    }
    if (lines.length === before) lines.push(JSON.stringify({ type: "run_start", ...base }));
  });
  return lines.join("\n") + "\n";
}
