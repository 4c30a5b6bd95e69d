/**
 * Random Gemini CLI sessions, written twice from one abstract session: as a chat recording (JSONL
 * with re-appended copies, rewinds, compressions, info lines; or the legacy `.json` document) and
 * as the canonical events the detectors should see. The writers share only the abstract session.
 */
import { prng } from "../../helpers/randomSessions.js";
import { GeminiRecording, type CallSpec } from "./geminiRecording.js";

/** A call as the recording writes it, and the outcome the canonical events give it (`undefined`: none). */
interface GenCall {
  readonly spec: CallSpec;
  readonly canonical: Record<string, unknown> | undefined;
}

type Step = { readonly kind: "calls"; readonly calls: readonly GenCall[]; readonly updates: number } | { readonly kind: "rewind" | "compress" | "info" | "reply" };

export interface GeminiSession {
  readonly id: string;
  readonly legacy: boolean;
  readonly subAgentOf: string | undefined;
  readonly runs: ReadonlyArray<readonly Step[]>;
}

interface Pattern {
  readonly name: string;
  readonly args: unknown;
  /** What the canonical events say; the recording may add volatile parts (a PGID line). */
  readonly outcomes: ReadonlyArray<{ kind: "result"; text: string } | { kind: "error"; text: string; unknownTool?: string } | { kind: "cancelled" }>;
}

const UNKNOWN = 'Tool "web:fetch" not found in registry. Tools must use the exact names that are registered.';
const PATTERNS: readonly Pattern[] = [
  { name: "read_file", args: { file_path: "a.md" }, outcomes: [{ kind: "result", text: "alpha" }, { kind: "error", text: "File not found: a.md" }] },
  { name: "read_file", args: { file_path: "b.md" }, outcomes: [{ kind: "result", text: "beta" }] },
  { name: "run_shell_command", args: { command: "npm test" }, outcomes: [{ kind: "result", text: "Output: 1 failed\nExit Code: 1\n" }, { kind: "result", text: "Output: ok\n" }, { kind: "cancelled" }] },
  { name: "replace", args: { file_path: "x.ts", old_string: "a", new_string: "b" }, outcomes: [{ kind: "error", text: "Failed to edit, could not find the string to replace." }] },
  { name: "web:fetch", args: { url: "https://x.test" }, outcomes: [{ kind: "error", text: UNKNOWN, unknownTool: "web:fetch" }] },
  { name: "glob", args: { pattern: "**/*.ts" }, outcomes: [{ kind: "result", text: "Found 3 files" }] },
];

const CANCELLED = "[Operation Cancelled] Reason: User cancelled the operation.";

class Generator {
  private calls = 0;
  constructor(private readonly random: () => number) {}
  int = (min: number, max: number) => min + Math.floor(this.random() * (max - min + 1));
  chance = (p: number) => this.random() < p;
  pick = <T>(items: readonly T[]) => items[this.int(0, items.length - 1)]!;

  session(index: number): GeminiSession {
    const subAgent = this.chance(0.2);
    const runs = Array.from({ length: this.int(1, 3) }, () => this.steps(this.chance(0.15) ? 0 : this.int(5, 40)));
    return { id: `gem-${index}-${this.int(1000, 9999)}`, legacy: !subAgent && this.chance(0.25), subAgentOf: subAgent ? `parent-${index}` : undefined, runs };
  }

  private steps(n: number): Step[] {
    let favourite = this.favourite();
    let turn = 0;
    const steps: Step[] = [];
    for (let i = 0; i < n; i++) {
      const roll = this.random();
      if (roll < 0.04) steps.push({ kind: "rewind" });
      else if (roll < 0.08) steps.push({ kind: "compress" });
      else if (roll < 0.12) steps.push({ kind: this.chance(0.5) ? "info" : "reply" });
      else {
        if (this.chance(0.08)) favourite = this.favourite();
        const size = this.chance(0.25) ? this.int(2, 3) : 1;
        const calls = Array.from({ length: size }, () => this.call(this.chance(0.85) ? favourite[turn++ % favourite.length]! : this.pick(PATTERNS)));
        steps.push({ kind: "calls", calls, updates: this.chance(0.4) ? this.int(1, 3) : 0 });
      }
    }
    return steps;
  }

