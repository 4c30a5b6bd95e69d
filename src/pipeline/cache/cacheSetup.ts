/**
 * Where the result cache lives and how large it may grow (watch.md §2), as plain data that crosses
 * to worker threads: `$LOOPLENS_CACHE_DIR`, else `$XDG_CACHE_HOME/looplens`, else
 * `~/.cache/looplens`; at most `$LOOPLENS_CACHE_MAX_MB` megabytes (default 256), least recently used
 * entries evicted past it.
 *
 * The build identity is part of every key: the package version, the cache's own format number, the
 * Node version (entries hold V8-serialized data), and a hash of the running program itself, so that a
 * development build whose version did not move never answers with an older build's results.
 */
import { readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ByteHasher } from "./byteHash.js";

/** Bumped whenever what an entry holds, or how it is written, changes. */
export const CACHE_FORMAT = 3;

export const DEFAULT_CACHE_MAX_MB = 256;

export interface CacheSetup {
  readonly dir: string;
  readonly maxBytes: number;
  /** looplens's identity (see the module comment): entries of another build are never read. */
  readonly build: string;
  /** Entries may be written (false once the folder was found not writable, or for a read-only use). */
  readonly write: boolean;
  /** Tests only: how recent a file's status change makes its stamp racy (fileStamps.ts), in ns. */
  readonly racyNs?: string;
  /** Tests only: one-file units of at least this many bytes keep a point to resume from (resumeEntry.ts). */
  readonly resumeMinBytes?: number;
}

export function cacheFolder(env: NodeJS.ProcessEnv): string {
  const explicit = env.LOOPLENS_CACHE_DIR?.trim();
  if (explicit) return explicit;
  const xdg = env.XDG_CACHE_HOME?.trim();
  // XDG: a relative path is invalid and is ignored.
  if (xdg && xdg.startsWith("/")) return join(xdg, "looplens");
  return join(env.HOME || homedir(), ".cache", "looplens");
}

/** The size limit in bytes; a value that is not a positive number is the default (said by `cache info`). */
export function cacheLimit(env: NodeJS.ProcessEnv): number {
  const text = env.LOOPLENS_CACHE_MAX_MB?.trim();
  const mb = text !== undefined && /^\d+(\.\d+)?$/.test(text) && Number(text) > 0 ? Number(text) : DEFAULT_CACHE_MAX_MB;
  return Math.round(mb * 1_000_000);
}

let programDigest: string | undefined;

/**
 * A hash of the file this code runs from and of the names of the CLI bundle's chunks beside it. The
 * bundle is split (scripts/bundle.mjs: dist/bundle/cli.js and cli-*.js); a chunk's name is a hash
 * of its content, so a change in any part of the CLI changes a name here even when this file's
 * bytes stay the same. (Unbundled, dist/: this module's file alone, as before the split.)
 */
function runningProgram(hasher: ByteHasher): string {
  if (programDigest !== undefined) return programDigest;
  try {
    const file = fileURLToPath(import.meta.url);
    const chunks = readdirSync(dirname(file)).filter((name) => /^cli-\w+\.js$/.test(name)).sort();
    programDigest = hasher.hash(Buffer.concat([readFileSync(file), Buffer.from(chunks.join("\n"))]));
  } catch {
    programDigest = "unknown";
  }
  return programDigest;
}

export function cacheSetup(env: NodeJS.ProcessEnv, version: string, hasher: ByteHasher): CacheSetup {
  const racy = env.LOOPLENS_CACHE_RACY_NS;
  const resumeMin = env.LOOPLENS_CACHE_RESUME_MIN_BYTES;
  return {
    dir: cacheFolder(env),
    maxBytes: cacheLimit(env),
    build: `${version}/${CACHE_FORMAT}/node-${process.versions.node}/${runningProgram(hasher)}`,
    write: true,
    ...(racy !== undefined && /^\d+$/.test(racy) && { racyNs: racy }),
    ...(resumeMin !== undefined && /^\d+$/.test(resumeMin) && { resumeMinBytes: Number(resumeMin) }),
  };
}
