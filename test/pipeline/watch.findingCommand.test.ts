/** `--exec`'s runner (pipeline/watch/findingCommand.ts): a bounded queue, one at a time, in order. */
import { describe, expect, it } from "vitest";
import type { ReplayedFinding } from "../../src/core/findings.js";
import { FindingCommand } from "../../src/pipeline/watch/findingCommand.js";

const finding = (call: number): ReplayedFinding => ({
  run: "r1",
  agent: null,
  session: null,
  file: "a\u0000b.jsonl",
  line: call,
  call,
  tool: "read",
  detector: "generic_repeat",
  level: "critical",
  count: 20,
  threshold: { name: "criticalThreshold", value: 20 },
  afterStop: false,
  message: "m",
  argsHash: "h",
});

describe("finding command", () => {
  it("runs one command at a time in order; when the queue is full the oldest waiting one is dropped, said", async () => {
    const notices: string[] = [];
    let output = "";
    const command = new FindingCommand({
      command: process.execPath,
      args: ["-e", "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).call, process.env.LOOPLENS_FILE))"],
      timeoutMs: 10_000,
      queueLimit: 2,
      env: process.env,
      onNotice: (text) => notices.push(text),
      onOutput: (chunk) => (output += chunk.toString()),
    });
    for (let call = 1; call <= 5; call++) command.submit(finding(call), `${JSON.stringify({ call })}\n`);
    await command.drain();
    // 1 started at once; 2 and 3 were dropped as 4 and 5 came.
    expect(output.trim().split("\n").map((line) => line.split(" ")[0])).toEqual(["1", "4", "5"]);
    // A NUL (which no environment value can hold) comes out as U+FFFD.
    expect(output).toContain("a\ufffdb.jsonl");
    expect(notices).toEqual([
      "--exec: 2 commands waiting; dropped the one for r1 call 2 (generic_repeat critical)",
      "--exec: 2 commands waiting; dropped the one for r1 call 3 (generic_repeat critical)",
    ]);
    expect(command.counts).toEqual({ run: 3, failed: 0, dropped: 2 });
  });
});
