/** When inotify cannot watch (the watch limit reached: ENOSPC), the watcher polls, said once. */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const watch = () => {
    throw Object.assign(new Error("ENOSPC: System limit for number of file watchers reached"), { code: "ENOSPC" });
  };
  return { ...fs, watch, default: { ...fs, watch } };
});

const { watchTargets } = await import("../../src/pipeline/watch/treeWatcher.js");

const dir = mkdtempSync(join(tmpdir(), "looplens-fallback-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("tree watcher fallback", () => {
  it("polls with a notice naming fs.inotify.max_user_watches, and still sees changes", async () => {
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
});
