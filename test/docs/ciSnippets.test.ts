/**
 * docs/ci.md's snippets are what a user pastes into a CI config: each YAML block must parse, and
 * each looplens command in it (and in the shell block) must be one the CLI takes, with formats and
 * levels it knows, so that the page cannot drift from the tool.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatsOf } from "../../src/reporters/index.js";

const DOC = readFileSync(new URL("../../docs/ci.md", import.meta.url), "utf8");
const blocks = (language: string) => [...DOC.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
const commands = [...blocks("yaml"), ...blocks("sh")].flatMap((text) => [...text.matchAll(/npx looplens ([^\n#]*)/g)].map((m) => m[1]!.trim()));
const LEVELS = ["warning", "critical", "block", "abort"];

describe("docs/ci.md", () => {
  it("has a GitHub, a GitLab and a generic snippet, each YAML one parsing", () => {
    expect(DOC).toMatch(/## GitHub Actions/);
    expect(DOC).toMatch(/## GitLab CI/);
    expect(DOC).toMatch(/## Any other CI/);
    const yaml = blocks("yaml");
    expect(yaml.length).toBeGreaterThanOrEqual(3);
    for (const text of yaml) expect(() => parse(text)).not.toThrow();
  });

  it("uses only commands, formats and levels the CLI has", () => {
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) {
      const [sub, ...args] = command.split(/\s+/);
      expect(["analyze", "check"], command).toContain(sub);
      const format = args[args.indexOf("--format") + 1];
      if (args.includes("--format")) expect(formatsOf(sub as "analyze" | "check"), command).toContain(format);
      if (args.includes("--fail-on")) expect(LEVELS, command).toContain(args[args.indexOf("--fail-on") + 1]);
    }
  });

  it("names the GitLab report files the CI config uploads", () => {
    const gitlab = parse(blocks("yaml").find((text) => text.includes("codequality"))!) as { looplens: { script: string[]; artifacts: { reports: Record<string, string> } } };
    const written = gitlab.looplens.script.flatMap((line) => [...line.matchAll(/-o (\S+)/g)].map((m) => m[1]!));
    expect(written.sort()).toEqual(Object.values(gitlab.looplens.artifacts.reports).sort());
  });
});
