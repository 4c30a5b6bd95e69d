/**
 * `--format html` in a real browser: Debian's headless Chromium (scripts/browser.mjs drives it over
 * the DevTools protocol, no download) opens the page the CLI wrote and the DOM is checked against
 * the analysis: one card per run, one mark per call, the finding rows, compactions and guard windows;
 * the filter box hides runs; the Content-Security-Policy blocks nothing the page needs; and no script
 * of a hostile transcript runs. Chromium is a system program: without it these tests are skipped,
 * or fail under LOOPLENS_REQUIRE_SYSTEM_TESTS=1 (systemProgram.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { findingRows } from "../../src/pipeline/findingRows.js";
// @ts-expect-error: plain JavaScript, shared with scripts/screenshot.mjs
import { findChromium, launchBrowser } from "../../scripts/browser.mjs";
import { BASE_FIXTURES, runCli } from "../helpers/cli.js";
import { analyzePaths } from "../helpers/inProcess.js";
import { call, result, textResult, toJsonl, type EventLine } from "../helpers/events.js";
import { HOSTILE, HOSTILE_TOOLS, hostileTranscript } from "../reporters/htmlHostile.js";
import { requireProgram } from "../helpers/systemProgram.js";
import { tempDir } from "../helpers/tempDir.js";

interface Page {
  goto(url: string): Promise<void>;
  evaluate<T = unknown>(expression: string): Promise<T>;
  readonly messages: Array<{ kind: string; level: string; text: string }>;
}

let browser: { newPage(): Promise<Page>; close(): Promise<void> };
let dir: string;

const chromium = requireProgram("chromium", { for: "the HTML report's browser tests", install: "apt-get install -y chromium, or set CHROMIUM_PATH", find: () => findChromium() });

beforeAll(async () => {
  if (chromium.path === null) return; // every test below is skipped (or fails, when required)
  dir = tempDir("looplens-browser-");
  browser = await launchBrowser({ executable: chromium.path });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** The CLI's page for these inputs, opened in a fresh tab. */
async function open(args: readonly string[], name: string): Promise<Page> {
  const out = runCli(["analyze", ...args, "--format", "html"]);
  expect(out.status, out.stderr).toBe(0);
  const file = join(dir, `${name}.html`);
  writeFileSync(file, out.stdout);
  const page = await browser.newPage();
  await page.goto(pathToFileURL(file).href);
  return page;
}

/** Nothing the page needs was refused, and it threw nothing. */
async function expectCleanConsole(page: Page): Promise<void> {
  expect(await page.evaluate("window.__cspViolations")).toEqual([]);
  expect(page.messages.filter((m) => m.level === "error" || /Content Security Policy/i.test(m.text))).toEqual([]);
}

const filterRuns = (page: Page, query: string) =>
  page.evaluate<number>(`(() => {
    const box = document.querySelector("input.filter");
    box.value = ${JSON.stringify(query)};
    box.dispatchEvent(new Event("input"));
    return [...document.querySelectorAll("section.run")].filter((card) => !card.hidden).length;
  })()`);

