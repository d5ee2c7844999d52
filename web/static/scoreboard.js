/* The public scoreboard: the game's public view live, the seats, and links to this phone's seat or host page. */
"use strict";

(() => {
  const root = document.getElementById("game");
  const pageGame = root.dataset.game;
  const lines = JSON.parse(document.getElementById("history-lines").textContent);
  let version = -1;

  // The table's public history, newest first: who acted and what kind of move, never its values.
  function renderHistory(history, seatList) {
    const names = new Map((seatList || []).map((s) => [s.seat, Companion.seatName(s)]));
    const items = (history || []).slice().reverse().map((entry) =>
      Companion.el("li", { text: Companion.historyLine(entry, lines, names) }));
    document.getElementById("table-history").replaceChildren(...items);
  }

  function render(payload) {
    // Another game started: its fragment and script differ, so load the page afresh.
    if (payload.game !== pageGame) { window.location.reload(); return; }
    if (payload.version < version) return;
    version = payload.version;
    document.body.dataset.version = String(version);
    // A finished game's record is everyone's to keep; before it ends it would tell secrets.
    for (const id of ["download-game", "download-bgstats"]) document.getElementById(id).hidden = !payload.over;
    Companion.renderSeats(document.getElementById("seats-bar"), payload.seats, payload.public && payload.public.turn);
    Companion.showEnded(payload);
    const match = document.getElementById("match-game");
    match.textContent = Companion.matchLine(payload);
    match.hidden = !match.textContent;
    renderHistory(payload.history, payload.seats);
    if (renderer) renderer.render(root, payload.public, payload);
  }

  // The game's own renderer, else the generated page's (when the game ships no scoreboard fragment).
  const renderer = Companion.games[pageGame] || (Companion.generated && Companion.generated.scoreboard);
  if (renderer && renderer.init) renderer.init(root);
  render(JSON.parse(document.getElementById("snapshot").textContent));
  Companion.live("/api/events", render);

  // Links appear only once the server has confirmed this phone's tokens.
  const seat = Companion.seatToken();
  if (seat) {
    Companion.fetchPart(`/api/seat/${encodeURIComponent(seat)}`).then((answer) => {
      if (answer.ok) {
        const link = document.getElementById("my-seat");
        link.href = `/seat/${encodeURIComponent(seat)}`;
        link.hidden = false;
        document.getElementById("join-link").hidden = true;
      } else if (answer.status === 404) Companion.forgetSeat();
    });
  }
  if (Companion.hostToken()) {
    Companion.fetchPart("/api/state", Companion.hostHeaders()).then((answer) => {
      if (answer.ok && answer.data.host) document.getElementById("host-link").hidden = false;
      else if (answer.ok) Companion.forgetHost();
    });
  }
})();
