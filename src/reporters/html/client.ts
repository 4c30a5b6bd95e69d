/**
 * The page's script (inline, allowed by its hash in the Content-Security-Policy): it reads the
 * page data (html/data.ts) from the JSON element and builds the runs with DOM calls. Text from the
 * input only ever goes through `textContent` (never innerHTML, never an attribute a browser would
 * follow: no href, src or event handler), so no string of the transcript can become markup or code.
 * Plain ES2020 kept in a string: the page must not depend on a bundler, and its hash is taken of
 * exactly this text.
 *
 * The charts of a run are their own module (chartsScript.ts): its text is put into this script's
 * function, between the helpers it calls (el, svgEl, tip, canvas, colourOf, placed) and the run card
 * that calls it, so that the page still holds one script, the one its hash allows.
 */
import { CHARTS_SCRIPT } from "./chartsScript.js";

export const CLIENT_SCRIPT =
  String.raw`
"use strict";
(function () {
  // The SVG namespace, from the page's own empty <svg> (the page names no URL, not even this one).
  var SVG = document.getElementById("svg-ns").namespaceURI;
  var W = 1000;
  var LIST_LIMIT = 300;
  var MAX_CALL_MARKS = 2000;
  var TOOL_COLOURS = ["#4e79a7", "#59a14f", "#9c755f", "#b07aa1", "#76b7b2", "#79706e", "#a0cbe8", "#8cd17d", "#d4a6c8", "#86bcb6"];
  var UNKNOWN_TOOL = "#c4c8cf";
  var SEVERITY = { 3: "abort", 2: "block", 1: "warning", 0.5: "veto", 0: "none" };
  var LEVEL = { 1: "warning", 2: "block", 3: "abort" };
  var data = JSON.parse(document.getElementById("looplens-data").textContent);
  var root = document.getElementById("report");

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function svgEl(tag, cls, attrs) {
    var node = document.createElementNS(SVG, tag);
    if (cls) node.setAttribute("class", cls);
    for (var key in attrs) node.setAttribute(key, String(attrs[key]));
    return node;
  }
  function tip(node, text) {
    var title = document.createElementNS(SVG, "title");
    title.textContent = text;
    node.appendChild(title);
    return node;
  }
  function canvas(height) {
    return svgEl("svg", "", { viewBox: "0 0 " + W + " " + height, preserveAspectRatio: "none", height: height, role: "img" });
  }
  // One colour per tool name across the page, in order of first appearance (worst runs first).
  var colours = new Map();
  function colourOf(run, tool) {
    if (tool < 0) return UNKNOWN_TOOL;
    var name = run.tools[tool];
    if (!colours.has(name)) colours.set(name, TOOL_COLOURS[colours.size % TOOL_COLOURS.length]);
    return colours.get(name);
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function placed(cls, text, percent) {
    // Centred on its call, but kept inside the lane near either end.
    var span = el("span", cls + (percent > 88 ? " end" : percent < 8 ? " start" : ""), text);
    span.style.left = percent + "%";
    return span;
  }
  function badgeText(run) {
    if (run.firstStop) return (run.firstStop.kind === "abort" ? "aborted" : "blocked") + " at call " + run.firstStop.call;
    if (run.severity === 1) return "warnings";
    if (run.severity === 0.5) return "runtime vetoes";
    return "no findings";
  }

  function header() {
    root.appendChild(el("h1", "", "looplens report"));
    var head = el("div", "header");
    head.appendChild(el("div", "", data.title));
    data.header.forEach(function (line) { head.appendChild(el("div", "", line)); });
    root.appendChild(head);
    var summary = el("div", "summary");
    data.summary.forEach(function (line) { summary.appendChild(el("div", "", line)); });
    root.appendChild(summary);
  }

  function legend() {
    var box = el("div", "legend");
    [["warning", "warning"], ["block", "block (critical verdict)"], ["abort", "abort"], ["stop", "first would-be stop"], ["compaction", "compaction"], ["guard", "post-compaction guard window"]].forEach(function (item) {
      var span = el("span");
      span.appendChild(el("i", "sw " + item[0]));
      span.appendChild(document.createTextNode(item[1]));
      box.appendChild(span);
    });
    return box;
  }

` +
  CHARTS_SCRIPT +
  String.raw`  function findingsTable(run) {
    var table = el("table", "findings");
    var head = el("tr");
    ["call", "line", "tool", "detector", "level", "count", "threshold", "explanation"].forEach(function (h) { head.appendChild(el("th", "", h)); });
    table.appendChild(head);
    run.rows.forEach(function (r) {
      var tr = el("tr", "finding-row" + (r.afterStop ? " after" : ""));
      tr.appendChild(el("td", "mono nowrap", r.calls));
      tr.appendChild(el("td", "mono nowrap", r.line));
      tr.appendChild(el("td", "mono", r.tool));
      tr.appendChild(el("td", "mono", r.detector));
      var level = el("td", "lvl nowrap " + r.level, r.level);
      if (r.verdicts > 1) level.appendChild(el("span", "times", " \u00d7" + r.verdicts));
      tr.appendChild(level);
      tr.appendChild(el("td", "mono nowrap", r.count));
      tr.appendChild(el("td", "mono nowrap", r.threshold));
      var msg = el("td", "msg", (r.afterStop ? "(after the first stop) " : "") + r.explanation);
      msg.appendChild(el("div", "said", r.message));
      tr.appendChild(msg);
      table.appendChild(tr);
    });
    return table;
  }

  function runCard(run) {
    var card = el("section", "run sev-" + SEVERITY[run.severity]);
    var h = el("h2");
    h.appendChild(el("span", "badge sev-" + SEVERITY[run.severity], badgeText(run)));
    h.appendChild(el("span", "id", "run " + run.id));
    card.appendChild(h);
    var who = [run.agent !== null ? "agent " + run.agent : "", run.session !== null ? "session " + run.session : "", run.file, plural(run.calls, "call"), plural(run.compactions, "compaction")];
    if (run.recordedVetoes > 0) who.push(plural(run.recordedVetoes, "call") + " really blocked by the live runtime");
    if (run.profile) who.push(run.profile);
    if (run.usage) who.push(run.usage);
    card.appendChild(el("div", "meta", who.filter(Boolean).join(" \u00b7 ")));
    if (run.when) card.appendChild(el("div", "meta", run.when));
    if (run.prompt) card.appendChild(el("div", "meta", "prompt: " + run.prompt));
    // The calls and the count charts share one x axis: a label column, then the drawing.
    var rows = el("div", "rows");
    if (run.calls > 0) {
      var lane = el("div", "row");
      lane.appendChild(toolLegend(run));
      lane.appendChild(timeline(run));
      rows.appendChild(lane);
    }
    if (run.turnTokens.length > 0) rows.appendChild(tokensChart(run));
    run.patterns.forEach(function (pattern) { rows.appendChild(chart(run, pattern)); });
    card.appendChild(rows);
    if (run.rows.length > 0) card.appendChild(findingsTable(run));
    if (run.rowsNotShown > 0) card.appendChild(el("p", "more", run.rowsNotShown + " more rows not shown (the table and json formats list them)"));
    card.searchText = [run.id, run.agent, run.session, run.file, run.when, run.prompt, SEVERITY[run.severity]].concat(run.tools, run.rows.map(function (r) { return r.tool + " " + r.detector + " " + r.level; })).join(" ").toLowerCase();
    return card;
  }

  function listedSection() {
    var box = el("section", "listed");
    box.appendChild(el("h2", "", data.listed.length + " more runs, listed (only the worst " + data.drawn.length + " are drawn)"));
    var table = el("table", "listed-runs");
    box.appendChild(table);
    var more = el("p", "more");
    box.appendChild(more);
    data.listed.forEach(function (run) {
      run.searchText = [run.id, run.agent, run.session, run.file, SEVERITY[run.severity]].join(" ").toLowerCase();
    });
    box.show = function (query) {
      table.textContent = "";
      var head = el("tr");
      ["run", "level", "findings", "calls", "stop", "file"].forEach(function (h) { head.appendChild(el("th", "", h)); });
      table.appendChild(head);
      var matches = data.listed.filter(function (run) { return run.searchText.indexOf(query) >= 0; });
      matches.slice(0, LIST_LIMIT).forEach(function (run) {
        var tr = el("tr", "listed-row");
        tr.appendChild(el("td", "mono", run.id));
        tr.appendChild(el("td", "lvl " + SEVERITY[run.severity], SEVERITY[run.severity]));
        tr.appendChild(el("td", "mono", run.findings));
        tr.appendChild(el("td", "mono", run.calls));
        tr.appendChild(el("td", "mono", run.stopCall === null ? "" : "call " + run.stopCall));
        tr.appendChild(el("td", "mono", run.file));
        table.appendChild(tr);
      });
      more.textContent = matches.length > LIST_LIMIT ? matches.length - LIST_LIMIT + " more match; narrow the filter" : "";
      box.hidden = matches.length === 0;
      return matches.length;
    };
    return box;
  }

  header();
  var toolbar = el("div", "toolbar");
  var filter = el("input", "filter");
  filter.type = "search";
  filter.placeholder = "Filter runs: id, agent, session, file, tool, detector, level";
  filter.setAttribute("aria-label", "filter runs");
  var count = el("span", "count");
  toolbar.appendChild(filter);
  toolbar.appendChild(count);
  toolbar.appendChild(legend());
  root.appendChild(toolbar);
  var cards = data.drawn.map(runCard);
  cards.forEach(function (card) { root.appendChild(card); });
  var listed = data.listed.length > 0 ? listedSection() : null;
  if (listed) root.appendChild(listed);
  if (data.notListed > 0) root.appendChild(el("p", "more", plural(data.notListed, "more run") + " not in this page, neither drawn nor listed (--format json lists every run)"));
  if (data.drawn.length === 0) root.appendChild(el("p", "more", "No runs with findings."));
  if (data.notShown > 0) root.appendChild(el("p", "more", plural(data.notShown, "run") + " without findings not shown (--all shows them)"));
  var total = data.drawn.length + data.listed.length;
  function apply() {
    var query = filter.value.trim().toLowerCase();
    var shown = 0;
    cards.forEach(function (card) {
      card.hidden = card.searchText.indexOf(query) < 0;
      if (!card.hidden) shown++;
    });
    if (listed) shown += listed.show(query);
    count.textContent = shown + " of " + plural(total, "run") + " shown";
  }
  filter.addEventListener("input", apply);
  apply();
})();
`;
