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
      window.hexarenaClocks.set(span, game.clocks[c], c === game.to_move && !game.stopped, game.since, game.now);
    }
    const holder = $("live-info");
    holder.textContent = "";
    if (game.info) window.hexarenaAnalysis.render(holder, game.info.ply, game.info.name, game.info.row);
    state.textContent = (game.stopped ? game.stopped + ", at ply " : "in play: ply ") + game.ply +
      (game.error ? "; " + game.error : "");
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

  // Why the event stream was refused for good (the browser does not retry an error answer): a 403
  // is a server restarted with a new token.
  function streamRefused(say) {
    fetch(location.pathname, { method: "HEAD", credentials: "same-origin" }).then((r) => say(r.status === 403
      ? "the server no longer accepts this page's token (it was restarted): open the address it printed"
      : "the server refused this page's updates (HTTP " + r.status + "): reload the page"),
    () => say("connection lost: the server cannot be reached; reload the page once it runs again"));
  }

  const source = new EventSource(state.dataset.events);
  source.addEventListener("error", () => {       // an error answer (not a dropped connection): no retry
    if (source.readyState === EventSource.CLOSED && state.dataset.live === "1") {
      streamRefused((text) => { state.textContent = text; });
    }
  });
  const on = (kind, handle) => source.addEventListener(kind, (e) => handle(JSON.parse(e.data)));
  on("entry", (entry) => window.hexarenaReplay.update(0, entry));
  on("live", live);
  on("finished", finished);
  on("gone", () => setTimeout(() => { if (state.dataset.live === "1") finished(); }, 500));
})();
