/** Being told of changes (pipeline/watch/treeWatcher.ts): inotify per folder, new folders, polling. */
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { watchTargets } from "../../src/pipeline/watch/treeWatcher.js";
import type { TreeWatcher } from "../../src/pipeline/watch/watcher.js";

let dir: string;
let watcher: TreeWatcher | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-tree-"));
});
afterEach(() => {
  watcher?.close();
  watcher = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(test: () => boolean): Promise<void> {
  for (const end = Date.now() + 5000; !test(); await sleep(20)) if (Date.now() > end) throw new Error("timed out");
}

function watching(pollMs?: number) {
  const changed = new Set<string>();
  const notices: string[] = [];
  watcher = watchTargets([{ path: dir, kind: "tree" }], {
    ...(pollMs !== undefined && { pollMs }),
    fallbackPollMs: 50,
    interesting: (path) => path.endsWith(".jsonl"),
    onChange: (path) => changed.add(path),
    onRescan: () => undefined,
    onNotice: (text) => notices.push(text),
  });
  return { changed, notices };
}

describe("tree watcher", () => {
  for (const mode of ["inotify", "polling"] as const) {
    it(`${mode}: appends, new files, and files in a new folder (made before its watch was set) are told; other files are not`, async () => {
      mkdirSync(join(dir, "a"));
      writeFileSync(join(dir, "a", "s.jsonl"), "{}\n");
      const { changed } = watching(mode === "polling" ? 30 : undefined);
      expect(watcher!.mode).toBe(mode);
      appendFileSync(join(dir, "a", "s.jsonl"), "{}\n");
      await until(() => changed.has(join(dir, "a", "s.jsonl")));
      mkdirSync(join(dir, "b", "c"), { recursive: true });
      writeFileSync(join(dir, "b", "c", "t.jsonl"), "{}\n");
      writeFileSync(join(dir, "b", "sessions.json"), "{}");
      await until(() => changed.has(join(dir, "b", "c", "t.jsonl")));
      await sleep(100);
      expect([...changed].some((path) => path.endsWith("sessions.json"))).toBe(false);
      expect(watcher!.folders).toBeGreaterThanOrEqual(mode === "inotify" ? 4 : 1);
    });
  }

  for (const mode of ["inotify", "polling"] as const) {
    it(`${mode}: the folders' marks change when an entry is added or renamed in any of them, not for an append`, async () => {
      mkdirSync(join(dir, "a", "b"), { recursive: true });
      writeFileSync(join(dir, "a", "b", "s.jsonl"), "{}\n");
      watching(mode === "polling" ? 30 : undefined);
      const marks = () => watcher!.folderMarks();
      const before = marks();
      expect(before).toContain(join(dir, "a", "b"));
      appendFileSync(join(dir, "a", "b", "s.jsonl"), "{}\n");
      expect(marks()).toBe(before);
      // The folder's modification time is kept in ns, but moves on with the kernel's clock tick.
      await sleep(20);
      writeFileSync(join(dir, "a", "b", "t.jsonl"), "{}\n");
      const added = marks();
      expect(added).not.toBe(before);
      await sleep(20);
      renameSync(join(dir, "a", "b", "t.jsonl"), join(dir, "a", "b", "t.jsonl.reset.1"));
      expect(marks()).not.toBe(added);
    });
  }

  it("inotify: nested folders made by another process while the watch sets up their parents lose no file", async () => {
    const { changed } = watching();
    // `mkdir -p` makes each level right after the one above, often before the watch of the level
    // above is in place: a subfolder listed too early would never be watched, and its file not told.
    const trees = 400;
    const writer = spawn("sh", ["-c", `for i in $(seq 1 ${trees}); do mkdir -p "t$i/agents/main/sessions" && echo "{}" > "t$i/agents/main/sessions/s.jsonl"; done`], { cwd: dir, stdio: "ignore" });
    await new Promise((resolve) => writer.on("exit", resolve));
    const expected = Array.from({ length: trees }, (_, i) => join(dir, `t${i + 1}`, "agents", "main", "sessions", "s.jsonl"));
    await until(() => expected.every((path) => changed.has(path))).catch(() => undefined);
    expect(expected.filter((path) => !changed.has(path))).toEqual([]);
  });
});
