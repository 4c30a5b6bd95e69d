/** The `-o` file replaced whole or not at all (reportFile.ts). */
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openReportFile } from "../../src/pipeline/reportFile.js";
import { tempDir } from "../helpers/tempDir.js";

describe("openReportFile", () => {
  it("writes beside the file and replaces it on commit; the old file is untouched until then", () => {
    const dir = tempDir("looplens-report-file-");
    const path = join(dir, "report.txt");
    writeFileSync(path, "old\n");
    const file = openReportFile(path);
    file.write("new ");
    file.write("report\n");
    expect(readFileSync(path, "utf8")).toBe("old\n");
    expect(readdirSync(dir)).toHaveLength(2); // the report and its temporary file
    file.commit();
    expect(readFileSync(path, "utf8")).toBe("new report\n");
    expect(readdirSync(dir)).toEqual(["report.txt"]);
  });

  it("discard leaves the old file, or none where there was none", () => {
    const dir = tempDir("looplens-report-file-");
    const old = join(dir, "old.txt");
    writeFileSync(old, "old\n");
    const replaced = openReportFile(old);
    replaced.write("half a report");
    replaced.discard();
    const fresh = openReportFile(join(dir, "fresh.txt"));
    fresh.write("half a report");
    fresh.discard();
    expect(readdirSync(dir)).toEqual(["old.txt"]);
    expect(readFileSync(old, "utf8")).toBe("old\n");
  });

  it("a dangling link is replaced by the report", () => {
    const dir = tempDir("looplens-report-file-");
    const link = join(dir, "latest.txt");
    symlinkSync(join(dir, "gone.txt"), link);
    const file = openReportFile(link);
    file.write("report\n");
    file.commit();
    expect(readFileSync(link, "utf8")).toBe("report\n");
    expect(existsSync(join(dir, "gone.txt"))).toBe(false);
  });

  it("a folder that does not exist fails at once, naming the path", () => {
    const path = join(tempDir("looplens-report-file-"), "no", "report.txt");
    expect(() => openReportFile(path)).toThrow(`cannot write the report to ${path}: ENOENT`);
  });
});
