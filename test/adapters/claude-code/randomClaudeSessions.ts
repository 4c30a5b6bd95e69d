/**
 * Random sessions written twice: as a Claude Code transcript (2.x lines: one content block per line
 * sharing `message.id`, results out of order or several in one user line, `toolUseResult` with
 * volatile timings, `<tool_use_error>` errors, "No such tool available", compactions with their
 * summary, quiet entries, rewinds) and as the canonical events the detectors should see. The two
 * writers share only the abstract session.
 */
import { prng } from "../../helpers/randomSessions.js";

interface Call {
  readonly id: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly outcome: { kind: "result"; text: string; details: Record<string, unknown> } | { kind: "error"; text: string; unknownTool?: string };
}

type Step =
  | { readonly kind: "calls"; readonly calls: readonly Call[]; readonly order: readonly number[]; readonly oneLine: boolean }
  | { readonly kind: "compaction" }
  | { readonly kind: "noise" }
  | { readonly kind: "rewind" };

export interface ClaudeSession {
  readonly id: string;
  readonly runs: ReadonlyArray<readonly Step[]>;
}

const PATTERNS: ReadonlyArray<Omit<Call, "id">> = [
  { tool: "Bash", args: { command: "npm test" }, outcome: { kind: "result", text: "1 failing", details: { stdout: "1 failing", stderr: "", interrupted: false } } },
  { tool: "Read", args: { file_path: "/a.ts" }, outcome: { kind: "result", text: "alpha", details: { type: "text", file: { filePath: "/a.ts" } } } },
  { tool: "Grep", args: { pattern: "b" }, outcome: { kind: "result", text: "b.ts", details: { filenames: ["b.ts"], numFiles: 1 } } },
  { tool: "Edit", args: { file_path: "/a.ts", old_string: "x" }, outcome: { kind: "error", text: "String to replace not found in file." } },
  { tool: "Deploy", args: { target: "prod" }, outcome: { kind: "error", text: "Error: No such tool available: Deploy", unknownTool: "Deploy" } },
];

export function randomClaudeSessions(seed: number, count: number): ClaudeSession[] {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  let callCounter = 0;
  const step = (favourite: ReadonlyArray<Omit<Call, "id">>, turn: () => number): Step => {
    const roll = random();
    if (roll < 0.05) return { kind: "compaction" };
    if (roll < 0.1) return { kind: "noise" };
    if (roll < 0.13) return { kind: "rewind" };
    const size = random() < 0.25 ? int(2, 3) : 1;
    const calls = Array.from({ length: size }, () => ({ id: `toolu_${++callCounter}`, ...(random() < 0.85 ? favourite[turn() % favourite.length]! : PATTERNS[int(0, PATTERNS.length - 1)]!) }));
    const order = calls.map((_, k) => k);
    if (size > 1 && random() < 0.5) order.reverse();
    return { kind: "calls", calls, order, oneLine: size > 1 && random() < 0.3 };
  };
  return Array.from({ length: count }, (_, index) => {
    const runs = Array.from({ length: int(1, 3) }, () => {
      const favourite = random() < 0.25 ? [PATTERNS[1]!, PATTERNS[2]!] : [PATTERNS[int(0, PATTERNS.length - 1)]!];
      let t = 0;
      return Array.from({ length: int(4, 30) }, () => step(favourite, () => t++));
    });
    const hex = (seed * 1000 + index).toString(16).padStart(12, "0");
    return { id: `00000000-0000-4000-8000-${hex}`, runs };
  });
}

