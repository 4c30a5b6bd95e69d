// Real-shaped OpenClaw session transcripts for the benchmark, built from measured distributions (no
// content is taken from any recording: all text is cut from a generated word corpus).
//
// Issue 17 measured 59 real session files of three installs (325 MB once replicated): median line
// 554 B, p90 799 B; tool results 43% of the bytes, the rest user text, assistant text (with and
// without tool calls), `custom` entries (`openclaw:bootstrap-context:full`, `openclaw:prompt-error`,
// `model-snapshot`) and `custom_message`; 7.7% of the lines hold non-ASCII text. Measured here on
// /work/shared/samples/real/ (30 files of one install, 975 lines, 3.3 MB; file sizes 1.8 KB to 843 KB,
// half under 30 KB): median line 655 B, p10 257, p25 407, p75 910, p90 1,889, p99 81 KB, max 243 KB;
// by lines: toolResult 29%, assistant with calls 28%, assistant text only 15%, user 15%, custom
// model-snapshot 3%, model_change 3%, thinking_level_change 3%, bootstrap-context 1.5%, compaction
// 0.3%, custom_message 0.1%; by bytes tool results 84% there (one install's long file reads), and
// 53% of its lines hold non-ASCII text (a Chinese-speaking install). The generator follows the
// three-install figures (what a state directory looks like across installs); `bench/measure.mjs`
// prints the same figures for any folder, generated or real, to check it.
//
// Line layout is OpenClaw's own: `{"type":…,"id":…,"parentId":…,"timestamp":…,"message":{"role":…`,
// custom entries with `customType` and `data` before their `id`, assistant messages with `api`,
// `provider`, `model`, `usage` (with `cost`) and `stopReason` after the content, tool results with
// `toolCallId`, `toolName`, `content`, `details` (exec: status, exitCode, durationMs, aggregated,
// cwd), `isError`, `timestamp`.
//
// Sizes: a few files are large (runs of long work sessions), most are small (heartbeats, cron jobs,
// one-question chats). `tiny: true` writes a transcript of many small entries instead (~220 B a line,
// ~40 entries a run: issue 7's closing note), the worst case for per-line costs.
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const ASCII_WORDS = (
  "the build cache module config server request response error warning token agent session tool result value " +
  "function return const import export async await promise stream buffer parse json file path folder test suite " +
  "passed failed retry timeout process poll status running completed schedule report email summary daily check"
).split(" ");
const WIDE_WORDS = "数据 任务 文件 邮件 查询 结果 完成 你好 ключ данные für naïve café résumé déjà — “quoted” ✓ 🚀 🦞".split(" ");

/**
 * Text of `length` chars, ASCII or holding non-ASCII words, cut from a corpus at a random place (the
 * corpora are made once per seed: making them took longer than writing a small file).
 */
const corpora = new Map();
export function textMaker(seedRng, r) {
  const key = seedRng.seed;
  if (!corpora.has(key)) corpora.set(key, makeCorpora(seedRng));
  const { ascii, wide } = corpora.get(key);
  return (length, nonAscii = false) => {
    if (!nonAscii) {
      const at = r.int(0, ascii.length - length - 1);
      return ascii.slice(at, at + length);
    }
    // Starts with a non-ASCII word, so that the line really holds non-ASCII text.
    const at = r.int(0, wide.length - length - 1);
    return `${r.pick(WIDE_WORDS)} ${wide.slice(at, at + length)}`;
  };
}

function makeCorpora(r) {
  const corpus = (words) => {
    const parts = [];
    for (let size = 0; size < 1 << 21; ) {
      const n = r.int(4, 30);
      const line = Array.from({ length: n }, () => r.pick(words)).join(" ") + (r.chance(0.3) ? ".\n" : ". ");
      parts.push(line);
      size += line.length;
    }
    return parts.join("");
  };
  return { ascii: corpus(ASCII_WORDS), wide: corpus([...ASCII_WORDS, ...ASCII_WORDS, ...WIDE_WORDS]) };
}

/** A log-normal draw around `median` (spread `sigma`), clamped. */
const logNormal = (r, median, sigma, lo, hi) => {
  const u = Math.max(r.next(), 1e-9);
  const v = r.next();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.round(Math.min(hi, Math.max(lo, median * Math.exp(sigma * z))));
};

