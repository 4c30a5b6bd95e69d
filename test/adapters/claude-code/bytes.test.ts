/**
 * Claude Code lines read from their bytes (the replay path: arguments and results stay UTF-8 byte
 * strings for hashing, io/jsonBytes.ts) give the verdicts and runs of the same lines read as text,
 * with non-ASCII text, `\u` escapes and an unknown tool whose name is not ASCII.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sameFromBytesAndText, verdicts } from "../../helpers/inProcess.js";
import { tempDir } from "../../helpers/tempDir.js";

const SESSION = "5a2e8c1d-4b3f-4e6a-9d7c-00000000e5e5";

function transcript(): string {
  const lines: string[] = [];
  let n = 0;
  let parent: string | null = null;
  const push = (fields: Record<string, unknown>) => {
    const uuid = `5a2e8c1d-${String(++n).padStart(4, "0")}-4000-8000-000000000000`;
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, userType: "external", cwd: "/home/dév", sessionId: SESSION, version: "2.0.24", type: "user", ...fields, uuid, timestamp: `2026-03-01T09:00:${String(n % 60).padStart(2, "0")}.000Z` }));
    parent = uuid;
  };
  const call = (id: string, name: string, input: unknown, content: string, isError = false) => {
    push({ type: "assistant", requestId: `req_${id}`, message: { id: `msg_${id}`, role: "assistant", content: [{ type: "tool_use", id, name, input }] } });
    push({ message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] }, toolUseResult: isError ? `Error: ${content}` : { stdout: content, stderr: "", interrupted: false, isImage: false, durationMs: n } });
  };
  push({ message: { role: "user", content: "Réparer les tests 🚀" } });
  for (let i = 0; i < 12; i++) call(`toolu_a${i}`, "Bash", { command: "npm test — café" }, "1 échec ✗ 数据");
  push({ message: { role: "user", content: "Déployer" } });
  for (let i = 0; i < 11; i++) call(`toolu_b${i}`, "Déployer", { cible: "prod" }, "<tool_use_error>Error: No such tool available: Déployer</tool_use_error>", true);
  // the same call written with \u escapes is the same call
  lines.push(lines.at(-2)!.replaceAll("toolu_b10", "toolu_c1").replace(/"cible":"prod"/, '"cible":"pr\\u006fd"'));
  lines.push(lines.at(-2)!.replaceAll("toolu_b10", "toolu_c1").replace("Déployer</tool_use_error>", "D\\u00e9ployer</tool_use_error>"));
  return lines.join("\n") + "\n";
}

describe("Claude Code lines read from their bytes", () => {
  it("give the findings and runs of the lines read as text", async () => {
    const path = join(tempDir("looplens-cc-bytes-"), `${SESSION}.jsonl`);
    writeFileSync(path, transcript());
    const { fromBytes, fromText, detectors } = await sameFromBytesAndText([path]);
    expect(detectors).toEqual(new Set(["generic_repeat", "unknown_tool_repeat"]));
    expect(fromBytes.runs.map((run) => run.calls)).toEqual([12, 12]);
    expect(fromBytes.lines).toEqual(fromText.lines);
  });
});
