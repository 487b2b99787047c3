// hexarena play: the person builds actions by clicks; the server's rules say what may come next.
// Data come from the JSON island #play-data and /play/events; strings are only set with textContent.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const WORD = { b: "Black", w: "White" };
  const sites = new Map();
  document.querySelectorAll("#board g.site").forEach((el) => sites.set(el.dataset.site, el));
  let game = JSON.parse($("play-data").textContent);
  let build = { clicks: [], roles: [], targets: [], token: null, more: false, hint: "" };
  let busy = false;
  let resignArmed = false;            // resign was clicked once: the next click sends it
  let received = performance.now();

  function say(text) { $("message").textContent = text || ""; }

  // A request's answer (hexarenaSites.post), with what to say when the server is gone.
  function post(path, body) {
    return window.hexarenaSites.post(path, body, "the server cannot be reached (it stopped?): nothing was sent, and this game is not recorded");
  }

  function resetBuild() {
    const b = game.build || { targets: [], hint: "" };
    build = { clicks: [], roles: [], targets: b.targets, token: null, more: false, hint: b.hint };
  }

  function drawBoard() {
    const picks = new Map(build.clicks.map((s, i) => [s, build.roles[i]]));
    const targets = new Set(game.your_turn ? build.targets : []);
    const last = new Set(game.last);
    for (const [name, el] of sites) {
      window.hexarenaSites.paint(el, name, game.stones[name] || "", { last, targets, picks });
    }
    const lines = document.querySelectorAll("#board text.status");
    if (lines.length === 3) {
      lines[0].textContent = game.result ? "game over" : WORD[game.to_move] + " to move, phase " + game.phase;
      lines[1].textContent = (game.shown ? game.shown + "; " : "") + "ply " + game.ply;
      lines[2].textContent = game.tokens.length ? "last: " + game.tokens[game.tokens.length - 1] : "";
    }
  }

  function drawSide() {
    for (const c of ["b", "w"]) {
      const row = $("clock-" + c);
      row.querySelector(".who").textContent = WORD[c] + ": " + game.names[c];
      row.classList.toggle("you", game.you === c);
      row.classList.toggle("running", game.running === c);
    }
    drawClocks();
    $("turn").textContent = game.result ? "" : game.your_turn ? "Your turn (" + WORD[game.you] + ")"
      : "The engine is thinking…";
    const buttons = $("buttons");
    buttons.textContent = "";
    const b = game.your_turn && game.build ? game.build : null;
    for (const word of b ? b.words : []) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.word = word;
      button.textContent = word;
      if (word === "resign") {
        button.textContent = resignArmed ? "resign: click again to confirm" : "resign";
        button.classList.toggle("armed", resignArmed);
        button.addEventListener("click", () => {
          if (resignArmed) { resignArmed = false; send(word); return; }
          resignArmed = true;
          drawSide();
        });
        if (resignArmed) {
          const cancel = document.createElement("button");
          cancel.type = "button";
          cancel.id = "resign-cancel";
          cancel.textContent = "keep playing";
          cancel.addEventListener("click", () => { resignArmed = false; drawSide(); });
          buttons.appendChild(button);
          buttons.appendChild(cancel);
          continue;
        }
      } else button.addEventListener("click", () => send(word));
      buttons.appendChild(button);
    }
    $("komi").hidden = !(b && b.komi.length);
    $("komi-help").textContent = game.komi_words || "";      // declared by the game (GameInfo.komi_words)
    if (b && b.komi.length) {
      $("komi-value").min = String(b.komi[0]);
      $("komi-value").max = String(b.komi[b.komi.length - 1]);
    }
    $("building").hidden = !(game.your_turn && build.clicks.length);
    $("play-built").hidden = !(build.token && build.more);     // a complete, final action is sent at once
    $("play-built").textContent = build.token ? "play " + build.token : "";
    $("hint").textContent = game.your_turn ? build.hint : "";
    const moves = $("moves");
    moves.textContent = "";
    game.tokens.forEach((token) => {
      const li = document.createElement("li");
      li.textContent = token;
      moves.appendChild(li);
    });
    moves.scrollTop = moves.scrollHeight;
    $("news").textContent = game.news || "";
    $("result").textContent = game.result ? "Game over. " + game.result.text : game.error;
    $("recorded").textContent = game.result ? game.result.detail +
      (game.result.sgf ? "; recorded in " + game.result.folder + "/" + game.result.sgf : "") : "";
  }

  function drawAnalysis() {
    const a = game.analysis;
    $("analysis").hidden = !a;
    $("analysis-text").textContent = "";
    if (a) window.hexarenaAnalysis.render($("analysis-text"), a.ply, a.name, a.row);
  }

  function drawClocks() {
    const spent = (performance.now() - received) / 1000;
    for (const c of ["b", "w"]) {
      let left = game.clocks[c];
      const cell = $("clock-" + c).querySelector(".clock");
      if (left === null || left === undefined) { cell.textContent = "no limit"; continue; }
      if (game.running === c) left = Math.max(0, left - spent);
      const tenths = Math.floor(left * 10 + 1e-6);          // rounded down: never 0:60.0
      const m = Math.floor(tenths / 600), s = (tenths - 600 * m) / 10;
      cell.textContent = m + ":" + (s < 10 ? "0" : "") + s.toFixed(1);
    }
  }

  function show(snapshot) {
    const turnChanged = snapshot.ply !== game.ply || snapshot.your_turn !== game.your_turn;
    game = snapshot;
    received = performance.now();
    if (turnChanged || !game.your_turn) { resetBuild(); resignArmed = false; }
    drawBoard();
    drawSide();
    drawAnalysis();
    if (game.result) {                    // the server stops once the page has the final state
      events.close();
      $("connection").textContent = "The game is over and recorded: the server stops.";
    }
  }

  async function send(token) {
    if (busy) return;
    busy = true;
    const version = game.version;
    try {
      const answer = await post("/play/action", { token });
      if (answer.refused) { say(answer.refused); return; }
      say("");
      if (game.version !== version) return;     // the engine's answer came first: the page shows it
      build = { clicks: [], roles: [], targets: [], token: null, more: false, hint: "" };
      game.your_turn = false;
      drawBoard();
      drawSide();
    } finally { busy = false; }
  }

  async function clickSite(name) {
    if (resignArmed) { resignArmed = false; drawSide(); }
    if (!game.your_turn) { say(game.result ? "the game is over" : "it is not your turn: the engine is thinking"); return; }
    if (busy) return;
    busy = true;
    let answer;
    try { answer = await post("/play/click", { clicks: build.clicks, site: name }); } finally { busy = false; }
    if (answer.refused) { say(answer.refused); return; }
    say("");
    build = answer;
    drawBoard();
    drawSide();
    if (build.token && !build.more) await send(build.token);
  }

  for (const [name, el] of sites) el.addEventListener("click", () => clickSite(name));
  $("komi-offer").addEventListener("click", () => send("komi=" + $("komi-value").value));
  $("play-built").addEventListener("click", () => { if (build.token) send(build.token); });
  $("clear-built").addEventListener("click", () => { resetBuild(); say(""); drawBoard(); drawSide(); });

  // Why the event stream was refused for good (the browser does not retry an error answer): a 403
  // is a server restarted with a new token.
  function streamRefused(say) {
    fetch(location.pathname, { method: "HEAD", credentials: "same-origin" }).then((r) => say(r.status === 403
      ? "the server no longer accepts this page's token (it was restarted): open the address it printed"
      : "the server refused this page's updates (HTTP " + r.status + "): reload the page"),
    () => say("connection lost: the server cannot be reached; reload the page once it runs again"));
  }

  const events = new EventSource("/play/events");
  events.onmessage = (e) => { $("connection").textContent = ""; show(JSON.parse(e.data)); };
  events.onerror = () => {
    if (events.readyState !== EventSource.CLOSED) { $("connection").textContent = "connection lost; retrying…"; return; }
    streamRefused((text) => { $("connection").textContent = text; });     // no retry after an error answer
  };
  setInterval(drawClocks, 200);
  resetBuild();
  drawBoard();
  drawSide();
  drawAnalysis();
})();
