/* Crazy Race on a seat's page: the race, the seat's own bet and hands, and its play/discard/roll. */
"use strict";

Companion.seats.gewalt = {
  chosen: { section: null, action: null },
  payload: null,

  init(root) {
    Companion.games.gewalt.init(root);
    this.strings = JSON.parse(root.querySelector("#gewalt-seat-strings").textContent);
    const options = (select, count, label) => select.replaceChildren(...Array.from({ length: count }, (_, i) =>
      Companion.el("option", { value: String(i), text: Companion.fill(label, { n: i + 1 }) })));
    options(root.querySelector("#gewalt-lane"), 5, this.strings.lane);
    options(root.querySelector("#gewalt-stage"), 3, this.strings.stage);
    options(root.querySelector("#gewalt-section"), 5, this.strings.section);
    const send = (kind, args) => Companion.command(kind, args);
    const slot = () => ({
      lane: Number(root.querySelector("#gewalt-lane").value),
      stage: Number(root.querySelector("#gewalt-stage").value),
      section: Number(root.querySelector("#gewalt-section").value),
    });
    root.querySelector("#gewalt-place").addEventListener("click", () =>
      send("play_section", { length: this.chosen.section, slot: slot() }));
    root.querySelector("#gewalt-discard-section").addEventListener("click", () =>
      send("discard_section", { length: this.chosen.section }));
    root.querySelector("#gewalt-play-action").addEventListener("click", () => {
      const card = this.chosen.action;
      if (card === "relocate") {
        const [lane, stage, section] = root.querySelector("#gewalt-source").value.split("-").map(Number);
        send("relocate", { source: { lane, stage, section }, slot: slot() });
      } else {
        send("attack", { card, target: Number(root.querySelector("#gewalt-target").value) });
      }
    });
    root.querySelector("#gewalt-discard-action").addEventListener("click", () =>
      send("discard_action", { card: this.chosen.action }));
    root.querySelector("#gewalt-counter").addEventListener("click", () => send("counter", {}));
    root.querySelector("#gewalt-allow").addEventListener("click", () => send("allow", {}));
    root.querySelector("#gewalt-roll-button").addEventListener("click", () => send("roll", {}));
  },

  // One button per card in the hand; the chosen one stays pressed until the hand changes.
  hand(root, selector, cards, kind, label) {
    if (!cards.includes(this.chosen[kind])) this.chosen[kind] = cards.length ? cards[0] : null;
    const pressed = cards.indexOf(this.chosen[kind]);  // one button even when the hand holds two alike
    root.querySelector(selector).replaceChildren(...cards.map((card, i) => {
      const button = Companion.el("button", { type: "button", "aria-pressed": String(i === pressed),
                                              text: label(card) });
      button.addEventListener("click", () => { this.chosen[kind] = card; this.render(root, this.payload); });
      return button;
    }));
  },

  render(root, payload) {
    this.payload = payload;
    const game = Companion.games.gewalt;
    const view = payload.public;
    game.render(root, view, payload);
    const mine = payload.private || {};
    const legal = payload.legal || mine.legal || [];
    root.querySelector("#gewalt-bet").textContent = (mine.bet || []).join(" · ");
    root.querySelector("#gewalt-answer").hidden = !legal.includes("counter");
    this.hand(root, "#gewalt-section-hand", mine.sections || [], "section", String);
    const actions = mine.actions || [];
    root.querySelector("#gewalt-actions").hidden = !view.expert;
    this.hand(root, "#gewalt-action-hand", actions, "action", (card) => game.strings.cards[card]);
    const relocating = this.chosen.action === "relocate";
    root.querySelector("#gewalt-target-label").hidden = relocating;
    root.querySelector("#gewalt-source-label").hidden = !relocating;
    root.querySelector("#gewalt-relocate-hint").hidden = !relocating;
    const target = root.querySelector("#gewalt-target");
    const keep = target.value;
    target.replaceChildren(...Array.from({ length: view.players }, (_, seat) => seat)
      .filter((seat) => seat !== payload.seat)
      .map((seat) => Companion.el("option", { value: String(seat), text: game.player(view, payload.seats, seat) })));
    if (keep) target.value = keep;
    root.querySelector("#gewalt-source").replaceChildren(...view.cards.map((c) => Companion.el("option", {
      value: `${c.lane}-${c.stage}-${c.section}`,
      text: Companion.fill(this.strings.slot, { lane: c.lane + 1, stage: c.stage + 1, section: c.section + 1,
                                           length: c.length }) })));
    const may = (kind) => legal.includes(kind);
    root.querySelector("#gewalt-place").disabled = !may("play_section") || this.chosen.section === null;
    root.querySelector("#gewalt-discard-section").disabled = !may("discard_section") || this.chosen.section === null;
    root.querySelector("#gewalt-play-action").disabled = this.chosen.action === null
      || !may(relocating ? "relocate" : "attack") || this.chosen.action === "counter";
    root.querySelector("#gewalt-discard-action").disabled = !may("discard_action") || this.chosen.action === null;
    root.querySelector("#gewalt-roll-button").disabled = !may("roll");
  },
};
