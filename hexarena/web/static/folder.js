// hexarena serve: one tournament folder, kept current by its event stream (Server-Sent Events).
// Events: snapshot (standings, games in flight, the newest page of finished games), live (a game in flight changed), gone (it left the live files),
// finished (a journaled game), standings (refitted ratings). Older finished games come by page from
// /t/KEY/finished?before=SLOT (the "more" button). Strings are only set as text.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const status = $("connection");
  const key = status.dataset.key;
  const cards = new Map();          // game id -> {card, svg, sites}
  const finished = new Map();       // game id -> row shown
  let total = 0;                    // finished games in the folder (shown or not)
  let before = null;                // the slot to ask older finished games from (null: none older)
  let asking = false;
  const boards = new Map();         // board key -> Promise of an SVG element to clone
  const WORD = { b: "Black", w: "White" };

  function el(name, parent, text, cls) {
    const node = document.createElement(name);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    if (parent) parent.appendChild(node);
    return node;
  }

  function gameLink(id, parent) {
    const a = el("a", parent, id);
    a.href = "/t/" + encodeURIComponent(key) + "/game/" + id.split("/").map(encodeURIComponent).join("/");
    return a;
  }

  // -- standings --------------------------------------------------------------------------
  function standings(groups) {
    const holder = $("standings-tables");
    holder.textContent = "";
    if (!groups.length) { el("p", holder, "No rated games yet.", "muted"); return; }
    for (const g of groups) {
      el("h3", holder, g.title + " (" + g.games + (g.games === 1 ? " game)" : " games)"));
      if (g.error) el("p", holder, g.error, "warning");
      const table = el("table", holder, null, "ratings");
      const head = el("tr", table);
      for (const h of ["#", "player", "Elo", "±95%", "games", "W", "L", "D", "score"]) el("th", head, h);
      for (const r of g.ratings) {
        const tr = el("tr", table);
        const sign = (x) => (x > 0 ? "+" : "") + Math.round(x);
        for (const v of [r.rank, r.player + (r.prior ? "*" : ""), r.elo === null ? "" : sign(r.elo),
                         r.pm === null ? "" : Math.round(r.pm), r.games, r.wins, r.losses, r.draws,
                         r.score === null ? "" : r.score.toFixed(1) + "%"]) el("td", tr, v);
      }
      if (g.ratings.some((r) => r.prior)) {
        el("p", holder, "* rests on a weak prior (two virtual draws against the pool): the results alone " +
           "have no finite maximum (docs/ratings.md).", "note");
      }
    }
  }

  // -- games in flight --------------------------------------------------------------------
  function board(bd) {
    if (!boards.has(bd)) {
      boards.set(bd, fetch("/board/" + encodeURIComponent(bd) + ".svg", { credentials: "same-origin" })
        .then((r) => { if (!r.ok) throw new Error("board " + bd + ": " + r.status); return r.text(); })
        .then((text) => new DOMParser().parseFromString(text, "image/svg+xml").documentElement));
    }
    return boards.get(bd);
  }

  function paint(entry, game) {
    const stones = new Map();
    for (const item of game.stones.split(" ")) {
      const m = /^([a-z][0-9]+)([bw])([0-9]*)$/.exec(item);
      if (m) stones.set(m[1], [m[2], m[3] || "1"]);
    }
    const last = new Set(game.last.split(" ").filter((s) => s));
    for (const [name, site] of entry.sites) {
      const stone = stones.get(name);
      site.setAttribute("data-stone", stone ? stone[0] : "");
      site.setAttribute("data-height", stone ? stone[1] : "");
      if (last.has(name)) site.setAttribute("data-last", "1"); else site.removeAttribute("data-last");
      const height = site.querySelector(".height");
      if (height) height.textContent = stone && stone[1] !== "1" ? stone[1] : "";
    }
    const lines = entry.svg.querySelectorAll("text.status");
    const [head, shown] = game.status.split("|");
    const [mover, phase] = head.split(" ");
    lines[0].textContent = WORD[mover] + " to move, phase " + phase;
    lines[1].textContent = (shown ? shown + "; " : "") + "ply " + game.ply;
    lines[2].textContent = game.last_token ? "last: " + game.last_token : "";
    entry.svg.setAttribute("data-ply", String(game.ply));
  }

  function live(game) {
    let entry = cards.get(game.id);
    if (!entry) {
      const card = el("article", null, null, "live-game");
      card.dataset.game = game.id;
      gameLink(game.id, el("h3", card));
      el("p", card, null, "players");
      const clocks = el("p", card, null, "clocks");
      for (const c of ["b", "w"]) { const s = el("span", clocks, null, "clock"); s.dataset.colour = c; el("br", clocks); }
      el("div", card, null, "board");
      el("p", card, null, "ply");
      el("div", card, null, "info");
      entry = { card, svg: null, sites: null, latest: null };
      cards.set(game.id, entry);
      const list = [...cards.keys()].sort();
      const after = list[list.indexOf(game.id) + 1];
      $("live-games").insertBefore(card, after ? cards.get(after).card : null);
      board(game.bd).then((svg) => {
        entry.svg = document.importNode(svg, true);
        entry.sites = new Map();
        entry.svg.querySelectorAll("g.site").forEach((s) => entry.sites.set(s.dataset.site, s));
        card.querySelector(".board").appendChild(entry.svg);
        entry.svg.addEventListener("click", () => card.classList.toggle("enlarged"));    // click to enlarge
        if (entry.latest) paint(entry, entry.latest);
      }).catch((e) => { card.querySelector(".board").textContent = String(e); });
    }
    entry.latest = game;
    const card = entry.card;
    card.dataset.ply = String(game.ply);
    card.dataset.since = String(game.since);
    card.querySelector(".players").textContent =
      game.players.b + " (black) vs " + game.players.w + " (white); " + game.game + " " + game.size +
      (game.variant ? " (" + game.variant + ")" : "");
    for (const span of card.querySelectorAll(".clock")) {
      const c = span.dataset.colour;
      window.hexarenaClocks.set(span, game.clocks[c], c === game.to_move && !game.stopped, game.since, game.now);
    }
    card.classList.toggle("stopped", !!game.stopped);     // no process plays it any more: clocks stand still
    card.querySelector(".ply").textContent = "ply " + game.ply + (game.last_token ? ", last: " + game.last_token : "") +
      (game.error ? "; " + game.error : "") + (game.stopped ? "; " + game.stopped : "");
    info(card.querySelector(".info"), game.info);
    if (entry.svg) paint(entry, game);
    count();
  }

  function info(holder, data) {
    holder.textContent = "";
    if (data) window.hexarenaAnalysis.render(holder, data.ply, data.name, data.row);
  }

  function gone(id) {
    const entry = cards.get(id);
    if (entry) { entry.card.remove(); cards.delete(id); }
    count();
  }

  // -- finished games ---------------------------------------------------------------------
  function rowOf(row) {
    const tr = el("tr");
    tr.dataset.game = row.id;
    const first = el("td", tr);
    if (row.replay) gameLink(row.id, first); else first.textContent = row.id;
    for (const v of [row.game, row.size, row.first, row.second, row.black, row.white, row.result,
                     row.termination + (row.reason && row.void ? ": " + row.reason : ""), row.plies]) el("td", tr, v);
    return tr;
  }

  function done(row) {                                // a game just finished: on top
    gone(row.id);
    const old = finished.get(row.id);
    const tr = rowOf(row);
    const body = document.querySelector("#finished-list tbody");
    if (old) old.remove();
    body.insertBefore(tr, body.firstChild);
    finished.set(row.id, tr);
    if (typeof row.count === "number") total = row.count;
    count();
  }

  function older(rows) {                              // a page of older games: below
    const body = document.querySelector("#finished-list tbody");
    for (const row of rows) {
      if (finished.has(row.id)) continue;
      const tr = rowOf(row);
      body.appendChild(tr);
      finished.set(row.id, tr);
    }
  }

  function count() {
    $("live-count").textContent = "(" + cards.size + ")";
    total = Math.max(total, finished.size);
    $("finished-count").textContent = "(" + total + (finished.size < total ? ", newest " + finished.size + " shown" : "") + ")";
    $("finished-more").hidden = before === null;
  }

  $("finished-more").addEventListener("click", () => {
    if (before === null || asking) return;
    asking = true;
    fetch("/t/" + encodeURIComponent(key) + "/finished?before=" + before, { credentials: "same-origin" })
      .then((r) => { if (!r.ok) throw new Error("older games: " + r.status); return r.json(); })
      .then((page) => { older(page.finished); before = page.before; total = page.count; count(); })
      .catch((e) => { el("li", $("warnings"), "warning: " + e, "warning"); })
      .finally(() => { asking = false; });
  });

  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") document.querySelectorAll(".live-game.enlarged").forEach((c) => c.classList.remove("enlarged"));
  });

  // -- the stream -------------------------------------------------------------------------
  // Why the event stream was refused for good (the browser does not retry an error answer): a 403
  // is a server restarted with a new token.
  function streamRefused(say) {
    fetch(location.pathname, { method: "HEAD", credentials: "same-origin" }).then((r) => say(r.status === 403
      ? "the server no longer accepts this page's token (it was restarted): open the address it printed"
      : "the server refused this page's updates (HTTP " + r.status + "): reload the page"),
    () => say("connection lost: the server cannot be reached; reload the page once it runs again"));
  }

  const source = new EventSource(status.dataset.events);
  const on = (kind, handle) => source.addEventListener(kind, (e) => handle(JSON.parse(e.data)));
  on("snapshot", (s) => {
    for (const id of [...cards.keys()]) gone(id);
    finished.clear();
    document.querySelector("#finished-list tbody").textContent = "";
    standings(s.standings);
    total = s.finished_count;
    before = s.before;
    older(s.finished);
    count();
    s.live.forEach(live);
    const warnings = $("warnings");
    warnings.textContent = "";
    s.warnings.forEach((w) => el("li", warnings, "warning: " + w, "warning"));
  });
  on("live", live);
  on("gone", (g) => gone(g.id));
  on("finished", done);
  on("standings", standings);
  source.addEventListener("open", () => { status.textContent = "live: updates arrive as they happen"; status.classList.remove("lost"); });
  source.addEventListener("error", () => {
    status.classList.add("lost");
    if (source.readyState !== EventSource.CLOSED) { status.textContent = "connection lost: reconnecting..."; return; }
    status.textContent = "connection lost";                     // an error answer: the browser stops retrying
    streamRefused((text) => { status.textContent = text; });
  });
})();
