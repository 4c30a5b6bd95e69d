/**
 * The drawings of a run on the HTML page (client.ts puts this text inside its script, where the
 * helpers it calls are defined): the calls' timeline with its compactions, guard windows and first
 * would-be stop, the tools' colours, each pattern's count against its thresholds, and the tokens of
 * each model turn. SVG only, built with DOM calls; text from the input goes through `title` and
 * `textContent` alone (client.ts says why).
 */
export const CHARTS_SCRIPT = String.raw`  function timeline(run) {
    var n = Math.max(run.calls, 1);
    var x = function (afterCalls) { return (afterCalls / n) * W; };
    var lane = el("div", "lane");
    var notes = el("div", "notes");
    var svg = canvas(50);
    run.guardWindows.forEach(function (v, i, a) {
      if (i % 3) return;
      var from = a[i], to = Math.min(a[i + 1], n);
      svg.appendChild(tip(svgEl("rect", "guard", { x: x(from), y: 0, width: Math.max(x(to) - x(from), 1), height: 50 }), "post-compaction guard window: calls " + (from + 1) + "-" + to + (a[i + 2] ? " (aborted)" : "")));
    });
    var slot = W / n;
    var call = 0;
    for (var s = 0; s < run.segments.length; s += 2) {
      var tool = run.segments[s], length = run.segments[s + 1];
      var name = tool >= 0 ? run.tools[tool] : "call";
      var colour = colourOf(run, tool);
      var pieces = run.calls <= MAX_CALL_MARKS ? length : 1;
      var width = (length / pieces) * slot;
      for (var p = 0; p < pieces; p++) {
        var first = call + (p * length) / pieces;
        var mark = svgEl("rect", "call", { x: first * slot, y: 16, width: n <= 300 ? Math.max(width - slot * 0.18, 0.5) : width, height: 32, fill: colour });
        var label = pieces === length ? "call " + (first + 1) : "calls " + (call + 1) + "-" + (call + length);
        svg.appendChild(tip(mark, label + ": " + name));
      }
      call += length;
    }
    for (var m = 0; m < run.marks.length; m += 3) {
      var from = run.marks[m] - 1, to = run.marks[m + 1], level = run.marks[m + 2];
      var range = from + 1 === to ? "call " + to : "calls " + (from + 1) + "-" + to;
      svg.appendChild(tip(svgEl("rect", "finding mark-" + level, { x: x(from), y: 2, width: Math.max(x(to) - x(from), 2), height: 10 }), range + ": " + LEVEL[level]));
    }
    run.compactionsAfter.forEach(function (after) {
      svg.appendChild(tip(svgEl("line", "compaction ns", { x1: x(after), x2: x(after), y1: 0, y2: 50 }), "compaction after call " + after));
      notes.appendChild(placed("", "compaction", (after / n) * 100));
    });
    if (run.firstStop) {
      var abort = run.firstStop.kind === "abort";
      var at = x(run.firstStop.call - 0.5);
      svg.appendChild(svgEl("line", "stop ns" + (abort ? " abort" : ""), { x1: at, x2: at, y1: 0, y2: 50 }));
      notes.appendChild(placed(abort ? "abortnote" : "stopnote", "would " + (abort ? "abort" : "block") + " at " + run.firstStop.call, ((run.firstStop.call - 0.5) / n) * 100));
    }
    lane.appendChild(notes);
    lane.appendChild(svg);
    var axis = el("div", "axis");
    var ticks = [1];
    var step = Math.max(1, Math.ceil(n / 8 / 5) * 5);
    for (var t = step; t < n - step / 2; t += step) ticks.push(t);
    if (n > 1) ticks.push(n);
    ticks.forEach(function (tick, i) {
      axis.appendChild(placed("", i === 0 ? "call 1" : String(tick), i === 0 ? 0 : tick === n ? 100 : ((tick - 0.5) / n) * 100));
    });
    lane.appendChild(axis);
    return lane;
  }

  function toolLegend(run) {
    var box = el("div", "tools");
    box.appendChild(el("b", "", "calls by tool"));
    run.tools.slice(0, 40).forEach(function (name, i) {
      var span = el("span");
      var sw = el("i", "sw");
      sw.style.background = colourOf(run, i);
      span.appendChild(sw);
      span.appendChild(document.createTextNode(name));
      box.appendChild(span);
    });
    if (run.tools.length > 40) box.appendChild(el("span", "", "and " + (run.tools.length - 40) + " more tools"));
    return box;
  }

  function chart(run, pattern) {
    var n = Math.max(run.calls, 1), H = 64, top = 6;
    var ymax = 1;
    pattern.thresholds.forEach(function (t) { ymax = Math.max(ymax, t.value); });
    for (var i = 1; i < pattern.points.length; i += 3) ymax = Math.max(ymax, pattern.points[i]);
    ymax = Math.ceil(ymax * 1.1);
    var y = function (count) { return H - (count / ymax) * (H - top); };
    var x = function (c) { return ((c - 0.5) / n) * W; };
    var row = el("div", "row pattern");
    var label = el("div", "plabel", pattern.label);
    var last = pattern.points.length - 3;
    var a0 = pattern.points;
    var climb = last === 0 ? "count " + a0[1] + " at call " + a0[0] : "count " + a0[1] + " \u2192 " + a0[last + 1] + " over calls " + a0[0] + "\u2013" + a0[last];
    label.appendChild(el("small", "", climb));
    row.appendChild(label);
    var box = el("div", "chart");
    var svg = canvas(H);
    pattern.thresholds.forEach(function (t) {
      var stopping = t.name !== "warningThreshold";
      svg.appendChild(svgEl("line", "threshold ns" + (stopping ? " stopping" : ""), { x1: 0, x2: W, y1: y(t.value), y2: y(t.value) }));
      var tl = el("span", "tlabel", t.name + "=" + t.value);
      tl.style.top = (y(t.value) / H) * 100 + "%";
      box.appendChild(tl);
    });
    for (var p = 0; p + 3 < pattern.points.length; p += 3) {
      var a = pattern.points, lvl = a[p + 5];
      svg.appendChild(svgEl("line", "count ns l" + lvl, { x1: x(a[p]), y1: y(a[p + 1]), x2: x(a[p + 3]), y2: y(a[p + 4]) }));
    }
    for (var d = 0; d < pattern.points.length; d += 3) {
      var px = x(pattern.points[d]), py = y(pattern.points[d + 1]);
      svg.appendChild(tip(svgEl("line", "dot ns l" + pattern.points[d + 2], { x1: px, y1: py, x2: px + 0.01, y2: py }), "call " + pattern.points[d] + ": count " + pattern.points[d + 1] + " (" + LEVEL[pattern.points[d + 2]] + ")"));
    }
    box.appendChild(svg);
    row.appendChild(box);
    return row;
  }

  // Tokens per model turn along the calls' axis (cost.md §3): a bar at the call each turn ended after,
  // so what a loop cost stands under the loop; dimmed after the first would-be stop.
  function tokensChart(run) {
    var n = Math.max(run.calls, 1), H = 40;
    var most = 1;
    for (var i = 1; i < run.turnTokens.length; i += 2) most = Math.max(most, run.turnTokens[i]);
    var row = el("div", "row pattern");
    var label = el("div", "plabel", "tokens per turn");
    label.appendChild(el("small", "", run.usage));
    row.appendChild(label);
    var box = el("div", "chart");
    var svg = canvas(H);
    for (var t = 0; t < run.turnTokens.length; t += 2) {
      var after = run.turnTokens[t], tokens = run.turnTokens[t + 1];
      if (tokens < 0) continue;
      var h = Math.max((tokens / most) * (H - 4), 1);
      var late = run.firstStop && after > run.firstStop.call;
      svg.appendChild(tip(svgEl("rect", "turn" + (late ? " late" : ""), { x: (Math.max(after - 0.5, 0) / n) * W, y: H - h, width: Math.max(W / n * 0.6, 1), height: h }), tokens + " tokens, turn ended after call " + after));
    }
    box.appendChild(svg);
    row.appendChild(box);
    return row;
  }

`;
