/**
 * Being told when watched files change: kernel notifications (inotify), or polling.
 *
 * The watcher, by measurement (`node bench/watchers.mjs`, 2026-12-07, Node 20.20, 2 cores shared at
 * load ~5; 5,000 files; ready time / its CPU, RSS once ready, append → event p99):
 *   5,000 files in 5,050 nested folders: one non-recursive `fs.watch` per folder (one inotify watch
 *     each) with our own walk, 729 ms / 336 ms, 55 MB, p99 7.6 ms; Node 20's `fs.watch(dir,
 *     {recursive: true})`, which on Linux is JavaScript that walks the tree and keeps a watcher and a
 *     stat per file, 1,327 ms / 647 ms, 79 MB, 5.9 ms; chokidar 5.0.0 (pure JS, the newest that runs
 *     on Node 20), 2,446 ms / 2,433 ms, 184 MB, 21.7 ms;
 *   5,000 files in 10 folders (a state directory's shape): per folder 24 ms / 20 ms, 47 MB, 5.2 ms;
 *     recursive 315 ms / 281 ms, 67 MB, 15.4 ms; chokidar 1,635 ms / 1,331 ms, 120 MB, 123.8 ms, and
 *     0.5% CPU idle (the others 0.00%).
 * So no dependency: the per-folder watch is the cheapest at everything but one latency within noise.
 *
 * libuv drops the kernel's queue-overflow event (IN_Q_OVERFLOW, `fs.inotify.max_queued_events`),
 * so an overflow cannot be seen: after a burst of events (many thousands in a second) the watch
 * rescans everything once the burst is over, and a slow rescan runs anyway every RESCAN_MS. When a
 * folder cannot be watched (`fs.inotify.max_user_watches` reached: ENOSPC; EMFILE) or `--poll MS`
 * asks for it, every folder is polled instead: each file stat'ed every interval.
 */
import { readdirSync, readFileSync, statSync, watch, type FSWatcher } from "node:fs";
import { dirname, join } from "node:path";
import { marksOf, PollingWatcher } from "./pollingWatcher.js";
import type { TreeWatcher, TreeWatchOptions, WatchTarget } from "./watcher.js";

/** A burst of this many events in a second may have overflowed the kernel's queue. */
const BURST_EVENTS = 4096;
const BURST_QUIET_MS = 300;
export const RESCAN_MS = 60_000;

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

class InotifyWatcher implements TreeWatcher {
  readonly mode = "inotify";
  private readonly watchers = new Map<string, FSWatcher>();
  /** Folders watched for their own files only (a named file's folder), not for new subfolders. */
  private readonly flat = new Set<string>();
  /** Events counted in the second that began at `countedFrom` (no timer: an idle watch never wakes). */
  private events = 0;
  private countedFrom = 0;
  private burstTimer: ReturnType<typeof setTimeout> | undefined;

  /** Throws what fs.watch throws at the start (ENOSPC at the watch limit); later, `onLimit` is told. */
  constructor(
    targets: readonly WatchTarget[],
    private readonly options: TreeWatchOptions,
    private readonly onLimit: (error: unknown) => void,
  ) {
    for (const target of targets) if (target.kind === "file") this.flat.add(dirname(target.path));
    try {
      for (const target of targets) {
        if (target.kind === "file") this.watchFolder(dirname(target.path));
        else this.watchTree(target.path);
      }
    } catch (error) {
      for (const watcher of this.watchers.values()) watcher.close();
      throw error;
    }
  }

  get folders(): number {
    return this.watchers.size;
  }

  folderMarks(): string {
    return marksOf(this.watchers.keys());
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    if (this.burstTimer) clearTimeout(this.burstTimer);
  }

