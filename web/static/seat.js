/* A seat's private page: the game's seat fragment (or a plain listing), live over the seat's own stream. */
"use strict";

(() => {
  const seat = JSON.parse(document.getElementById("seat").textContent);
  const root = document.getElementById("seat-game");
  const pageGame = root.dataset.game;
  const renderer = Companion.seats[pageGame];
  let version = -1;
  Companion.keepSeat(seat.token);

  function render(payload) {
    // Another game started: its fragment and script differ, so load the page afresh.
    if (payload.game !== pageGame) { window.location.reload(); return; }
    if (payload.version < version) return;
    version = payload.version;
    document.body.dataset.version = String(payload.version);
    const mine = (payload.seats || []).find((s) => s.seat === seat.seat);
    if (mine) {
      document.getElementById("seat-name").textContent = mine.name || mine.label;
      document.documentElement.style.setProperty("--seat", mine.ink);
    }
    document.getElementById("not-playing").hidden = !mine || mine.playing;
    Companion.renderSeats(document.getElementById("seats-bar"), payload.seats, payload.public && payload.public.turn);
    if (renderer) { renderer.render(root, payload); return; }
    const target = document.getElementById("private-view");
    const view = payload.private || {};
    if (Object.keys(view).length) Companion.renderView(target, view);
    else target.replaceChildren(Companion.el("p", { class: "hint", text: Companion.t("nothing_private") }));
  }

  if (renderer && renderer.init) renderer.init(root);
  render(JSON.parse(document.getElementById("snapshot").textContent));
  Companion.live(`/api/seat/${encodeURIComponent(seat.token)}/events`, render);
})();
