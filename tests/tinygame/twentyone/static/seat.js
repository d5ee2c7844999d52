/* Twenty-one on a seat's page: the count, and +1, +2, +3 when it is this seat's turn. */
"use strict";

Companion.seats.twentyone = {
  init(root) {
    for (const button of root.querySelectorAll("#twentyone-add button")) {
      button.addEventListener("click", () => Companion.command("add", { n: Number(button.dataset.n) }));
    }
  },
  render(root, payload) {
    Companion.games.twentyone.render(root, payload.public, payload);
    for (const button of root.querySelectorAll("#twentyone-add button")) button.disabled = !payload.private.my_turn;
  },
};
