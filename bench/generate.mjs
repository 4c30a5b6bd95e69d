// Seeded generator of realistic looplens inputs for the benchmark (never committed: bench/out/).
//
// One abstract model of sessions (runs → assistant turns → tool calls with outcomes) is written two
// ways, so that both inputs describe the same runs:
//   - OpenClaw session transcripts (pi session format v3, inputs.md §2): header, bootstrap-context
//     custom entries naming runs, user prompts, assistant messages with long thinking blocks (and
//     their opaque signatures), text, parallel toolCall blocks, toolResult messages with long outputs
//     and exec details, compactions with long summaries, labels, model changes, abandoned branches;
//   - canonical looplens events (inputs.md §1): what `looplens events` prints for those transcripts.
// Most runs are healthy; some poll, retry, ping-pong or call a missing tool, so replay has findings.
//
// Claude Code transcripts (`claude-code`) and Codex rollouts (`codex`: bench/generateCodex.mjs) are
// written from the same model. Real-shaped transcripts (`real`, `tiny`: bench/generateReal.mjs) and
// Gateway logs (`gateway`: bench/generateGateway.mjs) have generators of their own.
//
//   node bench/generate.mjs OUT_DIR [--seed N] [--files N] [--file-mb N] [--format session|events|claude-code|codex|real|tiny|gateway|gateway-short] [--ascii]
import { mkdirSync, openSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { codexLines, codexRolloutPath } from "./generateCodex.mjs";
import { gatewayLines } from "./generateGateway.mjs";
import { realFilePath, realFileSizes, realSessionLines, textMaker } from "./generateReal.mjs";

/** mulberry32: small, fast, good enough for synthetic data, and reproducible. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const WORDS = (
  "the build cache module config server request response error warning token agent session tool " +
  "result value function return const import export async await promise stream buffer parse json " +
  "file path folder test suite passed failed retry timeout process poll status running completed " +
  "für naïve café résumé déjà — “quoted” ✓ 🚀 数据 ключ"
).split(" ");

const CODE_LINES = [
  'import { readFile } from "node:fs/promises";',
  "export async function load(path: string): Promise<Config> {",
  '  const text = await readFile(path, "utf8");',
  "  return JSON.parse(text) as Config; // \"strict\" mode",
  "}",
  "\tif (value === undefined) throw new Error(`missing ${key}`);",
  "  at Object.<anonymous> (/home/u/ws/src/index.ts:42:13)",
  "PASS  test/config.test.ts (12 tests) 38ms",
  "FAIL  test/server.test.ts > handles \\\"timeouts\\\"",
  "npm WARN deprecated inflight@1.0.6: This module is not supported",
  "[build] compiling 212/480 modules… 44%",
  "C:\\Users\\dev\\project\\node_modules\\.bin\\tsc --noEmit",
];

const printable = (text) => /^[\x09\x20-\x7e]*$/.test(text);
const ASCII_WORDS = WORDS.filter(printable);
const ASCII_CODE_LINES = CODE_LINES.filter(printable);

/** A few MB of text that long strings are cut from: prose, code, logs, escapes and non-ASCII (unless `ascii`). */
function makeCorpus(r, bytes, ascii = false) {
  const words = ascii ? ASCII_WORDS : WORDS;
  const code = ascii ? ASCII_CODE_LINES : CODE_LINES;
  const parts = [];
  let size = 0;
  while (size < bytes) {
    let piece;
    if (r.chance(0.55)) {
      const n = r.int(5, 40);
      const picked = [];
      for (let i = 0; i < n; i++) picked.push(r.pick(words));
      piece = `${picked.join(" ")}.`;
    } else {
      piece = `${r.pick(code)} ${r.int(0, 99999)}`;
    }
    parts.push(piece);
    size += piece.length + 1;
  }
  return parts.join("\n");
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function base64ish(r, length) {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE64[(r.next() * 64) | 0];
  return out;
}

function hex(n, width) {
  return n.toString(16).padStart(width, "0");
}

/**
 * The abstract session model: the same runs feed both writers. Runs are made lazily until the
 * writer has written `targetBytes` (so file sizes are what was asked, whatever the format).
 */
function makeSession(r, corpus, index, targetBytes, progress) {
  const text = (lo, hi) => {
    const length = r.int(lo, hi);
    const start = r.int(0, corpus.length - length - 1);
    return corpus.slice(start, start + length);
  };
  const sessionId = `${hex(index, 8)}-${hex(r.int(0, 0xffff), 4)}-4${hex(r.int(0, 0xfff), 3)}-a${hex(r.int(0, 0xfff), 3)}-${hex(r.int(0, 0xffffff), 6)}${hex(r.int(0, 0xffffff), 6)}`;
  const agent = r.pick(["main", "main", "main", "ops", "research"]);
  let callSeq = 0;
  const newCall = (tool, args, outcome) => ({ id: `call_${hex(callSeq++, 6)}${base64ish(r, 10)}`, tool, args, outcome });
  const textResult = (body, details) => ({ kind: "result", text: body, details });

  const healthyCall = () => {
    const kind = r.next();
    if (kind < 0.3) {
      const path = `/home/u/ws/src/${r.pick(["index", "server", "config", "util", "cli"])}${r.int(0, 400)}.ts`;
      return newCall("read", { path }, textResult(text(800, 30_000), undefined));
    }
    if (kind < 0.55) {
      const output = text(100, 16_000);
      const exitCode = r.chance(0.8) ? 0 : 1;
      return newCall(
        "exec",
        { command: r.pick(["npm test", "npm run build", "git status", "ls -la src", "rg TODO"]) + ` # ${r.int(0, 1e6)}`, workdir: "/home/u/ws", timeout: 120 },
        textResult(output, {
          status: exitCode === 0 ? "completed" : "failed",
          exitCode,
          durationMs: r.int(20, 90_000),
          aggregated: output,
          cwd: "/home/u/ws",
          pid: r.int(1000, 60000),
          sessionId: `exec-${r.int(0, 1e6)}`,
        }),
      );
    }
    if (kind < 0.7) {
      const oldText = text(20, 400);
      return newCall("edit", { path: `/home/u/ws/src/f${r.int(0, 300)}.ts`, oldText, newText: `${oldText}\n${text(10, 300)}` }, textResult("Successfully replaced text.", { diff: text(100, 2000) }));
    }
    if (kind < 0.8) {
      const query = text(10, 60);
      return newCall("web_search", { query, count: 5 }, textResult(text(2000, 12_000), { provider: "brave", tookMs: r.int(100, 2000) }));
    }
    if (kind < 0.88) return newCall("write", { path: `/home/u/ws/notes/n${r.int(0, 999)}.md`, content: text(200, 8000) }, textResult("Wrote file.", {}));
    if (kind < 0.94) {
      const plan = Array.from({ length: r.int(2, 6) }, () => ({ step: text(10, 80), status: r.pick(["pending", "in_progress", "completed"]) }));
      return newCall("update_plan", { explanation: text(10, 120), plan }, textResult("Plan updated.", { plan }));
    }
    if (kind < 0.97) {
      return newCall(
        "message",
        { action: "send", to: `telegram:${r.int(1, 99999)}`, text: text(20, 400) },
        textResult("sent", { ok: true, messageId: `m-${r.int(0, 1e9)}`, ts: r.int(1.7e9, 1.8e9) }),
      );
    }
    return newCall("read", { path: `/home/u/ws/missing${r.int(0, 99)}.md` }, { kind: "error", text: `ENOENT: no such file or directory, open '/home/u/ws/missing.md'` });
  };

  /** A stuck stretch of calls that the detectors should notice. */
  const loopCalls = () => {
    const kind = r.next();
    const calls = [];
    if (kind < 0.45) {
      const sessionId = `build-${r.int(1, 99)}`;
      const tail = text(200, 3000);
      const n = r.int(12, 26);
      for (let i = 0; i < n; i++) {
        calls.push(newCall("process", { action: "poll", sessionId }, textResult("still running", { status: "running", aggregated: tail, sessionId })));
      }
    } else if (kind < 0.7) {
      const n = r.int(10, 14);
      const output = text(500, 6000);
      for (let i = 0; i < n; i++) {
        calls.push(newCall("exec", { command: "npm test" }, textResult(output, { status: "failed", exitCode: 1, aggregated: output, durationMs: r.int(1000, 9000), pid: r.int(1000, 9999) })));
      }
    } else if (kind < 0.9) {
      const a = text(500, 4000);
      const b = text(500, 4000);
      const n = r.int(10, 22);
      for (let i = 0; i < n; i++) calls.push(newCall("read", { path: i % 2 ? "src/b.ts" : "src/a.ts" }, textResult(i % 2 ? b : a, undefined)));
    } else {
      for (let i = 0; i < 11; i++) calls.push(newCall("browser", { url: "https://example.com", step: i }, { kind: "error", text: "Tool browser not found" }));
    }
    return calls;
  };

  function* runs() {
    let runNo = 0;
    while (progress.bytes < targetBytes) {
      runNo++;
      const run = { runId: `run-${hex(index, 4)}-${runNo}-${base64ish(r, 6)}`, prompt: text(20, 1200), turns: [], compactionBeforeTurn: -1 };
      const pending = [];
      for (let i = 0, n = r.int(3, 25); i < n; i++) pending.push(healthyCall());
      if (r.chance(0.25)) pending.splice(r.int(0, pending.length), 0, ...loopCalls());
      // Assistant turns of 1-3 calls (parallel tool calls in one message).
      while (pending.length > 0) {
        const calls = pending.splice(0, r.chance(0.3) ? r.int(2, 3) : 1);
        const turn = {
          thinking: r.chance(0.7) ? text(200, 6000) : undefined,
          signature: base64ish(r, r.int(300, 2400)),
          text: r.chance(0.3) ? text(20, 600) : undefined,
          calls,
          abandonedBranch: r.chance(0.03),
        };
        run.turns.push(turn);
      }
      if (r.chance(0.12)) {
        run.compactionBeforeTurn = r.int(1, run.turns.length);
        run.compactionSummary = text(1000, 8000);
      }
      run.finalText = text(20, 800);
      yield run;
    }
  }
  return { id: sessionId, agent, runs };
}

/** Canonical events (inputs.md §1): one call then its own result, in the order the runtime ran them. */
function* eventLines(session) {
  const base = (run) => ({ run: run.runId, session: session.id, agent: session.agent });
  let ts = Date.UTC(2026, 4, 1, 9);
  for (const run of session.runs()) {
    yield { type: "run_start", ...base(run), ts: new Date((ts += 1000)).toISOString() };
    for (const [t, turn] of run.turns.entries()) {
      if (t === run.compactionBeforeTurn) yield { type: "compaction", ...base(run), ts: new Date((ts += 1000)).toISOString() };
      for (const c of turn.calls) {
        yield { type: "tool_call", ...base(run), ts: new Date((ts += 1000)).toISOString(), id: c.id, tool: c.tool, args: c.args };
        const result =
          c.outcome.kind === "error"
            ? { error: c.outcome.text }
            : { result: { content: [{ type: "text", text: c.outcome.text }], ...(c.outcome.details ? { details: c.outcome.details } : {}) } };
        yield { type: "tool_result", ...base(run), ts: new Date((ts += 1000)).toISOString(), id: c.id, tool: c.tool, ...result };
      }
    }
    yield { type: "run_end", ...base(run), ts: new Date((ts += 1000)).toISOString() };
  }
}

/** pi session format v3 (inputs.md §2), entries chained by parentId, with an abandoned branch now and then. */
function* sessionLines(session, r) {
  let clock = Date.UTC(2026, 4, 1, 9);
  let entryNo = 0;
  let parent = null;
  const stamp = () => {
    clock += r.int(200, 20_000);
    return new Date(clock).toISOString();
  };
  const entry = (fields, parentId = parent) => {
    const id = hex(++entryNo, 8);
    const line = { type: fields.type, id, parentId, timestamp: stamp(), ...fields };
    return { id, line };
  };
  const push = (fields) => {
    const e = entry(fields);
    parent = e.id;
    return e.line;
  };
  const usage = () => {
    const input = r.int(2000, 180_000);
    const output = r.int(50, 4000);
    return { input, output, cacheRead: r.int(0, input), cacheWrite: 0, totalTokens: input + output, cost: { input: input * 1.25e-6, output: output * 1e-5, cacheRead: 0, cacheWrite: 0, total: input * 1.25e-6 + output * 1e-5 } };
  };
  const assistant = (content, stopReason) => ({
    type: "message",
    message: { role: "assistant", content, api: "openai-responses", provider: "openai", model: "gpt-5", usage: usage(), stopReason, timestamp: clock },
  });
  const toolResult = (c) => {
    const o = c.outcome;
    const message =
      o.kind === "error"
        ? { role: "toolResult", toolCallId: c.id, toolName: c.tool, content: [{ type: "text", text: o.text }], isError: true, timestamp: clock }
        : { role: "toolResult", toolCallId: c.id, toolName: c.tool, content: [{ type: "text", text: o.text }], ...(o.details ? { details: o.details } : {}), isError: false, timestamp: clock };
    return { type: "message", message };
  };

  yield { type: "session", version: 3, id: session.id, timestamp: new Date(clock).toISOString(), cwd: "/home/u/ws" };
  for (const run of session.runs()) {
    yield push({ type: "custom", customType: "openclaw:bootstrap-context:full", data: { timestamp: clock, runId: run.runId, sessionId: session.id } });
    yield push({ type: "message", message: { role: "user", content: [{ type: "text", text: run.prompt }], timestamp: clock } });
    if (r.chance(0.3)) yield push({ type: "model_change", provider: "openai", modelId: "gpt-5" });
    for (const [t, turn] of run.turns.entries()) {
      if (t === run.compactionBeforeTurn) {
        yield push({ type: "compaction", summary: run.compactionSummary, firstKeptEntryId: hex(Math.max(1, entryNo - 6), 8), tokensBefore: r.int(100_000, 200_000) });
      }
      if (turn.abandonedBranch) {
        // A retried turn: the first attempt stays in the file on a side branch.
        const side = entry(assistant([{ type: "toolCall", id: `side_${entryNo}`, name: "read", arguments: { path: "/home/u/ws/abandoned.md" } }], "toolUse"));
        yield side.line;
        yield entry({ type: "message", message: { role: "toolResult", toolCallId: `side_${entryNo - 1}`, toolName: "read", content: [{ type: "text", text: "x" }], isError: false, timestamp: clock } }, side.id).line;
      }
      const content = [];
      if (turn.thinking !== undefined) content.push({ type: "thinking", thinking: turn.thinking, thinkingSignature: turn.signature });
      if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
      for (const c of turn.calls) content.push({ type: "toolCall", id: c.id, name: c.tool, arguments: c.args });
      yield push(assistant(content, "toolUse"));
      for (const c of turn.calls) yield push(toolResult(c));
      if (r.chance(0.02)) yield push({ type: "label", targetId: parent, label: "checkpoint" });
    }
    yield push(assistant([{ type: "text", text: run.finalText }], "stop"));
  }
}

/**
 * Claude Code transcripts (agents.md A1): a user line per prompt, one assistant line per tool_use
 * (the calls of one response share `message.id`), a user line per tool_result with its
 * `toolUseResult`, long thinking and text lines, compact boundaries — the same runs as the others.
 */
function* claudeLines(session, r) {
  let clock = Date.UTC(2026, 4, 1, 9);
  let uuidNo = 0;
  let parent = null;
  const line = (fields) => {
    clock += r.int(200, 20_000);
    const uuid = `${hex(++uuidNo, 8)}-0000-4000-8000-${hex(uuidNo, 12)}`;
    const out = { parentUuid: parent, isSidechain: false, userType: "external", cwd: "/home/u/ws", sessionId: session.id, version: "2.0.24", gitBranch: "main", uuid, timestamp: new Date(clock).toISOString(), ...fields };
    parent = uuid;
    return out;
  };
  let messageNo = 0;
  for (const run of session.runs()) {
    yield line({ type: "user", message: { role: "user", content: run.prompt } });
    for (const [t, turn] of run.turns.entries()) {
      if (t === run.compactionBeforeTurn) {
        yield line({ type: "system", subtype: "compact_boundary", content: "Conversation compacted", compactMetadata: { trigger: "auto", preTokens: r.int(100_000, 200_000) } });
        yield line({ type: "user", isCompactSummary: true, message: { role: "user", content: run.compactionSummary } });
      }
      const id = `msg_${hex(++messageNo, 10)}`;
      const requestId = `req_${hex(messageNo, 12)}`;
      const assistant = (content) => ({ type: "assistant", requestId, message: { id, type: "message", role: "assistant", model: "claude-sonnet-4-5", content, stop_reason: null, usage: { input_tokens: r.int(10, 4000), output_tokens: r.int(10, 4000) } } });
      if (turn.thinking !== undefined) yield line(assistant([{ type: "thinking", thinking: turn.thinking, signature: turn.signature }]));
      if (turn.text !== undefined) yield line(assistant([{ type: "text", text: turn.text }]));
      for (const c of turn.calls) yield line(assistant([{ type: "tool_use", id: c.id, name: c.tool, input: c.args }]));
      for (const c of turn.calls) {
        const o = c.outcome;
        const error = o.kind === "error";
        yield line({
          type: "user",
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: c.id, content: error ? `<tool_use_error>${o.text}</tool_use_error>` : o.text, is_error: error }] },
          toolUseResult: error ? `Error: ${o.text}` : { stdout: o.text.slice(0, 2000), stderr: "", interrupted: false, isImage: false },
        });
      }
    }
    yield line({ type: "assistant", requestId: `req_final_${hex(messageNo, 8)}`, message: { id: `msg_final_${hex(++messageNo, 8)}`, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: run.finalText }], stop_reason: "end_turn" } });
  }
}

