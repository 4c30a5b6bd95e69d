/**
 * The kept output of a command is keyed on the paths as typed and their folders' listing
 * (inputListing.ts), not on the units discovery makes: a warm hit does not run discovery, so a
 * file or folder added, removed, renamed or turned into another kind must still make it a miss,
 * and the output must be what looplens prints without the cache.
 */
import { cpSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readUsage } from "../../../src/pipeline/cache/cacheUsage.js";
import { tempDir } from "../../helpers/tempDir.js";
import { bothWays, makeInputs } from "./cacheBench.js";

describe("the kept output of a folder", () => {
  it("is not printed once a file or folder in it is added, removed, renamed or turned into a folder", async () => {
    const root = tempDir("looplens-cache-listing-");
    const inputs = makeInputs(root);
    const events = join(inputs, "events");
    const cacheDir = join(root, "cache");
    const args = ["analyze", "-f", "json", inputs];
    const expectSame = async (why: string) => {
      const { cached, fresh } = await bothWays(args, cacheDir);
      expect(cached.stdout, why).toBe(fresh.stdout);
      expect(cached.stderr, `${why} (stderr)`).toBe(fresh.stderr);
      expect(cached.status, `${why} (status)`).toBe(fresh.status);
    };
    const edits: ReadonlyArray<readonly [string, () => void]> = [
      ["a new file", () => cpSync("fixtures/ping-pong.jsonl", join(events, "zz-new.jsonl"))],
      ["a file deleted", () => rmSync(join(events, "zz-new.jsonl"))],
      ["a file renamed", () => renameSync(join(events, "poll-loop.jsonl"), join(events, "poll-renamed.jsonl"))],
      ["a new sub-folder", () => (mkdirSync(join(events, "sub")), cpSync("fixtures/generic-repeat.jsonl", join(events, "sub", "again.jsonl")))],
      ["a file turned into a folder", () => (rmSync(join(events, "healthy.jsonl")), mkdirSync(join(events, "healthy.jsonl")), cpSync("fixtures/poll-loop.jsonl", join(events, "healthy.jsonl", "inside.jsonl")))],
    ];
    await expectSame("cold");
    await expectSame("warm");
    expect(readUsage(cacheDir)?.last?.misses).toBe(0);
    for (const [what, edit] of edits) {
      edit();
      await expectSame(what);
      await expectSame(`${what}, warm`);
      expect(readUsage(cacheDir)?.last?.misses, `${what}, warm`).toBe(0);
    }
  }, 600_000);
});
