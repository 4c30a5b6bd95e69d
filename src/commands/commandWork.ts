/**
 * What the commands do past reading their flags, and analyze's work past its kept-output lookup:
 * imported by a command's action when it runs (the `*Command.ts` modules, analyze.ts), so that the
 * CLI's start-up, `--help`, `--version` and a kept output compile and evaluate none of it. One module
 * for all of them, so that the bundle splits in two (scripts/bundle.mjs): a chunk per command
 * would make a run load a dozen files, which costs more than it saves.
 */
export { analyzeAndReport } from "./analyzeReport.js";
export { cacheInfo, clearCacheFolder } from "./cache.js";
export { runCheck } from "./check.js";
export { runConfig } from "./config.js";
export { runEvents } from "./events.js";
export { runExplain } from "./explain.js";
export { runSweep } from "./sweep.js";
export { runWatch } from "./watch.js";
