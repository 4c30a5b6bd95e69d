/**
 * `looplens config`: the effective configuration (after file, agent override, `--set`, clamping),
 * where each value came from, and the notices. The notices are this command's output, so they go to
 * stdout with the rest (other commands print them on stderr).
 */
import { REPORTERS } from "../reporters/index.js";
import type { CommonOptions, Io } from "./common.js";
import { useColor, type OutputOptions } from "./output.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { configCommandReport } from "../pipeline/configSummary.js";
import { EXIT } from "../pipeline/errors.js";

export interface ConfigCommandOptions extends CommonOptions, OutputOptions {
  format: string;
}

export async function runConfig(options: ConfigCommandOptions, io: Io, version: string): Promise<number> {
  const resolver = await createConfigResolver(options, io.env);
  io.stdout(REPORTERS.config[options.format]!(configCommandReport(resolver, options, version), { color: useColor(options, io), width: io.columns }));
  return EXIT.ok;
}