/** The session as a Claude Code transcript (2.x shapes). */
export function claudeTranscriptText(session: ClaudeSession): string {
  const lines: string[] = [];
  let n = 0;
  let leaf: string | null = null;
  const push = (entry: Record<string, unknown>) => {
    const uuid = `u-${++n}`;
    lines.push(JSON.stringify({ parentUuid: leaf, isSidechain: false, sessionId: session.id, version: "2.0.24", ...entry, uuid, timestamp: `t${n}` }));
    leaf = uuid;
  };
  const result = (call: Call) => (call.outcome.kind === "error" ? { tool_use_id: call.id, type: "tool_result", content: `<tool_use_error>${call.outcome.text}</tool_use_error>`, is_error: true } : { tool_use_id: call.id, type: "tool_result", content: call.outcome.text });
  const tur = (call: Call) => (call.outcome.kind === "error" ? `Error: ${call.outcome.text}` : { ...call.outcome.details, durationMs: n });
  let fork: string | null = null;
  for (const run of session.runs) {
    push({ type: "user", message: { role: "user", content: "next task" } });
    for (const s of run) {
      if (s.kind === "compaction") {
        const parent = leaf;
        leaf = null;
        push({ type: "system", subtype: "compact_boundary", logicalParentUuid: parent, compactMetadata: { trigger: "auto", preTokens: 1000 } });
        push({ type: "user", isCompactSummary: true, message: { role: "user", content: "This session is being continued…" } });
      } else if (s.kind === "noise") {
        lines.push(JSON.stringify({ type: "file-history-snapshot", messageId: leaf, snapshot: { messageId: leaf, trackedFileBackups: {} }, isSnapshotUpdate: false }));
        push({ type: "user", isMeta: true, message: { role: "user", content: "Caveat: local command output" } });
      } else if (s.kind === "rewind") {
        if (fork !== null) leaf = fork; // a sibling branch: the abandoned one was executed and is replayed
        fork = leaf;
      } else {
        const message = (content: unknown[]) => ({ type: "assistant", requestId: `req-${n}`, message: { id: `msg-${s.calls[0]!.id}`, role: "assistant", content } });
        const blocks = s.calls.map((c) => ({ type: "tool_use", id: c.id, name: c.tool, input: c.args }));
        if (s.oneLine) push(message(blocks));
        else for (const block of blocks) push(message([block]));
        const ordered = s.order.map((k) => s.calls[k]!);
        if (ordered.length > 1 && s.oneLine) push({ type: "user", message: { role: "user", content: ordered.map(result) } });
        else for (const c of ordered) push({ type: "user", message: { role: "user", content: [result(c)] }, toolUseResult: tur(c) });
      }
    }
    push({ type: "assistant", message: { id: `msg-end-${n}`, role: "assistant", content: [{ type: "text", text: "done" }] } });
  }
  return lines.join("\n") + "\n";
}

/** The same session as canonical events: calls in response order, each followed by its result. */
export function claudeCanonicalText(session: ClaudeSession): string {
  const events: Record<string, unknown>[] = [];
  const base = { session: session.id, agent: "claude-code" };
  session.runs.forEach((run, r) => {
    const name = `${session.id}#${r + 1}`;
    events.push({ type: "run_start", run: name, ...base });
    for (const s of run) {
      if (s.kind === "compaction") events.push({ type: "compaction", run: name, ...base });
      if (s.kind !== "calls") continue;
      for (const c of s.calls) {
        events.push({ type: "tool_call", run: name, ...base, id: c.id, tool: c.tool, format: "claude-code", args: c.args });
        // Several results in one line carry no toolUseResult: their details are {}.
        const details = s.oneLine && s.calls.length > 1 ? {} : c.outcome.kind === "result" ? c.outcome.details : {};
        const outcome =
          c.outcome.kind === "error"
            ? { error: `<tool_use_error>${c.outcome.text}</tool_use_error>`, ...(c.outcome.unknownTool ? { unknownTool: c.outcome.unknownTool } : {}) }
            : { result: { content: [{ type: "text", text: c.outcome.text }], details } };
        events.push({ type: "tool_result", run: name, ...base, id: c.id, tool: c.tool, ...outcome });
      }
    }
  });
  return events.map((e) => JSON.stringify(e)).join("\n") + "\n";
}
