/**
 * What a watcher of files and folders is, whichever way it is told of changes (treeWatcher.ts's
 * inotify, pollingWatcher.ts's polling): what it watches, what it tells, and what it gives. Its own
 * module, so that each way names it without importing the other.
 */
export interface WatchTarget {
  /** A folder, watched with everything below it, or a file, watched through its folder. */
  readonly path: string;
  readonly kind: "tree" | "file";
}

export interface TreeWatchOptions {
  /** Poll every this many ms instead of using inotify (`--poll MS`). */
  readonly pollMs?: number;
  /** The interval when polling is the fallback. */
  readonly fallbackPollMs: number;
  /** Whether a file's changes matter (an input file, a store's write-ahead log). */
  readonly interesting: (path: string) => boolean;
  /** A file that may have changed, appeared or gone (or a new folder's files). */
  readonly onChange: (path: string) => void;
  /** Everything may have changed unseen (after a burst, or the slow rescan): look again. */
  readonly onRescan: () => void;
  readonly onNotice: (text: string) => void;
}

export interface TreeWatcher {
  readonly mode: "inotify" | "polling";
  readonly folders: number;
  /**
   * What the watched folders' stats say now, as one string: adding, removing or renaming an entry
   * changes its folder's modification time, so an equal string means no folder changed in between.
   */
  folderMarks(): string;
  close(): void;
}
