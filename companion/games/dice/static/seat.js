/* Free dice on a seat's page: the same dice as the scoreboard, and the seat may roll. */
"use strict";

Companion.seats.dice = {
  init(root) { Companion.games.dice.init(root); },
  render(root, payload) { Companion.games.dice.render(root, payload.public); },
};