chromium.describe("the fixtures' page", () => {
  it("draws one card per run with findings, one mark per call, the finding rows, compactions and guard windows", async () => {
    const page = await open(BASE_FIXTURES, "fixtures");
    const analysis = await analyzePaths(BASE_FIXTURES);
    const expected = analysis.runs.filter((run) => run.findings.length > 0 || run.recordedVetoes > 0);
    const cards = await page.evaluate<Array<{ id: string; calls: number; rows: number; compactions: number; guards: number; marked: string[] }>>(`
      [...document.querySelectorAll("section.run")].map((card) => ({
        id: card.querySelector("h2 .id").textContent.replace(/^run /, ""),
        calls: card.querySelectorAll("rect.call").length,
        rows: card.querySelectorAll("tr.finding-row").length,
        compactions: card.querySelectorAll("line.compaction").length,
        guards: card.querySelectorAll("rect.guard").length,
        marked: [...card.querySelectorAll("rect.finding title")].map((t) => t.textContent),
      }))`);
    expect(cards.map((card) => card.id).sort()).toEqual(expected.map((run) => run.run).sort());
    for (const run of expected) {
      const card = cards.find((c) => c.id === run.run)!;
      expect(card.calls).toBe(run.calls);
      expect(card.rows).toBe(findingRows(run.findings, false).length);
      expect(card.compactions).toBe(run.compactions);
      expect(card.guards).toBe(run.guardWindows.length);
      // The finding marks cover exactly the calls with findings.
      const covered = card.marked.flatMap((title) => {
        const [, from, to] = /^calls? (\d+)(?:-(\d+))?:/.exec(title)!;
        return Array.from({ length: Number(to ?? from) - Number(from) + 1 }, (_, i) => Number(from) + i);
      });
      expect(covered).toEqual([...new Set([...run.findings].map((f) => f.call))].sort((a, b) => a - b));
    }
    // Worst first: the aborted run leads.
    expect(cards[0]!.id).toBe(expected.find((run) => run.firstStop?.kind === "abort")!.run);
    await expectCleanConsole(page);
  });

  it("the filter box hides the runs that do not match, and shows them again", async () => {
    const page = await open(BASE_FIXTURES, "filter");
    const all = await filterRuns(page, "");
    expect(all).toBeGreaterThan(2);
    expect(await filterRuns(page, "command_status")).toBe(1);
    expect(await page.evaluate("document.querySelector('.toolbar .count').textContent")).toBe(`1 of ${all} runs shown`);
    expect(await filterRuns(page, "no such run")).toBe(0);
    expect(await filterRuns(page, "")).toBe(all);
  });
});

chromium.describe("a hostile transcript's page", () => {
  it("runs none of its script and shows its strings as plain text", async () => {
    const file = join(dir, "hostile.jsonl");
    writeFileSync(file, hostileTranscript());
    const page = await open([file], "hostile");
    expect(await page.evaluate("typeof window.__pwned")).toBe("undefined");
    // Only the page's own elements: its two scripts, no image, link, frame or foreign SVG.
    expect(await page.evaluate("document.querySelectorAll('script').length")).toBe(2);
    expect(await page.evaluate("document.querySelectorAll('img, a, iframe, object, embed, svg [onload], [onerror]').length")).toBe(0);
    expect(await page.evaluate("document.querySelectorAll('section.run').length")).toBe(3);
    const tools = await page.evaluate<string[]>("[...document.querySelectorAll('tr.finding-row td:nth-child(3)')].map((td) => td.textContent)");
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(HOSTILE_TOOLS).toContain(tool);
    expect(tools).toContain(HOSTILE.handler);
    const text = await page.evaluate<string>("document.body.textContent");
    expect(text).toContain(HOSTILE.script);
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    await expectCleanConsole(page);
  });
});

chromium.describe("a page of many runs", () => {
  it("draws the worst 200, lists the rest, and the filter searches both", async () => {
    const lines: EventLine[] = [];
    for (let r = 0; r < 260; r++) {
      const run = `run-${r}`;
      const calls = r % 50 === 7 ? 12 : 2;
      for (let i = 0; i < calls; i++) lines.push(call(run, `c${i}`, "exec", { cmd: "make" }), result(run, `c${i}`, "exec", textResult("failed")));
    }
    const file = join(dir, "many.jsonl");
    writeFileSync(file, toJsonl(lines));
    const page = await open([file, "--all"], "many");
    expect(await page.evaluate("document.querySelectorAll('section.run').length")).toBe(200);
    expect(await page.evaluate("document.querySelectorAll('tr.listed-row').length")).toBe(60);
    // The six runs that looped are drawn first.
    expect(await page.evaluate("[...document.querySelectorAll('section.run h2 .id')].slice(0, 6).map((e) => e.textContent)")).toEqual([7, 57, 107, 157, 207, 257].map((r) => `run run-${r}`));
    expect(await filterRuns(page, "run-259")).toBe(0);
    expect(await page.evaluate("document.querySelectorAll('tr.listed-row').length")).toBe(1);
    await expectCleanConsole(page);
  });
});
