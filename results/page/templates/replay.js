// hexarena report: the games list (filters) and the replay viewer.
// Data come from the JSON island #report-data; strings are only ever set with textContent.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("report-data").textContent);
  const games = DATA.games;
  const $ = (id) => document.getElementById(id);
  const WORD = { b: "Black", w: "White" };
  let current = null;          // {game, boards, statuses, ply, svg, sites, analysis}

  // -- the games list and its filters ------------------------------------------------------
  const filters = { game: (g) => g.g, size: (g) => String(g.n), engine: (g) => [g.f, g.s], result: (g) => g.r };
  for (const [name, get] of Object.entries(filters)) {
    const values = new Set();
    games.forEach((g) => [].concat(get(g)).forEach((v) => values.add(v)));
    const select = $("f-" + name);
    [...values].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).forEach((v) => {
      const option = document.createElement("option");
      option.value = v;
      option.textContent = v;
      select.appendChild(option);
    });
    select.addEventListener("change", applyFilters);
  }
  const body = document.querySelector("#game-list tbody");
  const rows = games.map((g, index) => {
    const tr = document.createElement("tr");
    tr.dataset.index = index;
    for (const value of [g.id, g.g, g.n, g.f, g.s, g.r, g.t, g.k]) {
      const td = document.createElement("td");
      td.textContent = String(value);
      tr.appendChild(td);
    }
    tr.addEventListener("click", () => open(index));
    body.appendChild(tr);
    return tr;
  });

  function applyFilters() {
    let shown = 0;
    games.forEach((g, i) => {
      const ok = Object.entries(filters).every(([name, get]) => {
        const want = $("f-" + name).value;
        return !want || [].concat(get(g)).includes(want);
      });
      rows[i].hidden = !ok;
      shown += ok;
    });
    $("f-count").textContent = shown + " of " + games.length + " games";
  }
  applyFilters();

  // -- replay ------------------------------------------------------------------------------
  function applyChanges(board, changes) {
    for (const item of changes.split(" ")) {
      if (!item) continue;
      const m = /^([a-z][0-9]+)([bw]?)([0-9]*)$/.exec(item);
      if (m[2]) board.set(m[1], [m[2], m[3] || "1"]); else board.delete(m[1]);
    }
  }

  function statusesOf(game) {
    const out = [];
    let last = "";
    for (let ply = 0; ply <= game.m.length; ply++) {
      if (game.p[ply] !== undefined) last = game.p[ply];
      else last = (last[0] === "b" ? "w" : "b") + last.slice(1);
      out.push(last);
    }
    return out;
  }

  function open(index) {
    const game = games[index];
    rows.forEach((r) => r.classList.remove("current"));
    rows[index].classList.add("current");
    $("viewer").hidden = false;
    $("v-title").textContent = game.id + ": " + game.g + " " + game.n + (game.v ? " (" + game.v + ")" : "");
    $("v-players").textContent = game.b + " (black) vs " + game.w + " (white); first: " + game.f;
    $("v-result").textContent = "result " + game.r + ", " + game.t + (game.why ? ": " + game.why : "");
    const holder = $("v-board");
    holder.textContent = "";
    const moves = $("v-moves");
    moves.textContent = "";
    const analysis = window.hexarenaAnalysis.open($("v-analysis"), game);
    if (!game.m) {
      current = null;
      $("v-ply").textContent = game.err || "no record of this game (void)";
      $("v-slider").max = 0;
      return;
    }
    const template = document.getElementById("board-" + game.bd);
    holder.appendChild(template.content.cloneNode(true));
    const svg = holder.querySelector("svg");
    const sites = new Map();
    svg.querySelectorAll("g.site").forEach((el) => sites.set(el.dataset.site, el));
    const boards = [];
    let board = new Map();
    applyChanges(board, game.i0);
    boards.push(new Map(board));
    game.d.forEach((changes) => { applyChanges(board, changes); boards.push(new Map(board)); });
    game.m.forEach((token, i) => {
      const li = document.createElement("li");
      li.textContent = token;
      if (game.x && game.x[i] !== null) {
        const t = document.createElement("span");
        t.className = "time";
        t.textContent = game.x[i].toFixed(2) + " s";
        li.appendChild(t);
      }
      li.addEventListener("click", () => show(i + 1));
      moves.appendChild(li);
    });
    current = { game, boards, statuses: statusesOf(game), svg, sites, ply: 0, analysis };
    $("v-slider").max = game.m.length;
    if (location.hash !== "#game=" + game.id) history.replaceState(null, "", "#game=" + game.id);
    show(game.m.length);
  }

  function marked(game, ply) {
    if (ply === 0) return [];
    const h = game.h[ply - 1];
    if (h === "-") return [];
    return (h || game.d[ply - 1]).split(" ").filter((s) => s).map((s) => /^[a-z][0-9]+/.exec(s)[0]);
  }

  function show(ply) {
    if (!current) return;
    const { game, boards, statuses, sites, svg, analysis } = current;
    ply = Math.max(0, Math.min(game.m.length, ply));
    current.ply = ply;
    const board = boards[ply];
    const hit = new Set(marked(game, ply));
    for (const [name, el] of sites) {
      const stone = board.get(name);
      el.setAttribute("data-stone", stone ? stone[0] : "");
      el.setAttribute("data-height", stone ? stone[1] : "");
      if (hit.has(name)) el.setAttribute("data-last", "1"); else el.removeAttribute("data-last");
      const height = el.querySelector(".height");
      if (height) height.textContent = stone && stone[1] !== "1" ? stone[1] : "";
    }
    const [head, shown] = statuses[ply].split("|");
    const [mover, phase] = head.split(" ");
    const lines = svg.querySelectorAll("text.status");
    const over = ply === game.m.length && game.r && game.r !== "*";     // a finished game's last position
    lines[0].textContent = over ? "game over" : WORD[mover] + " to move, phase " + phase;
    lines[1].textContent = (shown ? shown + "; " : "") + "ply " + ply;
    const parts = [];
    if (ply) parts.push("last: " + game.m[ply - 1]);
    if (ply === game.m.length) parts.push("result " + game.r + " (" + game.t + ")");
    lines[2].textContent = parts.join("; ");
    if (analysis) analysis(ply);
    $("v-slider").value = ply;
    $("v-ply").textContent = "ply " + ply + " of " + game.m.length;
    const items = $("v-moves").children;
    for (let i = 0; i < items.length; i++) items[i].classList.toggle("current", i === ply - 1);
    if (ply > 0) items[ply - 1].scrollIntoView({ block: "nearest" });
  }

  $("v-first").addEventListener("click", () => show(0));
  $("v-prev").addEventListener("click", () => current && show(current.ply - 1));
  $("v-next").addEventListener("click", () => current && show(current.ply + 1));
  $("v-last").addEventListener("click", () => show(Infinity));
  $("v-close").addEventListener("click", () => { $("viewer").hidden = true; current = null; });
  $("v-slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (!current || e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (step) show(current.ply + step);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(Infinity);
    else return;
    e.preventDefault();
  });
  // A page whose game grows (hexarena serve, a game in flight) hands its new data here: the
  // viewer follows the last action unless the reader stepped back.
  window.hexarenaReplay = {
    update(index, game) {
      const at = current && current.game === games[index] ? current.ply : null;
      const following = at === null || at === (games[index].m || []).length;
      games[index] = game;
      if (!current || current.game.id === game.id) {
        open(index);
        if (!following) show(at);
      }
    },
  };
  const wanted = /^#game=(.+)$/.exec(location.hash);
  if (wanted) {
    const index = games.findIndex((g) => g.id === decodeURIComponent(wanted[1]));
    if (index >= 0) open(index);
  }
})();