  private favourite(): readonly Pattern[] {
    return this.chance(0.25) ? [PATTERNS[0]!, PATTERNS[1]!] : [this.pick(PATTERNS)];
  }

  private call(pattern: Pattern): GenCall {
    const id = `${pattern.name}-${++this.calls}-${this.int(0, 1e6)}`;
    const usual = this.chance(0.85) ? pattern.outcomes[0]! : this.pick(pattern.outcomes);
    const spec = (outcome: CallSpec["outcome"]): CallSpec => ({ id, name: pattern.name, args: pattern.args, outcome });
    if (this.chance(0.04)) return { spec: spec({ kind: "pending", status: "executing" }), canonical: undefined };
    switch (usual.kind) {
      case "result": {
        // Volatile parts the adapter must drop: the shell's process group id, a duration.
        const output = pattern.name === "run_shell_command" ? `${usual.text}Process Group PGID: ${this.int(100, 99999)}` : usual.text;
        return { spec: spec({ kind: "result", output, extra: { durationMs: this.int(1, 900) } }), canonical: { result: { content: [{ type: "text", text: usual.text }], details: {} } } };
      }
      case "error":
        return { spec: spec({ kind: "error", error: usual.text }), canonical: { error: usual.text, ...(usual.unknownTool ? { unknownTool: usual.unknownTool } : {}) } };
      case "cancelled":
        return { spec: spec({ kind: "cancelled" }), canonical: { error: CANCELLED } };
    }
  }
}

export function randomGeminiSessions(seed: number, count: number): GeminiSession[] {
  const generator = new Generator(prng(seed));
  return Array.from({ length: count }, (_, i) => generator.session(i));
}

/** The session as Gemini CLI writes it (JSONL, or the legacy document). */
export function recordingText(session: GeminiSession): string {
  const g = new GeminiRecording(session.id, session.subAgentOf ? "subagent" : "main");
  for (const steps of session.runs) {
    const user = g.user("next task");
    for (const step of steps) {
      if (step.kind === "calls") g.gemini(step.calls.map((c) => c.spec), session.legacy ? 0 : step.updates);
      else if (step.kind === "reply") g.gemini([]);
      else if (step.kind === "info") g.info("Request cancelled.");
      else if (!session.legacy && step.kind === "rewind") g.rewindTo(user);
      else if (!session.legacy && step.kind === "compress") g.compress();
    }
  }
  return session.legacy ? g.legacy() : g.jsonl();
}

/** Relative path of the recording under `chats/`. */
export function recordingPath(session: GeminiSession): string {
  if (session.subAgentOf) return `${session.subAgentOf}/${session.id}.jsonl`;
  return `session-2026-04-29T21-39-${session.id}.${session.legacy ? "json" : "jsonl"}`;
}

/** The same session as canonical events, every call with `format: "gemini-cli"`. */
export function geminiCanonicalText(session: GeminiSession): string {
  const agent = session.subAgentOf ? `gemini-cli/${session.id}` : "gemini-cli";
  const lines: string[] = [];
  session.runs.forEach((steps, index) => {
    const base = { run: `${session.id}#${index + 1}`, session: session.id, agent };
    lines.push(JSON.stringify({ type: "run_start", ...base }));
    for (const step of steps) {
      if (step.kind !== "calls") continue;
      for (const { spec, canonical } of step.calls) {
        lines.push(JSON.stringify({ type: "tool_call", ...base, id: spec.id, tool: spec.name, format: "gemini-cli", args: spec.args }));
        if (canonical) lines.push(JSON.stringify({ type: "tool_result", ...base, id: spec.id, tool: spec.name, ...canonical }));
      }
    }
  });
  return lines.join("\n") + "\n";
}
