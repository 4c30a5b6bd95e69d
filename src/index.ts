/**
 * looplens as a library (docs/api.md): `analyze` gives the report `looplens analyze --format json`
 * prints, as typed data; `format` writes it in any output format; errors are the CLI's, typed.
 */
export { analyze, replay } from "./api/analyze.js";
export { format } from "./api/format.js";
export { loadConfig } from "./api/config.js";
export { loopMatchers, reportFindings } from "./api/matchers.js";
export type { LoopFindingQuery, MatcherResult, NoLoopFindingsOptions } from "./api/matchers.js";
export { InputError } from "./adapters/io/lineSource.js";
export { ConfigError } from "./adapters/openclaw/configFile.js";
export { UsageError } from "./pipeline/errors.js";
export type * from "./api/types.js";
