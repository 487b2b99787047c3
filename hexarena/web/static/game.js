// hexarena serve: one game in the report's replay viewer (replay.js). A game in flight follows
// its event stream: `entry` (the viewer's data so far, its winrate chart growing with each
// analysed action), `live` (clocks, latest analysis, as analysis.js's render says it),
// `finished` (then the journaled game's data are fetched once). Strings are only set as text.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const state = $("game-state");
  const data = JSON.parse($("report-data").textContent);
  window.hexarenaReplay.update(0, data.games[0]);
  document.body.classList.add("game-page");
  if (state.dataset.live !== "1") return;

  const panel = $("live-panel");
  panel.hidden = false;

  function live(game) {
    for (const span of panel.querySelectorAll(".clock")) {
      const c = span.dataset.colour;
      window.hexarenaClocks.set(span, game.clocks[c], c === game.to_move, game.since, game.now);
    }
    const holder = $("live-info");
    holder.textContent = "";
    if (game.info) window.hexarenaAnalysis.render(holder, game.info.ply, game.info.name, game.info.row);
    state.textContent = "in play: ply " + game.ply + (game.error ? "; " + game.error : "");
    state.dataset.ply = String(game.ply);
  }

  function finished() {
    source.close();
    panel.hidden = true;
    if ($("analyse-live")) $("analyse-live").hidden = true;      // the board opens on the record now
    fetch(state.dataset.data, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : null))
      .then((entry) => {
        state.textContent = entry ? "finished: " + entry.r + " (" + entry.t + ")" : "finished";
        state.dataset.live = "0";
        if (entry) window.hexarenaReplay.update(0, entry);
      })
      .catch((error) => {             // the game is over whatever the fetch met: never left "in play"
        if (state.dataset.live === "1") {
          state.textContent = "finished (its record could not be loaded: reload the page)";
          state.dataset.live = "0";
        }
        throw error;                  // and the console says what went wrong
      });
  }

  const source = new EventSource(state.dataset.events);
  const on = (kind, handle) => source.addEventListener(kind, (e) => handle(JSON.parse(e.data)));
  on("entry", (entry) => window.hexarenaReplay.update(0, entry));
  on("live", live);
  on("finished", finished);
  on("gone", () => setTimeout(() => { if (state.dataset.live === "1") finished(); }, 500));
})();
