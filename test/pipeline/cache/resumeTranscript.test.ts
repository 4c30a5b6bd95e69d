/**
 * A grown OpenClaw session transcript resumes from the point its entry kept (session.ts `resume`),
 * and the output is the one without the cache, in every format: random append histories of
 * transcripts of the real shape (bench/generateReal.mjs: bootstrap entries after runs, prompt
 * errors, model changes, compactions; real files of samples/real; the seeded sessions' parallel
 * calls with results out of order), cut anywhere (mid run, between a call and its result, around
 * compactions and model changes). Each growth is checked to resume, unless the appended lines name
 * the run the old part left open (the old part's events carried a provisional name) or are the
 * first to name any run (the old part's first pass was skipped); edits that must not resume are
 * checked not to.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: the benchmark's generator is plain JavaScript
import { rng } from "../../../bench/generate.mjs";
// @ts-expect-error: the benchmark's generator is plain JavaScript (the bench's own real-shaped transcripts)
import { realSessionLines, textMaker } from "../../../bench/generateReal.mjs";
import { customRunMarker, segmentNames, type RunMarker } from "../../../src/adapters/openclaw/runNaming.js";
import { resumedUnits } from "../../../src/pipeline/cache/resumeUnit.js";
import { prng, randomSessions, transcriptText } from "../../helpers/randomSessions.js";
import { tempDir } from "../../helpers/tempDir.js";
import { expectSameEveryFormat } from "./cacheBench.js";

/** Points are kept for files of any size here (the default keeps them from 1 MiB). */
const ENV = { LOOPLENS_CACHE_RESUME_MIN_BYTES: "0" };
const SESSION = "5a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const REAL = "/work/shared/samples/real/clawboard-prodlogs/agents/main/sessions";

/** Lines of a transcript of the real shape, `targetBytes` long (its header first), the model changed after some final replies. */
function realShaped(seed: number, targetBytes: number): string[] {
  const corpus = { ...rng(seed), seed };
  const progress = { bytes: 0 };
  const random = prng(seed);
  const lines: string[] = [];
  for (const entry of realSessionLines(textMaker(corpus, rng(seed + 1)), rng(seed + 2), SESSION, targetBytes, progress) as Iterable<unknown>) {
    const line = JSON.stringify(entry);
    lines.push(line);
    progress.bytes += line.length + 1;
    if (line.includes('"stopReason":"stop"') && random() < 0.3) {
      lines.push(JSON.stringify({ type: "model_change", id: `mc${lines.length}`, parentId: null, timestamp: "2026-04-01T00:00:00.000Z", provider: "p", modelId: `model-${lines.length}` }));
    }
  }
  return lines;
}

/** The whole lines of each seeded session's transcript (a cut-off last line left out). */
function seededLines(seed: number): string[][] {
  return randomSessions(seed, 3).map((session) =>
    transcriptText(session)
      .split("\n")
      .filter((line) => {
        try {
          return JSON.parse(line) !== undefined;
        } catch {
          return false;
        }
      }),
  );
}

const NAMING = /"customType":"openclaw:(bootstrap-context:full|prompt-error)"/;
const USER = /"role":"user"/;

/** The run names of a transcript's segments, from its lines parsed (runNaming.ts; file order, one file: copies aside). */
function namesOf(lines: readonly string[]): Array<string | undefined> {
  const markers: RunMarker[] = [];
  lines.forEach((text, index) => {
    const entry = JSON.parse(text) as { type?: string; customType?: unknown; data?: unknown; message?: { role?: string } };
    if (entry.type === "message" && entry.message?.role === "user") markers.push({ kind: "user", line: index + 1 });
    const marker = entry.type === "custom" ? customRunMarker(index + 1, entry.customType, entry.data, "text") : undefined;
    if (marker !== undefined) markers.push(marker);
  });
  return segmentNames(markers);
}

/**
 * Whether appending `added` to `old` must resume: when the segments of the old part keep their names
 * (a naming entry appended for the run the old part left open renames it), no appended segment takes
 * an old one's name, and the old part already named a run if the appended lines do (else the old
 * part's first pass was skipped).
 */
function shouldResume(old: readonly string[], added: readonly string[]): boolean {
  if (!old.some((line) => NAMING.test(line)) && added.some((line) => NAMING.test(line))) return false;
  const before = namesOf(old);
  const after = namesOf([...old, ...added]);
  const kept = before.every((name, segment) => after[segment] === name);
  return kept && after.slice(before.length).every((name) => name === undefined || (!before.includes(name) && !name.startsWith(`${SESSION}#`)));
}

async function expectSame(file: string, cacheDir: string, why: string, resumes: boolean | undefined, args: readonly string[] = []): Promise<void> {
  const before = resumedUnits();
  await expectSameEveryFormat([file, ...args], cacheDir, why, ENV);
  if (resumes !== undefined) expect(resumedUnits() > before, `${why}: resumed`).toBe(resumes);
}

/** Writes the first lines of `lines`, then appends the rest in random pieces: every format checked each time. */
async function growRandomly(lines: readonly string[], seed: number, name: string, maxPiece: number): Promise<number> {
  const random = prng(seed);
  const dir = tempDir("looplens-resume-transcript-");
  const cacheDir = join(dir, "cache");
  const file = join(dir, `${SESSION}.jsonl`);
  let at = 2 + Math.floor(random() * 6);
  writeFileSync(file, lines.slice(0, at).join("\n") + "\n");
  await expectSame(file, cacheDir, `${name}: first ${at} lines`, false);
  let resumed = 0;
  while (at < lines.length) {
    const next = Math.min(lines.length, at + 1 + Math.floor(random() * maxPiece));
    const added = lines.slice(at, next);
    appendFileSync(file, added.join("\n") + "\n");
    const resumes = shouldResume(lines.slice(0, at), added);
    await expectSame(file, cacheDir, `${name}: lines ${at + 1}-${next} appended`, resumes);
    if (resumes) resumed++;
    at = next;
  }
  return resumed;
}

