/** `looplens explain`'s flags and help; what it runs (explain.ts) is loaded when it runs (cli.ts). */
import { InvalidArgumentError, Option, type Command } from "commander";
import { formatsOf } from "../reporters/formatNames.js";
import { addConfigOptions, addInputOptions, type CommandRunner, type Io } from "./common.js";
import type { ExplainOptions } from "./explain.js";

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError("a call number from 1");
  return n;
}

export function registerExplain(program: Command, io: Io, version: string, run: CommandRunner): void {
  const command = program
    .command("explain")
    .description("show the window of calls the detector counted for the finding at a place")
    .argument("<file:line>", "a finding's place as the report shows it (file:line); or a file, with --call")
    .option("--run <run>", "the run of the finding (when the file holds several runs)")
    .option("--call <n>", "the finding's call number in its run (the report's call column)", positiveInteger)
    .addOption(new Option("-f, --format <format>", "output format").choices(formatsOf("explain")).default("table"));
  addConfigOptions(command);
  addInputOptions(command);
  command.addHelpText(
    "after",
    `
Examples:
  looplens explain fixtures/poll-loop.jsonl:42
  looplens explain session.jsonl --run r1 --call 21
  looplens explain fixtures/poll-loop.jsonl:42 --profile newest -f json

Replays the file as analyze does (same --config/--set/--profile/--agent) and prints, for each
finding at that place, the calls its detector counted: the run's history records before the
judged call (or, for compaction_loop_persisted, the post-compaction guard's window). Arguments
are lettered A (the judged call's), B, C…; results x (the one counted), y, z…; ● marks the calls
the count took, and the count column shows it climbing to the threshold. A place that holds no
finding exits 2, naming the nearest findings.
`,
  );
  command.action((location: string, options: ExplainOptions) => run(async () => (await import("./commandWork.js")).runExplain(location, options, io, version)));
}
