/* Crazy Race, a seat's own page: its hand, its cards by side, placements, pass, loco choice, "?" split,
   take-back and recall. The values shown here are this seat's only. */
"use strict";

Companion.seats.schacht = {
  init(root) {
    this.strings = JSON.parse(root.querySelector("#schacht-seat-strings").textContent);
    this.value = null;
    this.split = {};
    this.key = "";
    root.querySelector("#schacht-pass").addEventListener("click", () => Companion.command("pass", {}));
    // Recall cannot be taken back (once a game): a second tap, as Start and Play again take.
    Companion.twoTaps(root.querySelector("#schacht-recall"), () => Companion.command("recall", {}));
    root.querySelector("#schacht-next").addEventListener("click", () => Companion.command("next", {}));
    root.querySelector("#schacht-move").addEventListener("click", () => {
      const moves = Object.entries(this.split).filter(([, steps]) => steps > 0)
        .map(([loco, steps]) => ({ loco, steps }));
      Companion.command("move", { moves });
    });
  },

  text(key, params) { return Companion.fill(this.strings[key] || key, params); },

  render(root, payload) {
    if (!this.strings) this.init(root);
    const el = Companion.el;
    const table = document.getElementById("schacht");  // the public card and lanes, under the seat's own
    if (table && Companion.games.schacht && payload.public && payload.public.card) {
      Companion.games.schacht.render(table, payload.public, payload);
    }
    const mine = payload.private || {};
    const view = payload.public || {};
    const legal = payload.legal || mine.legal || [];
    const moment = `${view.stage}/${view.phase}/${view.round}/${view.turn}`;
    if (moment !== this.key) { this.key = moment; this.split = {}; }
    const hand = mine.hand || [];
    if (!hand.includes(this.value)) this.value = hand.length ? hand[0] : null;
    // A seat the rules wait on is told what it can do; only the others are told whom they wait for. A
    // bid needs a card in hand and a side open to it: without, the seat is told to pass or recall.
    const bidding = legal.includes("place") && hand.length && (mine.placements || []).length;
    const acting = bidding ? "your_turn"
      : legal.includes("pass") ? (legal.includes("recall") ? "your_pass_or_recall" : "your_pass")
      : legal.includes("move") ? "your_move" : legal.includes("take_back") ? "your_take_back" : null;
    const status = root.querySelector("#schacht-turn");
    status.dataset.acting = String(Boolean(acting));
    if (view.phase === "over") status.textContent = this.strings.over;
    else if (acting) status.textContent = this.strings[acting];
    else if (view.phase === "review") status.textContent = this.strings.review;
    else status.textContent = this.text("wait", { name: Companion.games.schacht.names(payload, view)[view.turn] });
    root.querySelector("#schacht-bidding").hidden = view.phase === "over";
    root.querySelector("#schacht-hand").replaceChildren(...hand.map((value, i) => {
      const button = el("button", { type: "button", "aria-pressed": String(value === this.value && hand.indexOf(value) === i),
                                    text: String(value) });
      button.addEventListener("click", () => { this.value = value; this.render(root, payload); });
      return button;
    }));
    const discards = mine.discards || [];
    root.querySelector("#schacht-discards").replaceChildren(...(discards.length
      ? discards.map((value) => el("li", { class: "schacht-chip", text: String(value) }))
      : [el("li", { class: "hint", text: this.strings.no_discards })]));
    const open = mine.placements || [];
    root.querySelector("#schacht-sides").replaceChildren(...[0, 1, 2, 3].map((side) => {
      const face = view.card ? view.card.sides[side] : { loco: "", distance: "" };
      const cards = (mine.sides || [])[side] || [];
      const label = `${"ABCD"[side]} · ${face.loco || Companion.games.schacht.strings.free} ${face.distance}` +
        (cards.length ? ` (${this.text("here", { cards: cards.join("+") })})` : "") +
        (view.taboo === side ? ` (${this.strings.closed})` : "");
      const button = el("button", { type: "button", text: label });
      button.disabled = !open.includes(side) || this.value === null;
      button.addEventListener("click", () => Companion.command("place", { side, value: this.value }));
      return button;
    }));
    root.querySelector("#schacht-pass").hidden = !legal.includes("pass");
    root.querySelector("#schacht-recall").hidden = !legal.includes("recall");
    root.querySelector("#schacht-next").hidden = !legal.includes("next");

    const decide = mine.decide;
    root.querySelector("#schacht-decide").hidden = !decide;
    if (decide) {
      const key = "ABCD"[decide.side];
      root.querySelector("#schacht-decide-text").textContent =
        this.text(decide.split ? "share" : "choose", { key, n: decide.steps });
      const given = Object.values(this.split).reduce((a, b) => a + b, 0);
      root.querySelector("#schacht-locos").replaceChildren(...decide.locos.map((loco) => {
        if (!decide.split) {
          const button = el("button", { type: "button", text: loco });
          button.addEventListener("click", () => Companion.command("move", { moves: [{ loco, steps: decide.steps }] }));
          return button;
        }
        const minus = el("button", { type: "button", text: "−" });
        const plus = el("button", { type: "button", text: "+" });
        minus.disabled = !this.split[loco];
        plus.disabled = given >= decide.steps;
        minus.addEventListener("click", () => { this.split[loco] -= 1; this.render(root, payload); });
        plus.addEventListener("click", () => {
          // Insertion order is the order the locos move in.
          this.split[loco] = (this.split[loco] || 0) + 1;
          this.render(root, payload);
        });
        return el("span", { class: "stepper" }, [minus, el("strong", { text: ` ${loco} ${this.split[loco] || 0} ` }), plus]);
      }));
      root.querySelector("#schacht-split-left").textContent = decide.split
        ? this.text("left", { n: decide.steps - given }) : "";
      root.querySelector("#schacht-move").hidden = !decide.split;
      root.querySelector("#schacht-move").disabled = given !== decide.steps;
    }

    const back = mine.take_back || [];
    root.querySelector("#schacht-takeback").hidden = !back.length;
    root.querySelector("#schacht-takeback-text").textContent = this.strings.take_back;
    root.querySelector("#schacht-takeback-cards").replaceChildren(
      ...back.map((value) => {
        const button = el("button", { type: "button", text: String(value) });
        button.addEventListener("click", () => Companion.command("take_back", { value }));
        return button;
      }),
      (() => {
        const none = el("button", { type: "button", class: "secondary", text: this.strings.none });
        none.addEventListener("click", () => Companion.command("take_back", { value: null }));
        return none;
      })(),
    );
  },
};
