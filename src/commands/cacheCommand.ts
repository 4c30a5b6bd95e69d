/** `looplens cache info|clear`'s help; what they do (cache.ts) is loaded when they run (cli.ts). */
import type { Command } from "commander";
import { DEFAULT_CACHE_MAX_MB } from "../pipeline/cache/cacheSetup.js";
import type { CommandRunner, Io } from "./common.js";

export function registerCache(program: Command, io: Io, run: CommandRunner): void {
  const cache = program
    .command("cache")
    .description(`the result cache of analyze and sweep ($LOOPLENS_CACHE_DIR, else $XDG_CACHE_HOME/looplens, else ~/.cache/looplens; at most $LOOPLENS_CACHE_MAX_MB, default ${DEFAULT_CACHE_MAX_MB})`);
  cache
    .command("info")
    .description("where the cache is, how many entries it holds and how large it is, and how often it was used")
    .action(() => run(async () => (await import("./commandWork.js")).cacheInfo(io)));
  cache
    .command("clear")
    .description("remove every entry of the cache")
    .action(() => run(async () => (await import("./commandWork.js")).clearCacheFolder(io)));
}
