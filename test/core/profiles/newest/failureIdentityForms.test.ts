/**
 * The failure identity of an exec's output (generations.md §4 rule 5) through the real pipeline: the
 * same OpenClaw transcript replayed under the newest profile with its lines read from their bytes
 * (the replay path: outputs stay UTF-8 byte strings, io/jsonBytes.ts) and read as text gives the
 * same findings, also when a drifting pid or attempt number follows non-ASCII white space (which
 * `\s` matches in a text and not, unless taught, in a byte string).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Digest } from "../../../../src/core/hashing.js";
import { loadXxhashDigest } from "../../../../src/core/xxhashDigest.js";
import { analyzeFile } from "../../../../src/pipeline/analysis.js";
import { createConfigResolver, type ConfigResolver } from "../../../../src/pipeline/configResolution.js";
import { TranscriptBuilder } from "../../../helpers/openclawTranscript.js";
import { NON_ASCII_SPACES } from "../../../helpers/whiteSpace.js";

/** White space `\s` matches, ASCII or not. */
const SPACES = [" ", "\t", ...NON_ASCII_SPACES];
/** Other non-ASCII text, some of it with bytes a white space has (à ends in A0, ⠀ is E2 A0 80). */
const TEXT = ["à", "\u2800", "é", "数据", "🚀", "\u200b", "\u0085", "Échec", "connexion refusée", ":", "=", "#", " ", "x"];

/** A failing command's output where a number drifts between retries: `{n}` marks where. */
const driftingOutput = fc
  .record({
    before: fc.array(fc.constantFrom(...TEXT, ...SPACES), { maxLength: 6 }),
    word: fc.constantFrom("pid", "PPID", "attempt", "Retry"),
    spaces: fc.array(fc.constantFrom(...SPACES, "#", ":", "="), { minLength: 1, maxLength: 3 }),
    after: fc.array(fc.constantFrom(...TEXT, ...SPACES), { maxLength: 6 }),
  })
  .map(({ before, word, spaces, after }) => `${before.join("")}${word}${spaces.join("")}{n}${after.join("")}`);

/** One run: the same exec failing 21 times with the output drifting (20 equal identities block). */
function transcript(output: string): string {
  const builder = new TranscriptBuilder("f0f0f0f0-0000-4000-8000-00000000d1f7");
  builder.user("Réparer le déploiement");
  for (let i = 1; i <= 21; i++) {
    const call = { id: `call_${i}`, name: "exec", args: { command: "./deploy.sh" } };
    builder.calls([call]);
    builder.result(call, { kind: "result", text: "", details: { status: "failed", exitCode: 1, aggregated: output.replace("{n}", String(4000 + i)) } });
  }
  return builder.text();
}

let dir: string;
let digest: Digest;
let resolver: ConfigResolver;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "looplens-identity-"));
  digest = await loadXxhashDigest();
  resolver = await createConfigResolver({ profile: "newest" });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** [call, detector, level, count] of every finding, with the file read from its bytes or as text. */
async function findings(path: string, bytePayloads: boolean): Promise<string[]> {
  const analysis = await analyzeFile(path, digest, (agent, profile) => resolver.effectiveFor(agent, profile).config, { profile: "newest", bytePayloads });
  return analysis.runs.flatMap((run) => [...run.findings].map((f) => `${String(f.call)} ${f.detector} ${f.level} ${f.count}`));
}

describe("the newest profile's failure identity", () => {
  it("blocks a retry loop whose pid drifts after a no-break space, read either way", async () => {
    const path = join(dir, "nbsp.jsonl");
    writeFileSync(path, transcript("échec: pid\u00a0{n} refusée"));
    const fromBytes = await findings(path, true);
    expect(fromBytes).toContain("21 generic_repeat critical 20");
    expect(fromBytes).toEqual(await findings(path, false));
  });

  it("does not depend on how the lines were decoded, whatever the white space and text around", async () => {
    const path = join(dir, "drift.jsonl");
    await fc.assert(
      fc.asyncProperty(driftingOutput, async (output) => {
        writeFileSync(path, transcript(output));
        expect(await findings(path, true)).toEqual(await findings(path, false));
      }),
      { numRuns: 60 },
    );
  });
});
