/**
 * Polling (`--poll MS`, or when inotify cannot watch every folder: treeWatcher.ts): each interval,
 * every folder of the targets listed and each interesting file stat'ed, a change told as inotify's
 * would be. Also what the watched folders' stats say (`marksOf`), which both watchers give.
 */
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { TreeWatcher, TreeWatchOptions, WatchTarget } from "./watcher.js";

/** `folderMarks` of these folders. */
export function marksOf(folders: Iterable<string>): string {
  let marks = "";
  for (const folder of folders) {
    try {
      const info = statSync(folder);
      marks += `${folder}\u0000${info.ino}:${info.mtimeMs}\n`;
    } catch {
      marks += `${folder}\u0000-\n`;
    }
  }
  return marks;
}

/** Every folder of a tree (the tree's root first); unreadable ones are left out. */
function foldersOf(root: string, into: string[] = []): string[] {
  into.push(root);
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return into;
  }
  for (const entry of entries) if (entry.isDirectory()) foldersOf(join(root, entry.name), into);
  return into;
}

function filesIn(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(folder, entry.name));
  } catch {
    return [];
  }
}

export class PollingWatcher implements TreeWatcher {
  readonly mode = "polling";
  private readonly timer: ReturnType<typeof setInterval>;
  private seen = new Map<string, string>();
  private folderList: string[] = [];

  constructor(
    private readonly targets: readonly WatchTarget[],
    private readonly options: TreeWatchOptions,
    intervalMs: number,
  ) {
    this.seen = this.look();
    this.timer = setInterval(() => this.poll(), intervalMs);
  }

  get folders(): number {
    return this.folderList.length;
  }

  folderMarks(): string {
    return marksOf(this.folderList);
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** Every interesting file's stat now, as a short string to compare. */
  private look(): Map<string, string> {
    const now = new Map<string, string>();
    const folders: string[] = [];
    for (const target of this.targets) {
      const list = target.kind === "file" ? [dirname(target.path)] : foldersOf(target.path);
      folders.push(...list);
      for (const folder of list) {
        for (const file of filesIn(folder)) {
          if (!this.options.interesting(file)) continue;
          try {
            const info = statSync(file);
            now.set(file, `${info.ino}:${info.size}:${info.mtimeMs}`);
          } catch {
            // gone between the listing and the stat: seen gone next time
          }
        }
      }
    }
    this.folderList = folders;
    return now;
  }

  private poll(): void {
    const now = this.look();
    for (const [file, stamp] of now) if (this.seen.get(file) !== stamp) this.options.onChange(file);
    for (const file of this.seen.keys()) if (!now.has(file)) this.options.onChange(file);
    this.seen = now;
  }
}

