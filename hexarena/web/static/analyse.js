// hexarena analysis board: step through a record, branch off by clicks, ask the engine.
// The server replays the line shown; its requests go to DATA.base + "/position", "/click", "/ask".
// Strings are only set with textContent.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const WORD = { b: "Black", w: "White" };
  const DATA = JSON.parse($("analyse-data").textContent);
  const sites = new Map();
  document.querySelectorAll("#board g.site").forEach((el) => sites.set(el.dataset.site, el));
  let line = DATA.main.slice();       // the actions of the line shown
  let ply = line.length;              // how many of them are on the board
  let pos = null;                     // the server's position at `ply`
  let build = { clicks: [], roles: [], targets: [], token: null, more: false, hint: "" };
  let advice = null;                  // the engine's answer for the position shown
  let asked = 0;                      // ask counter: a late answer for another position is dropped

  function say(text) { $("message").textContent = text || ""; }

  // A request's answer (hexarenaSites.post), with what to say when the server is gone.
  function post(path, body) {
    return window.hexarenaSites.post(path, body, "the server cannot be reached (it stopped?): start it again, then reload the page");
  }

  async function go(n) {
    n = Math.max(0, Math.min(line.length, n));
    const answer = await post(DATA.base + "/position", { tokens: line.slice(0, n) });
    if (answer.refused) { say(answer.refused); return false; }
    ply = n;
    pos = answer;
    advice = null;
    asked++;
    build = { clicks: [], roles: [], targets: pos.build.targets, token: null, more: false, hint: pos.build.hint };
    say("");
    draw();
    return true;
  }

  function draw() {
    const picks = new Map(build.clicks.map((s, i) => [s, build.roles[i]]));
    const targets = new Set(pos.result ? [] : build.targets);
    const last = new Set(pos.last);
    const pv = new Map();
    const info = advice && advice.info.length ? advice.info[advice.info.length - 1] : null;
    if (info && info.pv_sites) info.pv_sites.forEach((names, i) => names.forEach((n) => { if (!pv.has(n)) pv.set(n, i + 1); }));
    document.querySelectorAll("#board text.pv-label").forEach((t) => t.remove());
    for (const [name, el] of sites) {
      window.hexarenaSites.paint(el, name, pos.stones[name] || "", { last, targets, picks });
      if (pv.has(name)) {
        el.setAttribute("data-pv", String(pv.get(name)));
        const mark = el.querySelector(".mark");
        const label = document.createElementNS(SVG, "text");
        label.setAttribute("class", "pv-label");
        label.setAttribute("x", mark.getAttribute("cx"));
        label.setAttribute("y", mark.getAttribute("cy"));
        label.textContent = String(pv.get(name));
        el.appendChild(label);
      } else el.removeAttribute("data-pv");
    }
    const lines = document.querySelectorAll("#board text.status");
    if (lines.length === 3) {
      lines[0].textContent = WORD[pos.to_move] + " to move, phase " + pos.phase;
      lines[1].textContent = (pos.shown ? pos.shown + "; " : "") + "ply " + ply;
      lines[2].textContent = pos.result ? "result " + pos.result : (ply ? "last: " + line[ply - 1] : "");
    }
    $("ply").textContent = "ply " + ply + " of " + line.length;
    const branched = line.length !== DATA.main.length || line.some((t, i) => t !== DATA.main[i]);
    $("main-line").hidden = !branched;
    $("turn").textContent = pos.result ? "Game over: " + pos.result : WORD[pos.to_move] + " to move";
    const buttons = $("buttons");
    buttons.textContent = "";
    for (const word of pos.result ? [] : pos.build.words.filter((w) => w !== "resign")) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.word = word;
      button.textContent = word;
      button.addEventListener("click", () => branch(word));
      buttons.appendChild(button);
    }
    $("komi").hidden = !pos.build.komi.length || !!pos.result;
    if (pos.build.komi.length) {
      $("komi-value").min = String(pos.build.komi[0]);
      $("komi-value").max = String(pos.build.komi[pos.build.komi.length - 1]);
    }
    $("building").hidden = !build.clicks.length;
    $("play-built").hidden = !(build.token && build.more);
    $("play-built").textContent = build.token ? "play " + build.token : "";
    $("hint").textContent = pos.result ? "" : build.hint;
    $("ask").hidden = !DATA.engine;
    $("no-engine").hidden = !!DATA.engine;
    $("ask").disabled = !!pos.result;
    $("ask").textContent = "ask " + (DATA.engine || "the engine");
    $("advice").textContent = adviceText();
    const moves = $("moves");
    moves.textContent = "";
    line.forEach((token, i) => {
      const li = document.createElement("li");
      li.textContent = token;
      if (i === ply - 1) li.classList.add("current");
      if (i >= DATA.main.length || token !== DATA.main[i]) li.classList.add("branch");
      li.addEventListener("click", () => go(i + 1));
      moves.appendChild(li);
    });
  }

  function adviceText() {
    if (!advice) return "";
    const out = [advice.engine + " plays " + advice.action];
    for (const info of advice.info) {
      const parts = [];
      if (info.winrate !== undefined) parts.push("winrate " + (100 * info.winrate).toFixed(1) + "%");
      if (info.score !== undefined) parts.push("score " + info.score);
      if (info.visits !== undefined) parts.push("visits " + info.visits);
      if (info.depth !== undefined) parts.push("depth " + info.depth);
      if (info.pv) parts.push("pv " + info.pv.join(" "));
      out.push(parts.join(", "));
    }
    if (!advice.info.length) out.push("(no analysis: the engine " + (advice.command === "genmove" ? "does not list genmove_analyze)" : "gave no info line)"));
    return out.join("\n");
  }

  async function branch(token) {
    const before = line;
    line = line.slice(0, ply).concat([token]);
    if (before.length > ply && before[ply] === token) line = before;     // the line's own next action
    if (!(await go(ply + 1))) line = before;
  }

  async function clickSite(name) {
    if (pos.result) { say("the game is over here"); return; }
    const answer = await post(DATA.base + "/click", { tokens: line.slice(0, ply), clicks: build.clicks, site: name });
    if (answer.refused) { say(answer.refused); return; }
    say("");
    build = answer;
    draw();
    if (build.token && !build.more) await branch(build.token);
  }

  async function ask() {
    const mine = ++asked;
    $("advice").textContent = DATA.engine + " is thinking…";
    const answer = await post(DATA.base + "/ask", { tokens: line.slice(0, ply) });
    if (mine !== asked) return;
    if (answer.refused) { $("advice").textContent = ""; say(answer.refused); return; }
    advice = answer;
    draw();
  }

  for (const [name, el] of sites) el.addEventListener("click", () => clickSite(name));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(ply - 1));
  $("next").addEventListener("click", () => go(ply + 1));
  $("last").addEventListener("click", () => go(line.length));
  $("main-line").addEventListener("click", () => { line = DATA.main.slice(); go(Math.min(ply, line.length)); });
  $("komi-offer").addEventListener("click", () => branch("komi=" + $("komi-value").value));
  $("play-built").addEventListener("click", () => { if (build.token) branch(build.token); });
  $("clear-built").addEventListener("click", () => go(ply));
  $("ask").addEventListener("click", ask);
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT") return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: line.length }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  });
  go(ply);
})();
