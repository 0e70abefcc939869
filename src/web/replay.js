// The replay of a recorded game: the buttons and the arrow keys step
// through the moves without loading the page again (the links still work
// without this script).
"use strict";
(function () {
  const replay = document.querySelector(".replay");
  if (!replay) return;
  const total = Number(replay.dataset.moves);
  let shown = Number(replay.dataset.shown);
  const stones = replay.querySelectorAll("g.stone");
  const items = document.querySelectorAll("ol.moves li");
  const at = replay.querySelector(".at");
  const wins = replay.querySelectorAll("circle.win");
  function show(n) {
    shown = Math.max(0, Math.min(total, n));
    stones.forEach(function (s) {
      const k = Number(s.dataset.n);
      s.classList.toggle("later", k > shown);
      const c = s.querySelector("circle");
      if (c) c.classList.toggle("last", k === shown);
    });
    items.forEach(function (li) {
      li.classList.toggle("current", Number(li.dataset.n) === shown);
    });
    wins.forEach(function (w) { w.classList.toggle("later", shown < total); });
    if (at) {
      const words = at.dataset.text || "move #n of #m";
      at.textContent = words.replace("#n", shown).replace("#m", total);
    }
    history.replaceState(null, "", "?move=" + shown);
  }
  const steps = { first: function () { return 0; }, back: function () { return shown - 1; },
    next: function () { return shown + 1; }, last: function () { return total; } };
  replay.querySelectorAll("a.step").forEach(function (a) {
    a.addEventListener("click", function (e) {
      e.preventDefault();
      show(steps[a.dataset.step]());
    });
  });
  items.forEach(function (li) {
    const a = li.querySelector("a");
    if (a) a.addEventListener("click", function (e) { e.preventDefault(); show(Number(li.dataset.n)); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowLeft") show(shown - 1);
    else if (e.key === "ArrowRight") show(shown + 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(total);
    else return;
    e.preventDefault();
  });
})();
