// hexarena serve: the clocks of a game in flight, counted down in the page between updates.
// A clock is {control, move, main, increment, text, left}; `since` is the wall time (seconds)
// of the game's last action as the referee wrote it, `now` the server's time of the update.
"use strict";
window.hexarenaClocks = (function () {
  const shown = new Map();     // element -> {clock, running, since, offset}

  function format(seconds) {
    if (seconds === null || seconds === undefined || !isFinite(seconds)) return "";
    const tenths = Math.floor(Math.max(0, seconds) * 10 + 1e-6);       // rounded down, as a clock runs
    const m = Math.floor(tenths / 600);
    const rest = (tenths - 600 * m) / 10;
    return m + ":" + (rest < 10 ? "0" : "") + rest.toFixed(1);          // 1:00.0, 0:09.5
  }

  function remaining(state, nowSeconds) {
    const { clock, running, since, offset } = state;
    const elapsed = running && since ? Math.max(0, nowSeconds + offset - since) : 0;
    if (clock.control === "move") return running ? (clock.move || 10) - elapsed : null;
    const left = clock.left !== null && clock.left !== undefined ? clock.left : clock.main;
    return left - elapsed;
  }

  function draw(el, state) {
    const value = remaining(state, Date.now() / 1000);
    const word = el.dataset.colour === "b" ? "Black" : "White";
    el.textContent = word + " " + (value === null ? "(" + state.clock.text + ")" : format(value));
    el.classList.toggle("running", state.running);
    el.dataset.left = value === null ? "" : value.toFixed(2);
  }

  // set(el, clock, running, since, now): show a clock; it counts down while `running`.
  function set(el, clock, running, since, now) {
    const state = { clock: clock || { control: "move", text: "" }, running, since,
                    offset: now ? now - Date.now() / 1000 : 0 };
    shown.set(el, state);
    draw(el, state);
  }

  setInterval(() => {
    for (const [el, state] of shown) {
      if (!el.isConnected) shown.delete(el);
      else if (state.running) draw(el, state);
    }
  }, 100);
  return { set, format };
})();
