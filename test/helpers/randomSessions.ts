/**
 * A small seeded generator of OpenClaw sessions, written twice: as a session transcript (runs,
 * compactions, parallel calls with results out of order, errors, vetoes, abandoned branches, legacy
 * `input`, a cut-off last line) and as the canonical events the detectors should see. The two
 * writers share only the abstract session, so a mistake in the transcript adapter shows up as a
 * difference in findings.
 */
import { TranscriptBuilder, vetoText, type ToolCallSpec, type ToolOutcomeSpec } from "./openclawTranscript.js";

/** mulberry32: tiny, seedable, good enough to pick scenarios. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Call {
  readonly spec: ToolCallSpec;
  /** `undefined`: the call never got a result. */
  readonly outcome: ToolOutcomeSpec | undefined;
}

type Step =
  | { readonly kind: "calls"; readonly calls: readonly Call[]; readonly resultOrder: readonly number[] }
  | { readonly kind: "compaction" }
  | { readonly kind: "noise" }
  | { readonly kind: "abandoned"; readonly steps: readonly Step[] };

interface Run {
  readonly bootstrap: string | undefined;
  readonly promptError: string | undefined;
  readonly steps: readonly Step[];
}

export interface Session {
  readonly id: string;
  readonly agent: string;
  readonly runs: readonly Run[];
  readonly cutLastLine: boolean;
  /** Bootstrap entries after each run's final reply (as 2026.4+ runtimes write them), else before its user message. */
  readonly bootstrapAfterReply: boolean;
}

const PATTERNS: ReadonlyArray<{ name: string; args: unknown; outcomes: readonly ToolOutcomeSpec[] }> = [
  {
    name: "process",
    args: { action: "poll", sessionId: "p1" },
    outcomes: [
      { kind: "result", text: "still running", details: { status: "running", aggregated: "step 1" } },
      { kind: "result", text: "still running", details: { status: "running", aggregated: "step 2" } },
    ],
  },
  { name: "read", args: { path: "a.md" }, outcomes: [{ kind: "result", text: "alpha" }, { kind: "error", text: "ENOENT: no such file, open 'a.md'" }] },
  { name: "read", args: { path: "b.md" }, outcomes: [{ kind: "result", text: "beta" }] },
  {
    name: "exec",
    args: { command: "npm test" },
    outcomes: [
      { kind: "result", text: "1 failed", details: { status: "failed", exitCode: 1, aggregated: "1 failed" }, isError: true },
      { kind: "result", text: "ok", details: { status: "completed", exitCode: 0, aggregated: "ok" } },
    ],
  },
  { name: "browser", args: { action: "open", url: "https://x.test" }, outcomes: [{ kind: "error", text: "Unknown tool: browser" }] },
  { name: "update_plan", args: { plan: [{ step: "look", status: "in_progress" }] }, outcomes: [{ kind: "result", text: "", details: { ok: true } }] },
  // Non-ASCII text, parsed from transcripts as byte strings (jsonBytes.ts): whitespace that trim()
  // removes (U+00A0, U+3000) and chars whose UTF-8 ends in the byte A0 ("à") at the edges, blank
  // plan steps, an unknown tool named after U+00A0, a tool named in Unicode.
  {
    name: "exec",
    args: { command: "grep -r 'naïve 🚀' ü/" },
    outcomes: [
      { kind: "result", text: "voilà", details: { status: "completed", exitCode: 0, aggregated: "\u00a0voilà\u3000" } },
      { kind: "result", text: "voilà", details: { status: "completed", exitCode: 0, aggregated: "\u00a0\u3000" } },
      { kind: "result", text: "voil", details: { status: "completed", exitCode: 0, aggregated: "voilà" } },
    ],
  },
  { name: "update_plan", args: { plan: [{ step: "\u3000", status: "pending" }], explanation: "à" }, outcomes: [{ kind: "result", text: "日本", details: { ok: "ü" } }] },
  { name: "update_plan", args: { plan: [{ step: "à", status: "pending" }], explanation: "\u00a0" }, outcomes: [{ kind: "result", text: "日本", details: { ok: "ü" } }] },
  { name: "suche_ü", args: { "schlüssel": "Grüße 🚀", "ключ": ["à", "\u00a0"] }, outcomes: [{ kind: "result", text: "Ergebnis à" }, { kind: "error", text: "Unknown tool:\u00a0Wérkzeug" }] },
];

class Generator {
  private callCounter = 0;