  private watchFolder(folder: string, inTree = false): void {
    if (inTree) this.flat.delete(folder);
    if (this.watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: true }, (_event, name) => this.onEvent(folder, name === null ? null : String(name)));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "EACCES" || code === "EPERM") return; // gone or closed to us: nothing to watch
      throw error;
    }
    watcher.on("error", () => {
      watcher.close();
      this.watchers.delete(folder);
      this.options.onRescan();
    });
    this.watchers.set(folder, watcher);
  }

  private onEvent(folder: string, name: string | null): void {
    this.countEvent();
    if (name === null) return this.options.onRescan();
    const path = join(folder, name);
    // A watched subfolder renamed or removed; a new subfolder of a tree.
    if (this.watchers.has(path)) return isFolder(path) ? undefined : this.folderGone(path);
    if (!this.flat.has(folder) && isFolder(path)) return this.folderAdded(path);
    if (this.options.interesting(path)) this.options.onChange(path);
  }

  /**
   * A folder and every folder below it watched, each watched before it is listed: a subfolder made
   * after its parent's watch starts is an event, one made before is in the listing. (Listed first,
   * a subfolder made between the listing and the watch was never seen: `mkdir -p a/b/c` and the
   * files written into c right after were lost, c not being watched.) Returns the folders' files.
   */
  private watchTree(root: string, files: string[] = []): string[] {
    this.watchFolder(root, true);
    let entries;
    try {
      entries = readdirSync(root, { withFileTypes: true });
    } catch {
      return files;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) this.watchTree(join(root, entry.name), files);
      else if (entry.isFile()) files.push(join(root, entry.name));
    }
    return files;
  }

  /** A new folder in a tree: watched, and the files already in it told (they may predate the watch). */
  private folderAdded(path: string): void {
    try {
      for (const file of this.watchTree(path)) if (this.options.interesting(file)) this.options.onChange(file);
    } catch (error) {
      this.onLimit(error);
    }
  }

  private folderGone(path: string): void {
    for (const [folder, watcher] of this.watchers) {
      if (folder === path || folder.startsWith(`${path}/`)) {
        watcher.close();
        this.watchers.delete(folder);
      }
    }
    this.options.onRescan();
  }

  private countEvent(): void {
    const now = Date.now();
    if (now - this.countedFrom >= 1000) {
      this.countedFrom = now;
      this.events = 0;
    }
    if (++this.events < BURST_EVENTS) return;
    // Past a burst's worth in a second, events may have been lost: look again once it is over.
    if (this.burstTimer) clearTimeout(this.burstTimer);
    this.burstTimer = setTimeout(() => {
      this.burstTimer = undefined;
      this.options.onRescan();
    }, BURST_QUIET_MS);
  }
}

/**
 * Watches the targets with inotify, or by polling when asked (`pollMs`) or when inotify cannot
 * watch them all, at the start or later as folders are added (said once, with the limit to raise).
 */
export function watchTargets(targets: readonly WatchTarget[], options: TreeWatchOptions): TreeWatcher {
  let current: TreeWatcher;
  const fallBack = (error: unknown) => {
    current?.close();
    options.onNotice(`${whyNoInotify(error)}: polling every ${options.fallbackPollMs} ms instead`);
    current = new PollingWatcher(targets, options, options.fallbackPollMs);
    // Whatever changed while inotify was failing is found by looking again.
    options.onRescan();
  };
  if (options.pollMs !== undefined) current = new PollingWatcher(targets, options, options.pollMs);
  else {
    try {
      current = new InotifyWatcher(targets, options, (error) => setImmediate(() => fallBack(error)));
    } catch (error) {
      fallBack(error);
    }
  }
  // The slow rescan beside either watcher: what a lost event missed is found within RESCAN_MS.
  const rescan = setInterval(() => options.onRescan(), RESCAN_MS);
  rescan.unref();
  return {
    get mode() {
      return current.mode;
    },
    get folders() {
      return current.folders;
    },
    folderMarks: () => current.folderMarks(),
    close() {
      clearInterval(rescan);
      current.close();
    },
  };
}

function whyNoInotify(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code ?? String(error);
  if (code !== "ENOSPC") return `inotify is not available (${code})`;
  let limit = "?";
  try {
    limit = readFileSync("/proc/sys/fs/inotify/max_user_watches", "utf8").trim();
  } catch {
    // not Linux, or no procfs: the limit goes unnamed
  }
  return `the inotify watch limit is reached (fs.inotify.max_user_watches=${limit}; sysctl raises it)`;
}
