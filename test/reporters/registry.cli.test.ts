/**
 * The reporter registry (src/reporters/index.ts) is the one list of `--format` choices: the help, the
 * man page and every shell's completion list each format in it, the CI formats included, with no
 * other list kept by hand. The names are read from formatNames.ts (so that the CLI declares its flags
 * without loading the reporters): each command's reporters are exactly those, in their order.
 */
import { describe, expect, it } from "vitest";
import { FORMAT_NAMES, TIMELINE_FORMATS, type ReportCommand } from "../../src/reporters/formatNames.js";
import { REPORT_FORMATS, REPORTERS } from "../../src/reporters/index.js";
import { runMain } from "../helpers/cli.js";

const quoted = (formats: readonly string[]) => formats.map((f) => `"${f}"`).join(", ");

describe("the --format choices", () => {
  it("are each command's reporters, in the registry's order; the timeline formats are those whose reporter needs timelines", () => {
    for (const command of Object.keys(REPORTERS) as ReportCommand[]) {
      expect(Object.keys(REPORTERS[command]), command).toEqual(FORMAT_NAMES[command]);
      const timelines = Object.entries(REPORTERS[command]).filter(([, reporter]) => "needs" in reporter && reporter.needs?.timelines === true);
      expect(timelines.map(([format]) => format), command).toEqual(command === "analyze" ? [...TIMELINE_FORMATS] : []);
    }
    expect(Object.keys(FORMAT_NAMES)).toEqual(Object.keys(REPORTERS));
  });

  it("include the CI formats", () => {
    for (const format of ["sarif", "junit", "gitlab", "github"]) expect(REPORT_FORMATS).toContain(format);
  });

  it("are the registry's, in its order, in the help and the man page", async () => {
    // The help wraps its lines: read as words.
    const help = (await runMain(["analyze", "--help"])).stdout.replace(/\s+/g, " ");
    expect(help).toContain(`(choices: ${quoted(REPORT_FORMATS)}, default: "table")`);
    const man = (await runMain(["man"])).stdout;
    expect(man).toContain(`(choices: ${quoted(REPORT_FORMATS)}, default: "table")`);
  });

  it("are the registry's in every shell's completion", async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const script = (await runMain(["completion", shell])).stdout;
      expect(script, shell).toContain(REPORT_FORMATS.join(" "));
    }
  });

  it("accept each format, and refuse one not in the registry", async () => {
    for (const format of REPORT_FORMATS) expect((await runMain(["analyze", "-f", format, "fixtures/healthy.jsonl"])).status, format).toBe(0);
    const refused = await runMain(["analyze", "-f", "xunit", "fixtures/healthy.jsonl"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`Allowed choices are ${REPORT_FORMATS.join(", ")}.`);
  });
});