/** Buffered line writer: generation must not dominate the benchmark's run time. */
function writeLines(path, lines, progress) {
  const fd = openSync(path, "w");
  let buffer = [];
  let size = 0;
  let total = 0;
  const flush = () => {
    const chunk = buffer.join("");
    writeSync(fd, chunk);
    total += Buffer.byteLength(chunk);
    buffer = [];
    size = 0;
  };
  for (const line of lines) {
    const text = `${JSON.stringify(line)}\n`;
    buffer.push(text);
    size += text.length;
    progress.bytes += text.length;
    if (size > 1 << 22) flush();
  }
  flush();
  closeSync(fd);
  return total;
}

/**
 * Writes `files` transcripts of about `fileMb` MB each under `dir` (sessions under
 * agents/<agent>/sessions/ like OpenClaw's state folder; events as flat files). Returns the paths.
 */
export function generate({ dir, seed = 1, files = 1, fileMb = 1, format = "events", ascii = false }) {
  if (format === "real" || format === "tiny") return generateReal({ dir, seed, files, fileMb, tiny: format === "tiny" });
  if (format === "gateway" || format === "gateway-short") return generateGateway({ dir, seed, files, fileMb, shortRuns: format === "gateway-short" });
  const corpus = makeCorpus(rng(seed), 4 << 20, ascii);
  const paths = [];
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const progress = { bytes: 0 };
    // Per-file streams: file i holds the same runs in both formats (the events file more of them).
    const session = makeSession(rng(seed * 1_000_003 + i), corpus, i, fileMb * 1e6, progress);
    const rollout = codexRolloutPath(i, session.id);
    const name = format === "codex" ? rollout.name : `${session.id}.jsonl`;
    const sub =
      format === "session" ? join(dir, "agents", session.agent, "sessions") : format === "claude-code" ? join(dir, "projects", `-home-u-ws${i % 4}`) : format === "codex" ? join(dir, ...rollout.dir) : dir;
    mkdirSync(sub, { recursive: true });
    const path = join(sub, name);
    const r = rng(seed * 7919 + i);
    const lines = format === "session" ? sessionLines(session, r) : format === "claude-code" ? claudeLines(session, r) : format === "codex" ? codexLines(session, r) : eventLines(session);
    bytes += writeLines(path, lines, progress);
    paths.push(path);
  }
  return { paths, bytes };
}

