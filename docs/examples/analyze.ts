import { analyze, format, InputError, type Finding } from "looplens";

// Paths as on the command line; options by the CLI's names.
const report = await analyze(["fixtures/ping-pong.jsonl", "fixtures/healthy.jsonl"], {
  set: { criticalThreshold: 15 },
});

// The report is the `--format json` document, typed.
const blocked = report.runs.filter((run) => run.firstStop?.kind === "critical");
const pingPong: Finding[] = report.runs.flatMap((run) => run.findings).filter((f) => f.detector === "ping_pong");
console.log(`${report.summary.runs} runs, ${blocked.length} blocked, first ping-pong at call ${pingPong[0]?.call}`);

// Any output format, written by the CLI's own reporters.
const markdown: string = format(report, "markdown");
console.log(markdown.split("\n")[0]); // ## looplens report

// Errors are typed, with the CLI's messages.
try {
  await analyze("fixtures/no-such-file.jsonl");
} catch (error) {
  if (!(error instanceof InputError)) throw error;
  console.log(error.message); // cannot read fixtures/no-such-file.jsonl: …
}