describe("a grown OpenClaw transcript resumed from its entry's point", () => {
  it("gives the output without the cache, every format, over random appends to real-shaped transcripts", async () => {
    const lines = realShaped(34, 120_000);
    expect(lines.some((line) => NAMING.test(line)) && lines.some((line) => line.includes('"type":"compaction"'))).toBe(true);
    expect(await growRandomly(lines, 1, "real-shaped", 20)).toBeGreaterThan(3);
  });

  it("gives the output without the cache over random appends to the seeded sessions (parallel calls, results out of order)", async () => {
    let resumed = 0;
    for (const [i, lines] of seededLines(2).entries()) resumed += await growRandomly(lines, 10 + i, `seeded session ${i}`, 20);
    expect(resumed).toBeGreaterThan(5);
  });

  it("gives the output without the cache over random appends to the fixtures' transcripts", async () => {
    const sessions = join(import.meta.dirname, "../../../fixtures/openclaw/agents/main/sessions");
    for (const [seed, name] of [
      [5, "7f3e2a10-5c4b-4d8e-9f21-3a6b8c0d4e51.jsonl"],
      [6, "2c9d4b7e-8a1f-4e3c-b5d6-7e8f9a0b1c2d.jsonl"],
    ] as const) {
      const lines = readFileSync(join(sessions, name), "utf8").split("\n").filter((line) => line !== "");
      await growRandomly(lines, seed, name, 6);
    }
  });

  // The real files of the shared samples, where they are (not in the repository).
  it.skipIf(!existsSync(REAL))("gives the output without the cache over random appends to real transcripts", async () => {
    // A bootstrap entry after every run, two model changes.
    const name = "622ba270-ee6b-409d-b115-b84118ae54a1.jsonl";
    const lines = readFileSync(join(REAL, name), "utf8").split("\n").filter((line) => line !== "");
    expect(await growRandomly(lines, 3, name, 14)).toBeGreaterThan(0);
  });

  it("does not resume what the old part's reading went by, and is still right", async () => {
    const dir = tempDir("looplens-resume-transcript-");
    const cacheDir = join(dir, "cache");
    const file = join(dir, `${SESSION}.jsonl`);
    const lines = realShaped(9, 40_000);
    // The old part names a run, and ends in one not named yet: cut after the user message that the second bootstrap entry follows.
    const bootstraps = lines.flatMap((line, i) => (NAMING.test(line) && line.includes("bootstrap") ? [i] : []));
    const named = bootstraps[1]!;
    const open = lines.slice(0, named).findLastIndex((line) => USER.test(line)) + 2;
    writeFileSync(file, lines.slice(0, open).join("\n") + "\n");
    await expectSame(file, cacheDir, "a run left open", false);
    appendFileSync(file, lines.slice(open, named + 1).join("\n") + "\n");
    await expectSame(file, cacheDir, "a bootstrap entry naming the open run appended", false);
    // An entry whose parentId names no entry: in file order no notice depends on it, and it resumes.
    const at = named + 1;
    appendFileSync(file, JSON.stringify({ type: "message", id: "dangling1", parentId: "nowhere", timestamp: "2026-04-01T00:00:00.000Z", message: { role: "assistant", content: [{ type: "text", text: "ok" }], timestamp: 1 } }) + "\n");
    await expectSame(file, cacheDir, "a dangling parentId appended", true);
    // A copy of an old user message (same timestamp and role) and a branch from an old entry: file order replays neither anew.
    const oldUser = JSON.parse(lines.find((line) => USER.test(line))!) as Record<string, unknown>;
    appendFileSync(file, JSON.stringify({ ...oldUser, id: "copy1", parentId: "dangling1" }) + "\n" + lines.slice(at, at + 20).join("\n") + "\n");
    await expectSame(file, cacheDir, "a copy of an old user message and a branch appended", true);
    // The old part rewritten, then grown: the prefix hash tells.
    writeFileSync(file, readFileSync(file, "utf8").replace('"role":"user"', '"role": "user"') + lines.slice(at + 20, at + 30).join("\n") + "\n");
    await expectSame(file, cacheDir, "prefix rewritten and grown", false);
    appendFileSync(file, lines.slice(at + 30, at + 40).join("\n") + "\n");
    await expectSame(file, cacheDir, "grown after the rewrite", true);
    // The active branch depends on the file's last entry: no point is kept.
    await expectSame(file, cacheDir, "the active branch, first", false, ["--active-branch"]);
    appendFileSync(file, lines.slice(at + 40, at + 50).join("\n") + "\n");
    await expectSame(file, cacheDir, "the active branch, grown", false, ["--active-branch"]);
  });

  it("keeps no point for a session with a sidecar or several files", async () => {
    const dir = tempDir("looplens-resume-transcript-");
    const cacheDir = join(dir, "cache");
    const file = join(dir, `${SESSION}.jsonl`);
    const lines = realShaped(12, 30_000);
    const half = Math.floor(lines.length / 2);
    writeFileSync(`${file}.reset.2026-04-01T00-00-00.000Z`, lines.slice(0, half).join("\n") + "\n");
    writeFileSync(file, [lines[0], ...lines.slice(half, half + 20)].join("\n") + "\n");
    await expectSame(dir, cacheDir, "an archive and its live transcript", false);
    appendFileSync(file, lines.slice(half + 20, half + 60).join("\n") + "\n");
    await expectSame(dir, cacheDir, "the live transcript grown", false);
  });
});
