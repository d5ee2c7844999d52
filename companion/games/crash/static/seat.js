/* Crash! on a seat's page: roll, tap a car that has a die, turn it or drive it forward, end the turn;
   in dice-only play, mark the cars that leave play. Only the moves `legal` allows are offered. */
"use strict";

Companion.seats.crash = {
  init(root) {
    Companion.games.crash.init(root);
    this.strings = JSON.parse(root.querySelector("#crash-seat-strings").textContent);
    this.selected = null;  // the car number chosen on the board
    this.marking = null;  // dice only: [seat, car] being marked out
    // The choices for a car go right under the board it was tapped on, with the end of the turn: a move
    // bar, in view while this seat steers.
    root.querySelector("#crash-board").after(root.querySelector("#crash-move-bar"));
    const send = (kind, args) => Companion.command(kind, args);
    root.querySelector("#crash-roll").addEventListener("click", () => send("roll", {}));
    root.querySelector("#crash-next").addEventListener("click", () => send("next_game", {}));
    root.querySelector("#crash-end").addEventListener("click", () => send("end", {}));
    root.querySelector("#crash-forward").addEventListener("click", () => send("move", { car: this.selected }));
    root.querySelector("#crash-cancel").addEventListener("click", () => { this.selected = null; this.render(root, this.payload); });
    for (const button of root.querySelectorAll("#crash-dirs button")) {
      button.addEventListener("click", () => send("turn", { car: this.selected, facing: button.dataset.facing }));
    }
  },

  render(root, payload) {
    this.payload = payload;
    const game = Companion.games.crash;
    const view = payload.public;
    const mine = payload.private || {};
    const legal = payload.legal || mine.legal || [];
    const steerable = mine.steerable || [];
    if (!steerable.includes(this.selected)) this.selected = null;
    game.render(root, view, payload, { seat: payload.seat, steerable, selected: this.selected,
                                       onCar: (car) => { this.selected = car; this.render(root, payload); } });
    const may = (kind) => legal.includes(kind);
    let hint;
    if (view.result) hint = this.strings.over;
    else if (!mine.my_turn) hint = Companion.fill(this.strings.wait, { name: game.name(payload, view.turn) });
    else if (view.mode === "dice") hint = may("roll") ? this.strings.your_roll : this.strings.your_dice;
    else if (may("roll")) hint = this.strings.your_roll;
    else hint = steerable.length ? this.strings.your_steer : this.strings.no_die;
    root.querySelector("#crash-turn").textContent = hint;
    root.querySelector("#crash-roll").hidden = !may("roll");
    root.querySelector("#crash-next").hidden = !may("next_game");
    root.querySelector("#crash-end").hidden = !may("end");

    const chosen = this.selected;
    root.querySelector("#crash-steer").hidden = chosen === null;
    if (chosen !== null) {
      root.querySelector("#crash-chosen").textContent = Companion.fill(this.strings.chosen, { n: chosen });
      const facings = (mine.facings || {})[String(chosen)] || [];
      for (const button of root.querySelectorAll("#crash-dirs button")) {
        button.hidden = !may("turn") || !facings.includes(button.dataset.facing);
      }
      root.querySelector("#crash-forward").hidden = !may("move");
    }
    this.renderMarking(root, view, payload, may("mark_out"));
  },

  // Dice only: every car in play as a button; the one tapped asks where it went.
  renderMarking(root, view, payload, allowed) {
    const game = Companion.games.crash;
    const el = Companion.el;
    root.querySelector("#crash-mark").hidden = !allowed;
    const playing = view.cars.filter((c) => c.status === "board" || c.status === "waiting");
    if (!allowed || (this.marking && !playing.some((c) => c.seat === this.marking[0] && c.car === this.marking[1]))) {
      this.marking = null;
    }
    if (!allowed) return;
    root.querySelector("#crash-mark-cars").replaceChildren(...playing.map((c) => {
      const pressed = this.marking && this.marking[0] === c.seat && this.marking[1] === c.car;
      const button = el("button", { type: "button", "aria-pressed": String(Boolean(pressed)),
                                    style: `border-color:${game.ink(payload, c.seat)}`, text: game.label(payload, c.seat, c.car) });
      button.addEventListener("click", () => { this.marking = [c.seat, c.car]; this.render(root, this.payload); });
      return button;
    }));
    const where = root.querySelector("#crash-mark-where");
    where.hidden = !this.marking;
    if (!this.marking) return;
    const [seat, car] = this.marking;
    root.querySelector("#crash-mark-text").textContent = Companion.fill(this.strings.mark, { car: game.label(payload, seat, car) });
    const places = [[null, this.strings.off],
                    ...[0, 1].map((by) => [by, Companion.fill(this.strings.into, { name: game.name(payload, by) })])];
    root.querySelector("#crash-mark-places").replaceChildren(...places.map(([by, text]) => {
      const button = el("button", { type: "button", text });
      button.addEventListener("click", () => Companion.command("mark_out", { owner: seat, car, by }));
      return button;
    }));
  },
};
