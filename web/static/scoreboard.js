/* The public scoreboard: render the game's public view live, and the host's controls. */
"use strict";

(() => {
  const root = document.getElementById("game");
  const pageGame = root.dataset.game;
  let version = -1;

  function render(payload) {
    // Another game started: its fragment and script differ, so load the page afresh.
    if (payload.game !== pageGame) { window.location.reload(); return; }
    if (payload.version < version) return;
    version = payload.version;
    document.body.dataset.version = String(version);
    const renderer = Companion.games[payload.game];
    if (renderer) renderer.render(root, payload.public, payload);
    else Companion.renderView(document.getElementById("public-view"), payload.public);
  }

  const renderer = Companion.games[pageGame];
  if (renderer && renderer.init) renderer.init(root);
  render(JSON.parse(document.getElementById("snapshot").textContent));
  Companion.live("/api/events", render);

  // Host controls appear only once the server has confirmed this phone's token.
  const host = Companion.hostToken();
  if (host) {
    Companion.request("GET", "/api/state", undefined, { "X-Host-Token": host }).then((answer) => {
      if (answer.ok && answer.data.host) document.getElementById("host").hidden = false;
      else if (answer.ok) Companion.forgetHost();
    });
  }

  document.getElementById("undo").addEventListener("click", async () => {
    const answer = await Companion.command("undo");
    if (answer.status === 403) { Companion.forgetHost(); document.getElementById("host").hidden = true; }
  });

  // New game wipes the table's current game, so it takes a second tap within a few seconds.
  const newGame = document.getElementById("new-game");
  let armed = null;
  newGame.addEventListener("click", async () => {
    if (!armed) {
      newGame.textContent = Companion.t("new_game_confirm");
      newGame.classList.add("armed");
      armed = setTimeout(() => { armed = null; newGame.textContent = newGame.dataset.label; newGame.classList.remove("armed"); }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = null;
    newGame.textContent = newGame.dataset.label;
    newGame.classList.remove("armed");
    await Companion.command("new_game", { game: pageGame });
  });
})();
