/**
 * `looplens config`: the effective configuration (after file, agent override, `--set`, clamping),
 * where each value came from, and the notices. The notices are this command's output, so they go to
 * stdout with the rest (other commands print them on stderr).
 */
import { Option, type Command } from "commander";
import { configReportJson, configReportTable, type ConfigReport } from "../reporters/configReport.js";
import { addConfigOptions, useColor, type CommonOptions, type Io } from "./common.js";
import { addOutputOptions, withOutput } from "./output.js";
import { createConfigResolver } from "../pipeline/configResolution.js";
import { EXIT } from "../pipeline/errors.js";

interface ConfigCommandOptions extends CommonOptions {
  format: "table" | "json";
}

export async function runConfig(options: ConfigCommandOptions, io: Io, version: string): Promise<number> {
  const resolver = await createConfigResolver(options, io.env);
  const override = resolver.overrideFor(null);
  // Without --agent, every override in the file is still checked, so its notices are not hidden.
  if (options.agent === undefined) for (const block of resolver.file?.agents.values() ?? []) resolver.effectiveFor(block.id);
  const report: ConfigReport = {
    version,
    effective: resolver.base.config,
    sources: resolver.base.sources,
    notices: resolver.notices(),
    file: resolver.file?.path ?? null,
    agent: options.agent ?? null,
    override: override ? { agent: override.id, where: override.where } : null,
    agentsWithOverrides: [...(resolver.file?.agents.values() ?? [])].map((block) => block.id),
    usesLooplensDefault: resolver.usesLooplensDefault,
    ...(options.profile !== undefined && { profile: options.profile }),
  };
  io.stdout(options.format === "json" ? configReportJson(report) : configReportTable(report, useColor(options, io), io.columns));
  return EXIT.ok;
}

export function registerConfig(program: Command, io: Io, version: string, run: (work: () => Promise<number>) => Promise<void>): void {
  const command = program
    .command("config")
    .description("print the effective configuration (file, agent override, --set, clamping) and where each value came from")
    .addOption(new Option("-f, --format <format>", "output format").choices(["table", "json"]).default("table"));
  addOutputOptions(command);
  addConfigOptions(command);
  command.action((options: ConfigCommandOptions) => run(() => withOutput(io, options, (out) => runConfig(options, out, version))));
}