  constructor(private readonly random: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  session(index: number): Session {
    const id = `sess-${index}-${this.int(1000, 9999)}`;
    const runs: Run[] = [];
    const count = this.int(1, 3);
    const bootstrapAfterReply = this.chance(0.5);
    // Written before the user message (older builds), a bootstrap after an unnamed run would name
    // that run (inputs.md §2: the rule serves both orders only when such runs do not occur, as in
    // those builds, which bootstrapped every run): there, every run has one or none does.
    const everyRun = this.chance(0.6);
    for (let r = 0; r < count; r++) {
      const naming = this.random();
      const bootstrapped = bootstrapAfterReply ? naming < 0.6 : everyRun;
      runs.push({
        bootstrap: bootstrapped ? `${id}-run-${r}` : undefined,
        // A run both bootstrapped and failed writes its own run id in both (as the runtime does).
        promptError: naming >= 0.6 && naming < 0.8 ? `${id}-err-${r}` : naming < 0.1 ? `${id}-run-${r}` : undefined,
        steps: this.steps(this.int(4, 30), true),
      });
    }
    return { id, agent: this.pick(["main", "ops", "coder"]), runs, cutLastLine: this.chance(0.4), bootstrapAfterReply };
  }

  private steps(n: number, allowBranch: boolean): Step[] {
    // A favourite pattern (or a pair that alternates) per stretch, so that loops actually form.
    let favourite = this.favourite();
    let turn = 0;
    const steps: Step[] = [];
    for (let i = 0; i < n; i++) {
      const roll = this.random();
      if (roll < 0.05) steps.push({ kind: "compaction" });
      else if (roll < 0.1) steps.push({ kind: "noise" });
      else if (roll < 0.13 && allowBranch) steps.push({ kind: "abandoned", steps: this.steps(this.int(1, 12), false) });
      else {
        if (this.chance(0.08)) favourite = this.favourite();
        const size = this.chance(0.25) ? this.int(2, 3) : 1;
        const calls = Array.from({ length: size }, () => this.call(this.chance(0.85) ? favourite[turn++ % favourite.length]! : this.pick(PATTERNS)));
        const order = calls.map((_, k) => k);
        if (size > 1 && this.chance(0.5)) order.reverse();
        steps.push({ kind: "calls", calls, resultOrder: order });
      }
    }
    return steps;
  }

  private favourite(): ReadonlyArray<(typeof PATTERNS)[number]> {
    return this.chance(0.25) ? [PATTERNS[1]!, PATTERNS[2]!] : [this.pick(PATTERNS)];
  }

  private call(pattern: (typeof PATTERNS)[number]): Call {
    const id = `call_${++this.callCounter}`;
    const roll = this.random();
    // Mostly the pattern's usual outcome, so that no-progress streaks form; sometimes a change.
    const usual = this.chance(0.85) ? pattern.outcomes[0]! : this.pick(pattern.outcomes);
    const outcome: ToolOutcomeSpec | undefined = roll < 0.04 ? undefined : roll < 0.08 ? { kind: "veto" } : usual;
    return { spec: { id, name: pattern.name, args: pattern.args, legacyInput: this.chance(0.1) }, outcome };
  }
}

export function randomSessions(seed: number, count: number): Session[] {
  const generator = new Generator(prng(seed));
  return Array.from({ length: count }, (_, i) => generator.session(i));
}

/** The session as an OpenClaw transcript. */
export function transcriptText(session: Session): string {
  const t = new TranscriptBuilder(session.id);
  const writeSteps = (steps: readonly Step[]) => {
    for (const step of steps) {
      switch (step.kind) {
        case "compaction":
          t.compaction();
          break;
        case "noise":
          t.label();
          break;
        case "abandoned": {
          const fork = t.leafId;
          writeSteps(step.steps);
          t.branchFrom(fork);
          t.modelChange(); // the retried branch goes on from the fork
          break;
        }
        case "calls":
          t.calls(step.calls.map((c) => c.spec));
          for (const k of step.resultOrder) {
            const call = step.calls[k]!;
            if (call.outcome) t.result(call.spec, call.outcome);
          }
          break;
      }
    }
  };
  for (const run of session.runs) {
    if (run.bootstrap && !session.bootstrapAfterReply) t.bootstrap(run.bootstrap);
    t.user("next task");
    writeSteps(run.steps);
    if (run.promptError) t.promptError(run.promptError);
    t.assistantText("done");
    if (run.bootstrap && session.bootstrapAfterReply) t.bootstrap(run.bootstrap);
  }
  return t.text(session.cutLastLine ? t.nextLineSample() : undefined);
}

function canonicalOutcome(outcome: ToolOutcomeSpec, tool: string): Record<string, unknown> {
  switch (outcome.kind) {
    case "error":
      return { error: outcome.text };
    case "veto":
      return {
        result: {
          content: [{ type: "text", text: outcome.text ?? vetoText(tool) }],
          details: { status: "blocked", deniedReason: "tool-loop" },
        },
      };
    case "result":
      return { result: { content: [{ type: "text", text: outcome.text }], ...(outcome.details ? { details: outcome.details } : {}) } };
  }
}

/**
 * The same session as canonical events (one JSON object per line): every executed call in file
 * order, abandoned branches included (the default replay), or only the active branch.
 */
export function canonicalText(session: Session, view: "file-order" | "active-branch" = "file-order"): string {
  const lines: string[] = [];
  session.runs.forEach((run, index) => {
    const name = run.bootstrap ?? run.promptError ?? `${session.id}#${index + 1}`;
    const base = { run: name, session: session.id, agent: session.agent };
    const before = lines.length;
    const writeSteps = (steps: readonly Step[]) => {
      for (const step of steps) {
        if (step.kind === "compaction") lines.push(JSON.stringify({ type: "compaction", ...base }));
        if (step.kind === "abandoned" && view === "file-order") writeSteps(step.steps);
        if (step.kind !== "calls") continue;
        for (const { spec, outcome } of step.calls) {
          lines.push(JSON.stringify({ type: "tool_call", ...base, id: spec.id, tool: spec.name, args: spec.args }));
          if (outcome) lines.push(JSON.stringify({ type: "tool_result", ...base, id: spec.id, tool: spec.name, ...canonicalOutcome(outcome, spec.name) }));
        }
      }
    };
    writeSteps(run.steps);
    // A run without tool activity is still a run.
    if (lines.length === before) lines.push(JSON.stringify({ type: "run_start", ...base }));
  });
  return lines.join("\n") + "\n";
}

/**
 * The same session as the transcript events of an exported trajectory bundle without runtime capture
 * (`OPENCLAW_TRAJECTORY=0`): the active branch only, every entry rebuilt as an event without runId.
 */
export function transcriptTrajectoryText(session: Session): string {
  const lines: string[] = [];
  let entry = 0;
  const push = (type: string, data: Record<string, unknown>) => {
    const entryId = (++entry).toString(16).padStart(8, "0");
    lines.push(
      JSON.stringify({ traceSchema: "openclaw-trajectory", schemaVersion: 1, source: "transcript", type, ts: "2026-05-01T00:00:00.000Z", seq: lines.length + 1, sessionId: session.id, sessionKey: `agent:${session.agent}:main`, entryId, data }),
    );
    return entryId;
  };
  const custom = (customType: string, runId: string) => push("session.custom", { customType, data: { runId } });
  const writeSteps = (steps: readonly Step[]) => {
    for (const step of steps) {
      if (step.kind === "compaction") push("session.compaction", { summary: "…", tokensBefore: 1000 });
      if (step.kind === "noise") push("session.label", { label: "checkpoint" });
      if (step.kind !== "calls") continue;
      const assistant = push("assistant.message", { message: { role: "assistant", content: [] } });
      step.calls.forEach(({ spec }, blockIndex) =>
        push("tool.call", { toolCallId: spec.id, name: spec.name, [spec.legacyInput ? "input" : "arguments"]: spec.args, assistantEntryId: assistant, blockIndex }),
      );
      for (const k of step.resultOrder) {
        const { spec, outcome } = step.calls[k]!;
        if (!outcome) continue;
        const canonical = canonicalOutcome(outcome, spec.name);
        const body = "error" in canonical ? { content: [{ type: "text", text: canonical.error }], isError: true } : { ...(canonical.result as object), isError: outcome.kind !== "result" || outcome.isError === true };
        push("tool.result", { message: { role: "toolResult", toolCallId: spec.id, toolName: spec.name, ...body } });
      }
    }
  };
  for (const run of session.runs) {
    if (run.bootstrap && !session.bootstrapAfterReply) custom("openclaw:bootstrap-context:full", run.bootstrap);
    push("user.message", { message: { role: "user", content: [{ type: "text", text: "next task" }] } });
    writeSteps(run.steps);
    if (run.promptError) custom("openclaw:prompt-error", run.promptError);
    if (run.bootstrap && session.bootstrapAfterReply) custom("openclaw:bootstrap-context:full", run.bootstrap);
  }
  return lines.join("\n") + "\n";
}