/**
 * Real-shaped session transcripts: `files` > 1 is a state directory of about files × fileMb MB in many
 * files of real sizes (realFileSizes: thousands of small ones, a few large); one file is one large
 * transcript of `fileMb` MB.
 */
function generateReal({ dir, seed, files, fileMb, tiny }) {
  const r = rng(seed);
  const corpusRng = { ...rng(seed + 1), seed };
  const sizes = files > 1 ? realFileSizes(r, files * fileMb) : [fileMb * 1e6];
  const paths = [];
  let bytes = 0;
  for (const [i, size] of sizes.entries()) {
    const { path, sessionId } = realFilePath(dir, r, i);
    const progress = { bytes: 0 };
    bytes += writeLines(path, realSessionLines(textMaker(corpusRng, rng(seed * 7919 + i)), rng(seed * 7919 + i + 1), sessionId, size, progress, { tiny }), progress);
    paths.push(path);
  }
  return { paths, bytes };
}

/** Gateway logs: one file a day, `fileMb` MB each (`shortRuns`: see gatewayLines). */
function generateGateway({ dir, seed, files, fileMb, shortRuns = false }) {
  mkdirSync(dir, { recursive: true });
  const paths = [];
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const path = join(dir, `openclaw-2026-05-${String(i + 1).padStart(2, "0")}.log`);
    const progress = { bytes: 0 };
    bytes += writeLines(path, gatewayLines(rng(seed * 31 + i), fileMb * 1e6, progress, shortRuns), progress);
    paths.push(path);
  }
  return { paths, bytes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, ...rest] = process.argv.slice(2);
  if (!dir) {
    console.error("usage: node bench/generate.mjs OUT_DIR [--seed N] [--files N] [--file-mb N] [--format session|events|claude-code|codex|real|tiny|gateway|gateway-short] [--ascii]");
    process.exit(2);
  }
  const opt = (name, fallback) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : fallback;
  };
  const result = generate({ dir, seed: Number(opt("seed", 1)), files: Number(opt("files", 1)), fileMb: Number(opt("file-mb", 1)), format: opt("format", "events"), ascii: rest.includes("--ascii") });
  console.log(`${result.paths.length} file(s), ${(result.bytes / 1e6).toFixed(1)} MB under ${dir}`);
}
