/**
 * The page's one stylesheet (inline, allowed by its hash in the Content-Security-Policy). Colours:
 * levels are amber (warning), red (block) and purple (abort); tools get calm blues, greens and
 * browns so that they never read as a level.
 */
export const STYLES = `
:root { --warning: #e09a00; --block: #d32f2f; --abort: #7b1fa2; --ink: #1d2330; --dim: #667085; --line: #e4e7ec; }
* { box-sizing: border-box; }
body { margin: 0; background: #f4f5f7; color: var(--ink); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 20px 24px 40px; }
h1 { font-size: 20px; margin: 0 0 2px; }
.mono, .meta, td.mono, .header { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.header { color: var(--dim); font-size: 12px; margin: 0 0 10px; }
.header div, .summary div { white-space: pre-wrap; overflow-wrap: anywhere; }
.summary { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 8px 0 12px; font-size: 13px; }
.toolbar { position: sticky; top: 0; z-index: 2; display: flex; align-items: center; gap: 14px; flex-wrap: wrap; background: #f4f5f7; padding: 8px 0; border-bottom: 1px solid var(--line); margin-bottom: 14px; }
.toolbar input { width: 360px; max-width: 100%; padding: 6px 10px; border: 1px solid #c9ced6; border-radius: 6px; font: inherit; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: 12px; color: var(--dim); align-items: center; }
.legend span, .tools span { display: inline-flex; align-items: center; gap: 5px; }
.sw { display: inline-block; width: 12px; height: 12px; border-radius: 2px; }
.sw.warning { background: var(--warning); } .sw.block { background: var(--block); } .sw.abort { background: var(--abort); }
.sw.guard { background: rgba(123, 31, 162, 0.16); border: 1px solid rgba(123, 31, 162, 0.35); }
.sw.compaction { width: 0; height: 14px; border-left: 2px dashed #344054; border-radius: 0; }
.sw.stop { width: 0; height: 14px; border-left: 2px solid var(--block); border-radius: 0; }
.run { background: #fff; border: 1px solid var(--line); border-left: 5px solid #98a2b3; border-radius: 8px; padding: 12px 16px 14px; margin: 0 0 14px; }
.run.sev-abort { border-left-color: var(--abort); } .run.sev-block { border-left-color: var(--block); } .run.sev-warning { border-left-color: var(--warning); }
.run h2 { font-size: 15px; margin: 0; display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.run h2 .id { font-family: ui-monospace, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.badge { font-size: 11px; font-weight: 700; color: #fff; padding: 2px 8px; border-radius: 10px; background: #98a2b3; white-space: nowrap; }
.badge.sev-abort { background: var(--abort); } .badge.sev-block { background: var(--block); } .badge.sev-warning { background: var(--warning); } .badge.sev-veto { background: #475467; }
.meta { color: var(--dim); font-size: 12px; margin: 3px 0 8px; overflow-wrap: anywhere; }
.id, .meta, td, .tools, .plabel, .header, .summary { unicode-bidi: isolate; }
.lane { position: relative; margin: 0 0 2px; }
.lane svg { display: block; width: 100%; }
.notes, .axis { position: relative; height: 16px; font-size: 11px; color: var(--dim); }
.notes span, .axis span { position: absolute; transform: translateX(-50%); white-space: nowrap; }
.notes .stopnote { color: var(--block); font-weight: 600; } .notes .abortnote { color: var(--abort); font-weight: 600; }
.notes span.start, .axis span.start { transform: none; } .notes span.end, .axis span.end { transform: translateX(-100%); }
.rows { display: grid; gap: 6px; margin: 4px 0 10px; }
.row { display: grid; grid-template-columns: 210px minmax(0, 1fr); gap: 12px; align-items: center; }
.tools { display: flex; flex-direction: column; gap: 1px; font-size: 12px; overflow-wrap: anywhere; }
.tools b { font-size: 11px; color: var(--dim); font-weight: 600; }
.plabel { font-size: 12px; overflow-wrap: anywhere; }
.plabel small { display: block; color: var(--dim); }
.chart { position: relative; background: #fafbfc; border: 1px solid var(--line); border-radius: 4px; }
.chart svg { display: block; width: 100%; }
.chart .tlabel { position: absolute; left: 4px; transform: translateY(-100%); font-size: 10px; color: var(--dim); background: rgba(250, 251, 252, 0.85); padding: 0 2px; }
svg .call { shape-rendering: crispEdges; }
svg .mark-1 { fill: var(--warning); } svg .mark-2 { fill: var(--block); } svg .mark-3 { fill: var(--abort); }
svg .guard { fill: rgba(123, 31, 162, 0.14); }
svg .compaction { stroke: #344054; stroke-width: 2; stroke-dasharray: 4 3; }
svg .stop { stroke: var(--block); stroke-width: 2; } svg .stop.abort { stroke: var(--abort); }
svg .threshold { stroke: #98a2b3; stroke-width: 1; stroke-dasharray: 5 4; }
svg .threshold.stopping { stroke: var(--block); }
svg .count { fill: none; stroke-width: 2; } svg .count.l1 { stroke: var(--warning); } svg .count.l2 { stroke: var(--block); } svg .count.l3 { stroke: var(--abort); }
svg .dot { stroke-width: 7; stroke-linecap: round; } svg .dot.l1 { stroke: var(--warning); } svg .dot.l2 { stroke: var(--block); } svg .dot.l3 { stroke: var(--abort); }
svg .turn { fill: #667085; } svg .turn.late { fill: var(--block); opacity: 0.6; }
svg .ns { vector-effect: non-scaling-stroke; }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
th { text-align: left; color: var(--dim); font-weight: 600; border-bottom: 1px solid var(--line); padding: 3px 8px 3px 0; }
td { border-bottom: 1px solid #f0f2f5; padding: 4px 8px 4px 0; vertical-align: top; }
td.msg { overflow-wrap: anywhere; } td.msg .said { color: #6b7280; font-size: 0.9em; margin-top: 2px; } td.nowrap { white-space: nowrap; }
tr.after td { color: #98a2b3; }
.lvl { font-weight: 700; } .lvl.warning { color: var(--warning); } .lvl.block { color: var(--block); } .lvl.abort { color: var(--abort); }
.times { color: var(--dim); font-weight: 400; }
.more { color: var(--dim); font-size: 12px; margin: 6px 0 0; }
.listed { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; }
.listed h2 { font-size: 15px; margin: 0 0 6px; }
[hidden] { display: none !important; }
`;
