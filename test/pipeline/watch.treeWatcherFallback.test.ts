/** When inotify cannot watch (the watch limit reached: ENOSPC), the watcher polls, said once. */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** How many more folders inotify may watch before the limit (each test sets it). */
const limit = vi.hoisted(() => ({ left: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const watch = ((...args: Parameters<typeof fs.watch>) => {
    if (limit.left-- <= 0) throw Object.assign(new Error("ENOSPC: System limit for number of file watchers reached"), { code: "ENOSPC" });
    return fs.watch(...args);
  }) as typeof fs.watch;
  return { ...fs, watch, default: { ...fs, watch } };
});

const { watchTargets } = await import("../../src/pipeline/watch/treeWatcher.js");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "looplens-fallback-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("tree watcher fallback", () => {
  it("polls with a notice naming fs.inotify.max_user_watches, and still sees changes", async () => {
    limit.left = 0;
    writeFileSync(join(dir, "s.jsonl"), "{}\n");
    const notices: string[] = [];
    const changed: string[] = [];
    const watcher = watchTargets([{ path: dir, kind: "tree" }], {
      fallbackPollMs: 30,
      interesting: () => true,
      onChange: (path) => changed.push(path),
      onRescan: () => undefined,
      onNotice: (text) => notices.push(text),
    });
    try {
      expect(watcher.mode).toBe("polling");
      expect(notices).toEqual([expect.stringMatching(/^the inotify watch limit is reached \(fs\.inotify\.max_user_watches=\d+; sysctl raises it\): polling every 30 ms instead$/)]);
      appendFileSync(join(dir, "s.jsonl"), "{}\n");
      for (const end = Date.now() + 5000; !changed.includes(join(dir, "s.jsonl")) && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(changed).toContain(join(dir, "s.jsonl"));
    } finally {
      watcher.close();
    }
  });

  it("reached later, by a new folder: polls from then on, said once, looks again, and sees the new folder's files", async () => {
    limit.left = 1;
    const notices: string[] = [];
    const changed: string[] = [];
    let rescans = 0;
    const watcher = watchTargets([{ path: dir, kind: "tree" }], {
      fallbackPollMs: 30,
      interesting: () => true,
      onChange: (path) => changed.push(path),
      onRescan: () => rescans++,
      onNotice: (text) => notices.push(text),
    });
    try {
      expect(watcher.mode).toBe("inotify");
      mkdirSync(join(dir, "new"));
      for (const end = Date.now() + 5000; watcher.mode !== "polling" && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(watcher.mode).toBe("polling");
      expect(notices).toEqual([expect.stringMatching(/max_user_watches=\d+; sysctl raises it\): polling every 30 ms instead$/)]);
      expect(rescans).toBeGreaterThan(0);
      writeFileSync(join(dir, "new", "s.jsonl"), "{}\n");
      for (const end = Date.now() + 5000; !changed.includes(join(dir, "new", "s.jsonl")) && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(changed).toContain(join(dir, "new", "s.jsonl"));
    } finally {
      watcher.close();
    }
  });
});
