// A game in play: its events (one per move, clock update and result)
// redraw the board, the status line and the clocks; the running clock
// counts down between events. EventSource connects again by itself and
// the host sends the current state first.
"use strict";
(function () {
  const live = document.querySelector(".live");
  if (!live || !window.EventSource) return;
  const board = live.querySelector(".board-now");
  const status = live.querySelector(".status b");
  const list = live.querySelector(".list");
  const after = live.querySelector(".after");
  const clocks = live.querySelectorAll(".clock");
  let left = null, running = null, at = 0;
  function text(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function tick() {
    if (!left) return;
    clocks.forEach(function (c) {
      const side = Number(c.dataset.side);
      const ms = left[side] - (running === side ? Date.now() - at : 0);
      c.textContent = text(ms);
      c.classList.toggle("running", running === side);
    });
  }
  const source = new EventSource(live.dataset.events);
  source.onmessage = function (e) {
    const s = JSON.parse(e.data);
    board.innerHTML = s.board;
    status.textContent = s.status;
    if (list) list.textContent = s.list;
    left = s.clocks; running = s.running; at = Date.now();
    tick();
    live.dataset.moves = s.moves;
    if (s.over) {
      live.classList.add("over");
      if (s.record && !after.querySelector("a")) {
        const a = document.createElement("a");
        a.href = "/g/" + s.record;
        a.textContent = after.dataset.text || "The recorded game";
        after.appendChild(a);
        source.close();
      }
    }
  };
  setInterval(tick, 250);
})();
