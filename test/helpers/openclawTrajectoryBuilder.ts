/** Writes OpenClaw trajectory lines (runtime and transcript events) as the recorder and exporter do. */

export class TrajectoryBuilder {
  private readonly lines: string[] = [];
  private seq = 0;
  private clock: number;

  constructor(
    readonly sessionId: string,
    readonly sessionKey: string,
    start = Date.parse("2026-05-02T14:00:00.000Z"),
  ) {
    this.clock = start;
  }

  /** A runtime event (what the live recorder writes). `seq` restarts with each attempt. */
  runtime(runId: string, type: string, data: Record<string, unknown> = {}): this {
    if (type === "session.started") this.seq = 0;
    return this.push({ source: "runtime", type, seq: ++this.seq, runId, provider: "openai", modelId: "gpt-5", data });
  }

  /** A transcript event (the exporter's copy of a session entry; no runId). */
  transcript(type: string, entryId: string, data: Record<string, unknown>): this {
    return this.push({ source: "transcript", type, seq: 0, entryId, data });
  }

  text(): string {
    return this.lines.map((line) => `${line}\n`).join("");
  }

  private push(fields: Record<string, unknown>): this {
    this.clock += 500;
    const { source, type, seq, ...rest } = fields;
    this.lines.push(
      JSON.stringify({
        traceSchema: "openclaw-trajectory",
        schemaVersion: 1,
        traceId: this.sessionId,
        source,
        type,
        ts: new Date(this.clock).toISOString(),
        seq,
        sessionId: this.sessionId,
        sessionKey: this.sessionKey,
        ...rest,
      }),
    );
    return this;
  }
}