const hex = (n, width) => n.toString(16).padStart(width, "0");

/** The lines of one real-shaped session transcript, until `targetBytes` are written. */
export function* realSessionLines(text, r, sessionId, targetBytes, progress, { tiny = false } = {}) {
  let clock = Date.UTC(2026, 3, 9, 2) + r.int(0, 20) * 86_400_000;
  let parent = null;
  const newId = () => hex(r.int(0, 0xffffffff), 8);
  const callId = () => tiny ? `c${hex(r.int(0, 0xffffff), 6)}` : `call_${hex(r.int(0, 0xffffffff), 8)}${hex(r.int(0, 0xffffffff), 8)}${hex(r.int(0, 0xffffffff), 8)}`;
  const iso = () => new Date((clock += r.int(50, 9000))).toISOString();
  const entry = (type, fields) => {
    const id = newId();
    const line = { type, id, parentId: parent, timestamp: iso(), ...fields };
    parent = id;
    return line;
  };
  const custom = (customType, data) => {
    const id = newId();
    const line = { type: "custom", customType, data, id, parentId: parent, timestamp: iso() };
    parent = id;
    return line;
  };
  // About two thirds of the lines hold text (results, user and assistant text): 7.7% of all lines.
  const wide = () => r.chance(0.12);
  const usage = () => {
    const input = r.int(9000, 60_000);
    const output = r.int(20, 900);
    return { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  };
  const assistant = (content, stopReason) =>
    tiny
      ? entry("message", { message: { role: "assistant", content, stopReason, timestamp: clock } })
      : entry("message", { message: { role: "assistant", content, api: "openai-completions", provider: "local-provider", model: "model-large", usage: usage(), stopReason, timestamp: clock } });
  const TOOLS = ["read", "exec", "web_search", "message", "cron", "memory_search", "edit", "process"];

  yield { type: "session", version: 3, id: sessionId, timestamp: new Date(clock).toISOString(), cwd: "/home/node/.openclaw/workspace" };
  if (!tiny) {
    yield entry("model_change", { provider: "local-provider", modelId: "model-large" });
    yield entry("thinking_level_change", { thinkingLevel: "off" });
    yield custom("model-snapshot", { timestamp: clock, provider: "local-provider", modelApi: "openai-completions", modelId: "model-large" });
  }
  let runNo = 0;
  while (progress.bytes < targetBytes) {
    const runId = `${hex(r.int(0, 0xffffffff), 8)}-${hex(r.int(0, 0xffff), 4)}-4${hex(runNo++ & 0xfff, 3)}`;
    // The runtime writes the bootstrap entry after the run's final reply (real 2026.4 transcripts;
    // inputs.md §1): it names the run it follows.
    const bootstrapped = tiny ? runNo % 4 === 1 : r.chance(0.15);
    yield entry("message", { message: { role: "user", content: [{ type: "text", text: text(tiny ? r.int(20, 60) : r.chance(0.92) ? logNormal(r, 150, 0.8, 10, 1200) : logNormal(r, 4000, 1.2, 500, 60_000), wide()) }], timestamp: clock } });
    if (!tiny && r.chance(0.04)) {
      // A prompt that failed (provider error): the runtime records it and the run ends there.
      yield custom("openclaw:prompt-error", { timestamp: clock, runId, sessionId, provider: "local-provider", model: "model-large", api: "openai-completions", error: "terminated" });
      continue;
    }
    // A stuck stretch now and then, so that replay has findings.
    const loop = r.chance(tiny ? 0.05 : 0.03) ? { tool: r.pick(["process", "exec", "read"]), n: r.int(10, 24), output: text(r.int(40, 400)) } : undefined;
    const steps = tiny ? r.int(12, 26) : r.chance(0.45) ? 0 : r.chance(0.75) ? r.int(1, 3) : r.int(4, 8);
    for (let step = 0; step < steps + (loop?.n ?? 0); step++) {
      const looping = loop !== undefined && step >= steps;
      const calls = looping || tiny || r.chance(0.9) ? 1 : r.int(2, 3);
      const content = [];
      if (!tiny && r.chance(0.25)) content.push({ type: "text", text: text(logNormal(r, 90, 0.8, 10, 2000), wide()) });
      const made = [];
      for (let c = 0; c < calls; c++) {
        const tool = looping ? loop.tool : r.pick(TOOLS);
        const args = looping
          ? tool === "process" ? { action: "poll", sessionId: "job-1" } : tool === "exec" ? { command: "npm test" } : { file_path: "/home/node/.openclaw/workspace/TODO.md" }
          : tool === "exec" ? { command: `ls -la /tmp/w${r.int(0, 999)}` } : tool === "web_search" ? { query: text(r.int(10, 40)) } : { file_path: tiny ? `f${r.int(0, 99)}` : `/home/node/.openclaw/workspace/f${r.int(0, 9999)}.md` };
        const call = { type: "toolCall", id: callId(), name: tool, arguments: args };
        content.push(call);
        made.push(call);
      }
      yield assistant(content, "toolUse");
      for (const call of made) {
        const output = looping ? loop.output : text(tiny ? r.int(10, 50) : r.chance(0.87) ? logNormal(r, 120, 0.9, 8, 1000) : logNormal(r, 2800, 1.3, 400, 200_000), wide());
        const message = { role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text: output }] };
        if (!tiny && call.name === "exec") message.details = { status: "completed", exitCode: 0, durationMs: r.int(5, 4000), aggregated: output, cwd: "/home/node/.openclaw/workspace" };
        else if (!tiny && r.chance(0.3)) message.details = { status: r.chance(0.7) ? "ok" : "error", tool: call.name };
        message.isError = false;
        message.timestamp = clock;
        yield entry("message", { message });
      }
    }
    if (!tiny && r.chance(0.01)) yield entry("compaction", { summary: text(r.int(300, 3000)), firstKeptEntryId: parent, tokensBefore: r.int(40_000, 90_000) });
    if (!tiny && r.chance(0.01)) {
      yield entry("custom_message", { customType: "openclaw.sessions_yield", content: text(r.int(40, 300), wide()), display: false, details: { source: "sessions_yield" } });
    }
    yield assistant([{ type: "text", text: text(tiny ? r.int(10, 40) : r.chance(0.9) ? logNormal(r, 120, 0.8, 10, 1000) : logNormal(r, 3500, 1.1, 400, 30_000), wide()) }], "stop");
    if (bootstrapped) yield custom("openclaw:bootstrap-context:full", { timestamp: clock, runId, sessionId });
  }
}

