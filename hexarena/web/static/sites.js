// hexarena play and the analysis board: one board site painted from a position and the person's
// action in the building (the stone and its height, the last action, the sites a click may take,
// the sites already picked). Attributes only: the stylesheet draws them.
"use strict";
window.hexarenaSites = {
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
