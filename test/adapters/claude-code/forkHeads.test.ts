/**
 * Claude Code forks whose first lines do not simply repeat their parent's (forks.ts): a copy that
 * begins after a compaction, a head whose first line or first call runs past 1 MB, and a fork whose
 * file sorts before its parent's. In each, a scan reads the fork with its parent, parent first, and
 * every call is replayed once across the two files.
 */
import { afterAll, describe, expect, it } from "vitest";
import { expandUnits } from "../../../src/adapters/discovery.js";
import { Conversation, projectFolder, removeProjectFolders, writeConversation } from "../../helpers/claudeCodeConversation.js";
import { analyzePaths, totalCalls, verdicts } from "../../helpers/inProcess.js";

afterAll(removeProjectFolders);

const PARENT = "7b1d0c3e-1111-4a2b-9c3d-00000000aa01";
const FORK = "9c4e1f20-2222-4a2b-9c3d-00000000bb02";
/** A fork's name that sorts before the parent's. */
const EARLY_FORK = "0a000000-2222-4a2b-9c3d-00000000bb02";
const OTHER = "5e5e5e5e-3333-4a2b-9c3d-00000000cc03";

/** A parent that loops on `npm test` (12 identical calls) after `start`. */
function loopingParent(start: (c: Conversation) => Conversation = (c) => c.prompt("Make the tests pass")): Conversation {
  const parent = start(new Conversation("7b1d0c3e"));
  for (let i = 1; i <= 12; i++) parent.bash(`toolu_01Lp${String(i).padStart(2, "0")}aBcDeFgHiJkLmNoPq`, "npm test", "1 failing");
  return parent;
}

/** The fork's own turn after its copy. */
const ownTurn = (fork: Conversation) => fork.prompt("Try a different approach").bash("toolu_01Fk01aBcDeFgHiJkLmNoPq", "git diff", "");

/** What a scan of the folder replays: the runs by session, and whether the findings are the parent's alone. */
async function replayed(dir: string, parentPath: string) {
  const analysis = await analyzePaths([dir]);
  return {
    calls: totalCalls(analysis),
    runs: analysis.runs.map((run) => [run.session, run.calls]),
    sameFindingsAsParent: JSON.stringify(verdicts(analysis)) === JSON.stringify(verdicts(await analyzePaths([parentPath]))),
  };
}

describe("a fork whose copy begins after a compaction", () => {
  // A build that copies from the compact boundary on may leave the boundary out: the fork then
  // begins with what followed it, the summary (here re-chained: no parent) or, in 2.1, the files the
  // compaction kept (attachments whose parent, the boundary, is not in the fork).
  it.each([
    ["the summary first, without a parent", [], (first: Record<string, unknown>) => void (first.parentUuid = null)],
    ["an attachment first, its parent the boundary", ["/home/dev/app/src/app.ts", "/home/dev/app/package.json"], () => undefined],
  ])("is read after its parent: %s", async (_shape, attachments, rechain) => {
    const dir = projectFolder();
    const parent = loopingParent();
    const boundary = parent.entries.length;
    parent.compaction(attachments).prompt("Go on");
    for (let i = 1; i <= 12; i++) parent.bash(`toolu_01Lq${String(i).padStart(2, "0")}aBcDeFgHiJkLmNoPq`, "npm run build", "error TS2345");
    const fork = ownTurn(new Conversation("9c4e1f20").continueFrom(parent, parent.entries.length, boundary + 1));
    rechain(fork.entries[0]!);
    const paths = { parent: writeConversation(dir, PARENT, parent), fork: writeConversation(dir, FORK, fork) };
    const other = writeConversation(dir, OTHER, new Conversation("5e5e5e5e").prompt("Unrelated").bash("toolu_01Ot01aBcDeFgHiJkLmNoPq", "ls", "a"));
    expect(await expandUnits([dir])).toEqual([[other], [paths.parent, paths.fork]]);
    const { calls, runs, sameFindingsAsParent } = await replayed(dir, paths.parent);
    expect(calls).toBe(12 + 12 + 1 + 1); // the parent's two loops, the fork's own call, the other session's
    expect(runs.filter(([session]) => session === FORK)).toEqual([[FORK, 1]]);
    expect(sameFindingsAsParent).toBe(true);
  });
});

