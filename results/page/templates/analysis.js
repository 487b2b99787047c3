// hexarena report: what the engines thought, beside the replay (data: results/page/analysis_data.py).
// window.hexarenaAnalysis.open(holder, game) draws the winrate chart of a game into `holder` and
// returns show(ply), or hides `holder` and returns null when the game has no analysis.
// window.hexarenaAnalysis.render(holder, ply, name, row) writes one action's analysis the one way
// every page shows it (the report, hexarena serve's folder and game pages, hexarena play):
// "ply 12, mcts (White): White 62.0% to win, visits 4500, depth 9" then "pv: 12. e5 13. f6 ...";
// describe(ply, name, row) gives the first line's text.
// Engine-supplied strings are only ever set with textContent.
"use strict";
window.hexarenaAnalysis = (function () {
  const NS = "http://www.w3.org/2000/svg";
  const W = 320, H = 120, LEFT = 38, RIGHT = 8, TOP = 8, BOTTOM = 20;
  const COLOUR = { B: "Black", W: "White" };

  function node(name, attrs, parent, text) {
    const el = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (text !== undefined) el.textContent = text;
    parent.appendChild(el);
    return el;
  }

  function html(name, cls, parent, text) {
    const el = document.createElement(name);
    if (cls) el.className = cls;
    if (text !== undefined) el.textContent = text;
    parent.appendChild(el);
    return el;
  }

  const percent = (p) => (100 * p).toFixed(1) + "%";

  // One action's analysis in words: who moved (name, the colour held after the action), the
  // winrate as a percentage for that colour, then score, visits, depth.
  function describe(ply, name, row) {
    const side = COLOUR[row.h] || "";
    const parts = [];
    if (row.w !== undefined) parts.push(side + " " + percent(row.w) + " to win");
    if (row.s !== undefined) parts.push("score " + row.s);
    if (row.v !== undefined) parts.push("visits " + row.v);
    if (row.d !== undefined) parts.push("depth " + row.d);
    if (row.o) parts.push(row.o);
    return "ply " + ply + ", " + name + (side ? " (" + side + ")" : "") + (parts.length ? ": " + parts.join(", ") : "");
  }

  function render(holder, ply, name, row) {
    html("p", "wr-head", holder, describe(ply, name, row));
    if (row.pv) {
      const pv = html("p", "wr-pv", holder, "pv: ");
      row.pv.forEach((token, i) => html("span", "pv-action", pv, (ply + i) + ". " + token));
      if (row.more) html("span", "pv-more", pv, "(" + row.more + " more)");
    }
  }

  function open(holder, game) {
    holder.textContent = "";
    const a = game.a;
    if (!a || !game.m) { holder.hidden = true; return null; }
    holder.hidden = false;
    const n = game.m.length;
    const names = [game.f, game.s];
    const x = (ply) => LEFT + (n ? ply / n : 0) * (W - LEFT - RIGHT);
    const y = (p) => TOP + (1 - p) * (H - TOP - BOTTOM);
    html("p", "wr-caption", holder, "Black's chance to win, as each engine saw it after its action " +
         "(its winrate; 1 - winrate when it held White)");
    const svg = node("svg", { class: "wr-chart", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
                              "aria-label": "winrate of each engine over the game" }, holder);
    for (const [p, label] of [[1, "100%"], [0.5, "50%"], [0, "0%"]]) {
      node("line", { class: p === 0.5 ? "wr-even" : "wr-axis", x1: LEFT, x2: W - RIGHT, y1: y(p), y2: y(p) }, svg);
      node("text", { class: "wr-label", x: LEFT - 4, y: y(p) }, svg, label);
    }
    node("text", { class: "wr-ply", x: W - RIGHT, y: H - 4 }, svg, "ply " + n);
    for (const seat of [0, 1]) {
      const points = [];
      for (let i = 0; i < n && i < a.rows.length; i++) {
        const row = a.rows[i];
        if (row && row.b !== undefined && a.seat[i] === String(seat)) points.push([x(i + 1), y(row.b), i + 1, row.b]);
      }
      if (!points.length) continue;
      node("polyline", { class: "wr-line wr-seat-" + seat, "data-seat": seat,
                         points: points.map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" ") }, svg);
      for (const [px, py, ply, b] of points) {
        node("circle", { class: "wr-dot wr-seat-" + seat, cx: px, cy: py, r: 1.8, "data-ply": ply, "data-black": b }, svg);
      }
    }
    const cursor = node("line", { class: "wr-cursor", x1: 0, x2: 0, y1: TOP, y2: H - BOTTOM }, svg);
    const legend = html("p", "wr-legend", holder);
    names.forEach((name, seat) => {
      html("span", "wr-key wr-seat-" + seat, legend, "\u2014 ");
      html("span", "wr-name", legend, name + (seat ? " (second)" : " (first)") + "  ");
    });
    const detail = html("div", "wr-detail", holder);

    return function show(ply) {
      cursor.setAttribute("x1", x(ply).toFixed(1));
      cursor.setAttribute("x2", x(ply).toFixed(1));
      detail.textContent = "";
      if (ply === 0) return;
      const row = a.rows[ply - 1];
      const who = names[Number(a.seat[ply - 1])] + " (" + COLOUR[a.c[ply - 1]] + ")";
      if (!row) {
        html("p", "wr-none", detail, "ply " + ply + ": no analysis from " + who);
        return;
      }
      render(detail, ply, names[Number(a.seat[ply - 1])], row);
      if (row.l && row.l.length > 1) {                 // every line the engine sent, as it sent its values
        const list = html("ul", "wr-lines", detail);
        row.l.forEach((text) => html("li", "", list, text));
      }
    };
  }

  return { open, render, describe };
})();
