/* Twenty-one on the scoreboard: the count, and who is to play (or who said 21). */
"use strict";

Companion.games.twentyone = {
  render(root, view, payload) {
    const strings = JSON.parse(document.getElementById("twentyone-strings").textContent);
    const seat = (n) => (payload.seats[n].name || payload.seats[n].label);
    root.querySelector("#twentyone-count").textContent = String(view.count);
    root.querySelector("#twentyone-status").textContent = view.loser === null
      ? Companion.fill(strings.turn, { name: seat(view.turn) }) : Companion.fill(strings.lost, { name: seat(view.loser) });
  },
};
