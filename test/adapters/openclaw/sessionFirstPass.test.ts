/**
 * The first pass over a session transcript reads most lines from their bytes (sessionLineScan.ts);
 * the second pass checks what it read and has the file read again the long way when a line parses
 * differently. Whatever the file, the analysis must be exactly the one the long way gives.
 */
import { describe, expect, it } from "vitest";
import { LineTally, ReadAgain, UnitHistory } from "../../../src/adapters/adapter.js";
import { fileSource } from "../../../src/adapters/io/sources.js";
import { openclawSessionAdapter } from "../../../src/adapters/openclaw/session.js";
import { SessionLineScanner } from "../../../src/adapters/openclaw/sessionLineScan.js";
import { analyzeFile, type FileAnalysis } from "../../../src/pipeline/analysis.js";
import { resolveConfig } from "../../../src/core/config.js";
import { loadXxhashDigest } from "../../../src/core/xxhashDigest.js";
import { writeSessionFile } from "../../helpers/inProcess.js";

function scan(line: string) {
  const bytes = Buffer.from(`junk${line}junk`);
  return new SessionLineScanner().scan(bytes, 4, bytes.length - 4);
}

describe("SessionLineScanner", () => {
  it("reads type, id, parent and a message's role from lines written as OpenClaw writes them", () => {
    expect(scan('{"type":"message","id":"a1","parentId":"p0","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":[]}}')).toEqual({
      kind: "entry",
      id: "a1",
      parent: "p0",
      user: true,
    });
    expect(scan('{"type":"message","id":"a1","parentId":null,"message":{"role":"assistant","content":"x"}}')).toEqual({ kind: "entry", id: "a1", parent: null, user: false });
    expect(scan('{"type":"compaction","id":"c","parentId":"a1","timestamp":"t \\" , }","summary":{"long":true}}')).toEqual({ kind: "entry", id: "c", parent: "a1", user: false });
    expect(scan('\uFEFF{ "type" : "label" , "id" : "l" , "parentId" : "c" , "n" : -1.5e3 }')).toEqual({ kind: "entry", id: "l", parent: "c", user: false });
    // A flat line seen to its end: a key not met is absent.
    expect(scan('{"type":"model_change","id":"m","provider":"x"}')).toEqual({ kind: "entry", id: "m", parent: undefined, user: false });
    expect(scan('{"type":"session","version":3,"id":"s"}')).toEqual({ kind: "header" });
  });

  it("leaves to the parse what a prefix cannot tell", () => {
    for (const line of [
      '{"type":"custom","id":"c","parentId":null,"customType":"openclaw:bootstrap-context:full","data":{"runId":"r"}}', // names runs
      '{"type":"message","id":"é1","parentId":null,"message":{"role":"user"}}', // non-ASCII id
      '{"type":"message","id":"a\\u0031","parentId":null,"message":{"role":"user"}}', // escape
      '{"type":"message","id":7,"parentId":null,"message":{"role":"user"}}', // number id
      '{"type":"message","id":" ","parentId":null,"message":{"role":"user"}}', // blank id
      '{"type":"message","parentId":null,"id":"x","usage":{},"message":{"role":"user"}}', // nested value before the message
      '{"type":"message","id":"x","message":{"role":"user"},"parentId":null}', // parent after the message
      '{"type":"message","id":"x","parentId":null,"message":{"content":[],"role":"user"}}', // role not first
      '{"type":"message","id":"x","parentId":null}', // a message without its message
      '{"id":"x","parentId":null,"type":"label"}', // flat, but type not first is fine... only if seen to the end
      '{"type":"label","id":"x","parentId":null} trailing',
      '{"type":"","id":"x","parentId":null}',
      '["type"]',
      "",
      "   ",
    ]) {
      const result = scan(line);
      if (line.startsWith('{"id":"x"')) expect(result).toEqual({ kind: "entry", id: "x", parent: null, user: false });
      else expect(result, line).toBeUndefined();
    }
  });
});

const header = '{"type":"session","version":3,"id":"s-1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
const user = (id: string, parent: string | null) => JSON.stringify({ type: "message", id, parentId: parent, message: { role: "user", content: [{ type: "text", text: "go" }] } });
const call = (id: string, parent: string, callId: string) =>
  JSON.stringify({ type: "message", id, parentId: parent, message: { role: "assistant", content: [{ type: "toolCall", id: callId, name: "read", arguments: { path: "same" } }] } });
const result = (id: string, parent: string, callId: string) =>
  JSON.stringify({ type: "message", id, parentId: parent, message: { role: "toolResult", toolCallId: callId, toolName: "read", content: [{ type: "text", text: "same" }], isError: false } });

/** A run of `n` identical read calls on one branch, starting under `parent`. */
function loop(prefix: string, parent: string, n: number): { lines: string[]; last: string } {
  const lines: string[] = [];
  let last = parent;
  for (let i = 0; i < n; i++) {
    lines.push(call(`${prefix}c${i}`, last, `${prefix}k${i}`), result(`${prefix}r${i}`, `${prefix}c${i}`, `${prefix}k${i}`));
    last = `${prefix}r${i}`;
  }
  return { lines, last };
}

