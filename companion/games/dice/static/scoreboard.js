/* Free dice on the phone: the last roll big, its total, the history; anyone may roll. */
"use strict";

Companion.games.dice = {
  init(root) {
    // Rolling takes a seat or the host: on the scoreboard of a phone with neither, only watch.
    const mayRoll = Boolean(document.getElementById("seat") || Companion.hostToken());
    root.querySelector("#roll").hidden = !mayRoll;
    root.querySelector(".count").hidden = !mayRoll;
    const roll = root.querySelector("#roll");
    roll.addEventListener("click", async () => {
      roll.disabled = true;
      try { await Companion.command("roll"); } finally { roll.disabled = false; }
    });
    for (const button of root.querySelectorAll("#dice-count button")) {
      button.addEventListener("click", () => Companion.command("set_dice", { count: Number(button.dataset.count) }));
    }
  },

  render(root, view) {
    const faces = root.querySelector("#dice-faces");
    const last = view.last || [];
    faces.replaceChildren(...last.map((value) => Companion.die(value)));
    faces.dataset.roll = String(view.rolls);
    root.querySelector("#dice-total").textContent = last.length ? String(view.total) : "–";
    root.querySelector("#dice-total-line").hidden = !last.length;
    root.querySelector("#dice-empty").hidden = last.length > 0;
    for (const button of root.querySelectorAll("#dice-count button")) {
      button.setAttribute("aria-pressed", String(Number(button.dataset.count) === view.count));
    }
    const history = root.querySelector("#dice-history");
    history.replaceChildren(...(view.history || []).map((roll) => Companion.el("li", {}, [
      Companion.el("span", { class: "n", text: Companion.t("roll_n", { n: roll.n }) }),
      Companion.el("span", { class: "mini" }, roll.dice.map((value) => Companion.die(value, "die small"))),
      Companion.el("strong", { text: String(roll.total) }),
    ])));
  },
};
