// `npm run bench -- --usage`: what reading model usage (cost.md) costs analyze. The same
// `analyze --format ndjson` with usage read and with it off (LOOPLENS_USAGE=off: adapters skip the
// extraction and write no turn), alternating, median of --runs; the section of bench/RESULTS.md
// between its markers is replaced. Target: reading usage costs ≤ 5% of analyze's time. ndjson,
// whose lines are the same both ways (findings gain nothing), so that the figure is the reading and
// the accounting; `--format json` also writes three usage objects per run (its size is shown).
export const USAGE_START = "<!-- usage -->";
export const USAGE_END = "<!-- /usage -->";

/** Formats whose inputs record usage (the generators write it), each a folder analysed serially and with a worker. */
export const USAGE_SPECS = (scale) => [
  { name: "real state folder", format: "real", files: 48, fileMb: scale(3) },
  { name: "ASCII long outputs, one file", format: "session", ascii: true, files: 1, fileMb: scale(48) },
  { name: "tiny entries, one file", format: "tiny", files: 1, fileMb: scale(32) },
  { name: "Claude Code folder", format: "claude-code", files: 48, fileMb: scale(3) },
];

export function usageSection({ specs, dataset, measure, bin, runs, log, median, fmt }) {
  const rows = specs.map((spec) => {
    const data = dataset(spec);
    const folder = data.files > 1;
    const env = folder ? { LOOPLENS_WORKERS: "0" } : {};
    const on = { ms: [], cpu: [] };
    const off = { ms: [], cpu: [] };
    for (let run = 0; run < runs; run++) {
      // Alternating, the order flipped every round, so that a load change hits both sides alike.
      const order = run % 2 === 0 ? [on, off] : [off, on];
      for (const side of order) {
        const result = measure([bin, "analyze", "--no-cache", "--format", "ndjson", data.dir], { ...env, ...(side === off && { LOOPLENS_USAGE: "off" }) });
        side.ms.push(result.ms);
        side.cpu.push(result.cpuMs);
      }
    }
    const row = { name: spec.name, mb: data.bytes / 1e6, onMs: median(on.ms), offMs: median(off.ms), onCpu: median(on.cpu), offCpu: median(off.cpu) };
    // The median of each round's own ratio: a round is two runs back to back, so a burst of load
    // from other work on the machine hits both sides of it, where medians taken apart mix rounds.
    const ratios = (a, b) => a.map((x, i) => x / b[i] - 1);
    row.cost = median(ratios(on.cpu, off.cpu));
    row.wallCost = median(ratios(on.ms, off.ms));
    log(`${spec.name}: usage on ${fmt(row.onCpu)} ms CPU, off ${fmt(row.offCpu)} ms CPU: ${(row.cost * 100).toFixed(1)}%`);
    return row;
  });
  const pct = (x) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
  const lines = [
    "| input | MB | usage off: wall / CPU (ms) | usage on: wall / CPU (ms) | cost (CPU, median of rounds) | cost (wall) | target |",
    "|---|---:|---:|---:|---:|---:|---|",
    ...rows.map((r) => `| ${r.name} | ${fmt(r.mb)} | ${fmt(r.offMs)} / ${fmt(r.offCpu)} | ${fmt(r.onMs)} / ${fmt(r.onCpu)} | ${pct(r.cost)} | ${pct(r.wallCost)} | ≤ +5% ${r.cost <= 0.05 ? "✓" : "✗"} |`),
  ];
  return { rows, markdown: lines.join("\n") };
}