/**
 * Files whose beginning-of-line facts lie: the line that decides the branch is not what its prefix
 * says. Long way: the branch of 12 repeats; read from bytes without the check: the branch of 3.
 */
function lyingFiles(): Record<string, string> {
  const long = loop("L", "u", 12);
  const short = loop("S", "u", 3);
  // The long branch is written last: without the lying line, the last entry is on it.
  const base = [header, user("u", null), ...short.lines, ...long.lines];
  const onShort = call("Z", short.last, "kz");
  return {
    // A line cut by a crash and continued by the next write: its prefix names the short branch.
    "crash-merged line": [...base, `${onShort.slice(0, onShort.indexOf("content"))}${call("Y", long.last, "ky")}`, ""].join("\n"),
    // A key given twice: JSON.parse keeps the last parentId, the prefix saw the first.
    "duplicate parentId": [...base, `${onShort.slice(0, -1)},"parentId":"${long.last}"}`, ""].join("\n"),
    // A role given twice: the prefix saw an assistant's message, the parse a user message (a new
    // run). (User messages as the prefix sees them are parsed anyway, for their copy key.)
    "duplicate role": [...base, `{"type":"message","id":"Z","parentId":"${long.last}","message":{"role":"assistant","role":"user"}}`, ""].join("\n"),
    // A user message's copy key is read from the line's end, which here closes another object: as
    // parsed, the message is a copy of the first one (same role and timestamp), so no new run.
    "copy key at the end of another object": [
      header,
      `{"type":"message","id":"u","parentId":null,"message":{"role":"user","content":"go","timestamp":5}}`,
      ...long.lines,
      `{"type":"message","id":"u2","parentId":"${long.last}","message":{"role":"user","content":"go","timestamp":5},"x":{"a":1,"timestamp":7}}`,
      ...loop("T", "u2", 3).lines,
      "",
    ].join("\n"),
  };
}

async function analyse(path: string, canReadAgain: boolean, activeBranch = false): Promise<FileAnalysis> {
  const config = resolveConfig([{ origin: "test", source: "looplens", values: { enabled: true } }]).config;
  return analyzeFile(path, await loadXxhashDigest(), () => config, { canReadAgain, activeBranch });
}

describe("session first pass read from bytes", () => {
  // Each file as it is, and with a run-naming entry before its first run: in file order the first
  // pass reads a file only when it names runs (else it is skipped: see the next block).
  const named = Object.entries(lyingFiles()).flatMap(([name, text]) => [
    [name, text, false] as const,
    [`${name}, runs named`, text.replace("\n", `\n${JSON.stringify({ type: "custom", customType: "openclaw:bootstrap-context:full", data: { runId: "r0" }, id: "b0", parentId: null })}\n`), true] as const,
  ]);
  it.each(named)("%s: the check catches it and the file is read again", async (name, text, namesRuns) => {
    const path = writeSessionFile(text);
    for (const activeBranch of [true, false]) {
      // The adapter itself gives up on the shortcut when the lie matters: a branch (only the active
      // branch reads parents) or a run marker (both orders, when runs are named)...
      const context = { tally: new LineTally(), unit: new UnitHistory([path], false), options: { canReadAgain: true, activeBranch }, emit: () => ({ used: true }) as const };
      const read = openclawSessionAdapter.read(await fileSource(path), context);
      const markerLies = namesRuns && (name.startsWith("duplicate role") || name.startsWith("copy key"));
      if (activeBranch || markerLies) await expect(read).rejects.toBeInstanceOf(ReadAgain);
      else await expect(read).resolves.toBeUndefined();
      // ...and the analysis is exactly the long way's.
      const fast = await analyse(path, true, activeBranch);
      const slow = await analyse(path, false, activeBranch);
      expect(fast).toEqual(slow);
      expect(fast.lines.read).toBe(text.split("\n").length - 1);
    }
  });

  it("gives the long way's analysis on a transcript with abandoned branches (no second read)", async () => {
    const long = loop("L", "u", 12);
    const short = loop("S", "u", 3);
    const text = [header, user("u", null), ...long.lines, ...short.lines, user("u2", short.last), ...loop("T", "u2", 4).lines, ""].join("\n");
    const path = writeSessionFile(text);
    for (const activeBranch of [true, false]) {
      const context = { tally: new LineTally(), unit: new UnitHistory([path], false), options: { canReadAgain: true, activeBranch }, emit: () => ({ used: true }) as const };
      await openclawSessionAdapter.read(await fileSource(path), context); // no ReadAgain
      const fast = await analyse(path, true, activeBranch);
      expect(fast).toEqual(await analyse(path, false, activeBranch));
      // The active branch leaves out the long loop (12 calls and results); file order replays all.
      expect(fast.lines).toEqual(activeBranch ? { read: 41, used: 17, ignored: 24, skipped: 0 } : { read: 41, used: 41, ignored: 0, skipped: 0 });
    }
  });
});