/**
 * File sizes of a state directory: one file in `largeEvery` is large (~`largeMb` MB), the others small
 * (log-normal around 24 KB, up to 2 MB), together about `totalMb` MB.
 */
export function realFileSizes(r, totalMb, { largeEvery = 400, largeMb = 10 } = {}) {
  const sizes = [];
  for (let total = 0, i = 0; total < totalMb * 1e6; i++) {
    const size = i % largeEvery === 0 ? Math.round(largeMb * 1e6 * (0.6 + 0.8 * r.next())) : logNormal(r, 24_000, 1.3, 1800, 2e6);
    sizes.push(size);
    total += size;
  }
  return sizes;
}

/** Where file `i` of a real-shaped folder goes: agents/<agent>/sessions/<id>.jsonl, archives among them. */
export function realFilePath(dir, r, i) {
  const agent = i % 7 === 0 ? "ops" : "main";
  const sub = join(dir, "agents", agent, "sessions");
  mkdirSync(sub, { recursive: true });
  const id = `${hex(i, 8)}-${hex(r.int(0, 0xffff), 4)}-4${hex(r.int(0, 0xfff), 3)}-8${hex(r.int(0, 0xfff), 3)}-${hex(r.int(0, 0xffffff), 6)}${hex(r.int(0, 0xffffff), 6)}`;
  const archive = r.next();
  const name = archive < 0.55 ? `${id}.jsonl` : archive < 0.85 ? `${id}.jsonl.reset.2026-04-1${i % 10}T0${i % 10}-00-00.000Z` : `${id}.jsonl.deleted.2026-04-1${i % 10}T0${i % 10}-00-00.000Z`;
  return { path: join(sub, name), sessionId: id };
}
