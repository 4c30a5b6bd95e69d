// OpenClaw Gateway logs for the benchmark (inputs.md §4): tslog JSON lines, ~420 B each, as the
// runtime writes them — runs opened and closed by `agent/embedded` lines with a tool start/end pair
// per call, chatter of other subsystems in between, and now and then a loop the live detectors
// reported (`agents/loop-detection`, the `agents/tools` echo, a `diagnostic` line).

const SUBSYSTEMS = ["gateway", "agent/embedded", "agents/loop-detection", "agents/tools", "diagnostic", "telegram", "cron"];
const hex = (n, width) => n.toString(16).padStart(width, "0");

/**
 * The lines of one Gateway log, until `targetBytes` are written. `shortRuns`: runs of at most one
 * call and no loop (a chat bot answering quick questions): many runs for their bytes, to show that
 * memory does not grow with the number of runs.
 */
export function* gatewayLines(r, targetBytes, progress, shortRuns = false) {
  let clock = Date.UTC(2026, 4, 2, 0);
  const line = (subsystem, message, level = "DEBUG") => {
    clock += r.int(5, 4000);
    const date = new Date(clock).toISOString();
    return {
      0: JSON.stringify({ subsystem }),
      1: message,
      _meta: {
        runtime: "node",
        runtimeVersion: "22.14.0",
        hostname: "gw-1",
        name: JSON.stringify({ subsystem }),
        parentNames: ["openclaw"],
        date,
        logLevelId: level === "DEBUG" ? 2 : 3,
        logLevelName: level,
        path: { fileName: "subsystem.js", fileLine: "88" },
      },
      time: date.replace("Z", "+00:00"),
    };
  };
  let runNo = 0;
  while (progress.bytes < targetBytes) {
    const runId = `${hex(runNo++, 6)}-run`;
    const sessionId = hex(r.int(0, 0xffffffff), 8);
    yield line("agent/embedded", `embedded run start: runId=${runId} provider=anthropic model=claude-sonnet messageChannel=telegram`);
    const calls = shortRuns ? r.int(0, 1) : r.int(2, 30);
    const loopTool = !shortRuns && r.chance(0.1) ? r.pick(["process", "exec", "command_status"]) : undefined;
    for (let i = 0; i < calls; i++) {
      const tool = loopTool ?? r.pick(["read", "exec", "web_search", "edit", "message"]);
      const toolCallId = `toolu_${hex(runNo, 6)}${hex(i, 4)}`;
      yield line("agent/embedded", `embedded run tool start: runId=${runId} tool=${tool} toolCallId=${toolCallId}`);
      if (r.chance(0.2)) yield line(r.pick(SUBSYSTEMS.slice(5)), `delivered update ${r.int(0, 1e6)} to chat ${r.int(1, 99999)}`, "INFO");
      yield line("agent/embedded", `embedded run tool end: runId=${runId} tool=${tool} toolCallId=${toolCallId}`);
      if (loopTool !== undefined && i === 10) {
        yield line("agents/loop-detection", `Polling loop warning: ${tool} repeated 10 times`, "WARN");
        yield line("agents/tools", `Loop warning for ${tool}: WARNING: You have called ${tool} 10 times with identical arguments and no progress. Stop polling and either wait longer or report the task as failed.`, "WARN");
        yield line("diagnostic", `tool loop: sessionId=${sessionId} sessionKey=agent:main:main tool=${tool} level=warning action=warn detector=known_poll_no_progress count=10`, "WARN");
      }
    }
    yield line("agent/embedded", `embedded run done: runId=${runId} sessionId=${sessionId} durationMs=${r.int(1000, 90_000)} aborted=false`);
  }
}