describe("the first pass skipped when the bytes hold no naming entry", () => {
  const named = (customType: string, runId: string) => `{"type":"custom","customType":"${customType}","data":{"runId":"${runId}"},"id":"b-${runId}","parentId":null}`;
  const runs = (bootstrap: (runId: string) => string | undefined) => {
    const lines = [header];
    for (const tag of ["a", "b", "c"]) {
      lines.push(user(`u${tag}`, null), ...loop(tag, `u${tag}`, 4).lines);
      const entry = bootstrap(`run-${tag}`);
      if (entry !== undefined) lines.push(entry);
    }
    return `${lines.join("\n")}\n`;
  };

  /** What the adapter itself does with the file, and what the analysis gives either way. */
  async function read(text: string) {
    const path = writeSessionFile(text);
    const context = { tally: new LineTally(), unit: new UnitHistory([path], false), options: { canReadAgain: true, activeBranch: false }, emit: () => ({ used: true }) as const };
    const adapter = openclawSessionAdapter.read(await fileSource(path), context).then(() => "read", (error: unknown) => (error instanceof ReadAgain ? "read again" : error));
    const fast = await analyse(path, true);
    const slow = await analyse(path, false);
    return { adapter: await adapter, fast, slow };
  }

  it("names runs by default when none is named, and as the long way does", async () => {
    const { adapter, fast, slow } = await read(runs(() => undefined));
    expect(adapter).toBe("read");
    expect(fast).toEqual(slow);
    expect(fast.runs.map((run) => run.run)).toEqual(["s-1#1", "s-1#2", "s-1#3"]);
  });

  it("reads the naming entries when their customType is in the bytes", async () => {
    for (const customType of ["openclaw:bootstrap-context:full", "openclaw:prompt-error"]) {
      const { adapter, fast, slow } = await read(runs((runId) => named(customType, runId)));
      expect(adapter).toBe("read");
      expect(fast).toEqual(slow);
      expect(fast.runs.map((run) => run.run)).toEqual(["run-a", "run-b", "run-c"]);
    }
  });

  it("has the file read again when a naming entry's customType is written with escapes", async () => {
    // \u006f is "o": the parse sees the bootstrap type, a search of the bytes does not.
    const { adapter, fast, slow } = await read(runs((runId) => (runId === "run-b" ? named("\\u006fpenclaw:bootstrap-context:full", runId) : undefined)));
    expect(adapter).toBe("read again");
    expect(fast).toEqual(slow);
    expect(fast.runs.map((run) => run.run)).toEqual(["s-1#1", "run-b", "s-1#3"]);
  });
});

describe("runs closed where a transcript shows they are over (closeRuns)", () => {
  async function both(text: string) {
    const path = writeSessionFile(text);
    const config = resolveConfig([{ origin: "test", source: "looplens", values: { enabled: true } }]).config;
    const digest = await loadXxhashDigest();
    const closed = await analyzeFile(path, digest, () => config, {});
    const open = await analyzeFile(path, digest, () => config, { closeRuns: false });
    return { closed, open };
  }
  const bootstrap = (runId: string) => JSON.stringify({ type: "custom", customType: "openclaw:bootstrap-context:full", data: { runId } });

  it("gives the same report, also when a run's name comes back in a later segment", async () => {
    // Runs "again" (segments 1 and 3) and "s-1#4" (an explicit name spelling a later default name).
    const lines = [header];
    // Bootstrap entries after each run's calls, as the runtime writes them.
    const segment = (name: string | undefined, n: number, tag: string) => {
      lines.push(JSON.stringify({ type: "message", message: { role: "user", content: "go" } }));
      for (let i = 0; i < n; i++) {
        lines.push(JSON.stringify({ type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: `${tag}${i}`, name: "read", arguments: { p: 1 } }] } }));
        lines.push(JSON.stringify({ type: "message", message: { role: "toolResult", toolCallId: `${tag}${i}`, toolName: "read", content: [{ type: "text", text: "same" }] } }));
      }
      if (name !== undefined) lines.push(bootstrap(name));
    };
    segment("again", 6, "a");
    segment(undefined, 3, "b");
    segment("again", 6, "c"); // 12 repeats in one run only if its history survived segment 2
    segment("s-1#5", 5, "d");
    segment(undefined, 7, "e"); // default name s-1#5
    const { closed, open } = await both(lines.join("\n") + "\n");
    expect(closed).toEqual(open);
    const again = closed.runs.find((run) => run.run === "again")!;
    expect(again.calls).toBe(12);
    expect([...again.findings].map((f) => f.level)).toContain("warning");
    expect(closed.runs.find((run) => run.run === "s-1#5")!.calls).toBe(12);
  });
});
