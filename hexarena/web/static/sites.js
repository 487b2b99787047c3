// hexarena play and the analysis board: one board site painted from a position and the person's
// action in the building (the stone and its height, the last action, the sites a click may take,
// the sites already picked). Attributes only: the stylesheet draws them. And their requests.
"use strict";
window.hexarenaSites = {
  // A JSON POST's answer; a refusal when the server answers with text, not JSON (a 403 without
  // the token), or `gone` when it cannot be reached (it stopped).
  async post(path, body, gone) {
    try {
      const answer = await fetch(path, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
      });
      const text = await answer.text();
      try { return JSON.parse(text); } catch (e) { return { refused: text.trim() || "the server answered " + answer.status }; }
    } catch (e) {
      return { refused: gone };
    }
  },
  paint(el, name, stone, marks) {
    el.setAttribute("data-stone", stone.slice(0, 1));
    el.setAttribute("data-height", stone ? (stone.slice(1) || "1") : "");
    const height = el.querySelector(".height");
    if (height) height.textContent = stone.slice(1);
    if (marks.last.has(name)) el.setAttribute("data-last", "1"); else el.removeAttribute("data-last");
    if (marks.targets.has(name)) el.setAttribute("data-target", "1"); else el.removeAttribute("data-target");
    if (marks.picks.has(name)) el.setAttribute("data-pick", marks.picks.get(name)); else el.removeAttribute("data-pick");
  },
};