describe("a fork whose head runs past 1 MB before its first call is whole", () => {
  it.each([
    ["a first prompt with a pasted screenshot of 1.5 MB", (c: Conversation) => c.promptWithImage("Why does the page look like this?", 1_500_000)],
    ["a first call that writes a file of 1.2 MB", (c: Conversation) => c.prompt("Generate the fixture").call("toolu_01Wr01aBcDeFgHiJkLmNoPq", "Write", { file_path: "/home/dev/app/big.json", content: "x".repeat(1_200_000) }, "ok")],
  ])("is read with its parent: %s", async (_shape, start) => {
    const dir = projectFolder();
    const parent = loopingParent(start);
    const shared = parent.entries.length;
    const fork = ownTurn(new Conversation("9c4e1f20").continueFrom(parent, shared));
    const paths = { parent: writeConversation(dir, PARENT, parent), fork: writeConversation(dir, FORK, fork) };
    expect(await expandUnits([dir])).toEqual([[paths.parent, paths.fork]]);
    const { calls, runs } = await replayed(dir, paths.parent);
    const parentCalls = runs.filter(([session]) => session === PARENT).reduce((sum, [, n]) => sum + (n as number), 0);
    expect(calls).toBe(parentCalls + 1);
    expect(runs.filter(([session]) => session === FORK)).toEqual([[FORK, 1]]);
  });
});

describe("a fork whose file sorts before its parent's", () => {
  const lint = (c: Conversation) => c.prompt("Now run the linter").bash("toolu_01Ln01aBcDeFgHiJkLmNoPq", "npm run lint", "ok");

  /** The parent and a fork of its first `shared` entries (`copiedSession`: the session id the copies keep), the fork's file sorting first. */
  async function sortingFirst(parent: Conversation, shared: number, copiedSession?: string) {
    const dir = projectFolder();
    const fork = ownTurn(new Conversation("9c4e1f20").continueFrom(parent, shared, 0, copiedSession));
    const paths = { fork: writeConversation(dir, EARLY_FORK, fork), parent: writeConversation(dir, PARENT, parent) };
    return { paths, units: await expandUnits([dir]), ...(await replayed(dir, paths.parent)) };
  }

  it("is read after it when its copies keep the parent's session id (builds that did not stamp them), though both went on", async () => {
    const parent = loopingParent();
    const shared = parent.entries.length;
    const { paths, units, calls, runs, sameFindingsAsParent } = await sortingFirst(lint(parent), shared, PARENT);
    expect(units).toEqual([[paths.parent, paths.fork]]);
    expect(calls).toBe(14);
    expect(runs).toEqual([
      [PARENT, 12],
      [PARENT, 1],
      [EARLY_FORK, 1],
    ]);
    expect(sameFindingsAsParent).toBe(true);
  });

  it("is read after it when the parent ended where the fork began (the fork holds its last entry)", async () => {
    const parent = loopingParent().say("Still failing: 1 test.");
    const { paths, units, calls, runs, sameFindingsAsParent } = await sortingFirst(parent, parent.entries.length);
    expect(units).toEqual([[paths.parent, paths.fork]]);
    expect(calls).toBe(13);
    expect(runs).toEqual([
      [PARENT, 12],
      [EARLY_FORK, 1],
    ]);
    expect(sameFindingsAsParent).toBe(true);
  });

  it("keeps scan order when both went on past the fork and nothing names the parent: every call is still replayed once", async () => {
    const parent = loopingParent();
    const shared = parent.entries.length;
    const { paths, units, calls } = await sortingFirst(lint(parent), shared);
    expect(units).toEqual([[paths.fork, paths.parent]]);
    expect(calls).toBe(14);
  });
});
