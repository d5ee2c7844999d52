/* Crazy Race on a seat's page: the race, the seat's own bet and hands, and its play/discard/roll. */
"use strict";

Companion.seats.gewalt = {
  chosen: { section: null, action: null },
  slot: null,  // the lane, stage and section picked for a card: tappable buttons, one pressed per row
  target: null,
  payload: null,

  init(root) {
    Companion.games.gewalt.init(root);
    this.strings = JSON.parse(root.querySelector("#gewalt-seat-strings").textContent);
    const send = (kind, args) => Companion.command(kind, args);
    root.querySelector("#gewalt-place").addEventListener("click", () =>
      send("play_section", { length: this.chosen.section, slot: { ...this.slot } }));
    root.querySelector("#gewalt-discard-section").addEventListener("click", () =>
      send("discard_section", { length: this.chosen.section }));
    root.querySelector("#gewalt-play-action").addEventListener("click", () => {
      const card = this.chosen.action;
      if (card === "relocate") {
        const [lane, stage, section] = root.querySelector("#gewalt-source").value.split("-").map(Number);
        send("relocate", { source: { lane, stage, section }, slot: { ...this.slot } });
      } else {
        send("attack", { card, target: this.target });
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

  // A row of tappable choices (lane, stage, section, target) with the chosen one pressed.
  pick(root, selector, values, current, label, choose) {
    root.querySelector(selector).replaceChildren(...values.map((value) => {
      const button = Companion.el("button", { type: "button", "data-value": String(value),
                                              "aria-pressed": String(value === current), text: label(value) });
      button.addEventListener("click", () => { choose(value); this.render(root, this.payload); });
      return button;
    }));
  },

  render(root, payload) {
    if (!this.strings) this.init(root);
    if (!this.slot) this.slot = { lane: payload.seat || 0, stage: 0, section: 0 };  // own lane first
    this.payload = payload;
    const game = Companion.games.gewalt;
    const view = payload.public;
    game.render(root, view, payload);
    const mine = payload.private || {};
    const legal = payload.legal || mine.legal || [];
    root.querySelector("#gewalt-bet").textContent = (mine.bet || []).join(" · ");
    const actions = mine.actions || [];

    // Answering an attack: "Counter it" is offered (and first) only to a seat that holds a counter card.
    const holds = actions.includes("counter");
    root.querySelector("#gewalt-answer").hidden = !legal.includes("counter");
    root.querySelector("#gewalt-counter").hidden = !holds;
    root.querySelector("#gewalt-no-counter").hidden = holds;
    root.querySelector("#gewalt-allow").className = holds ? "" : "primary";
    const countered = view.countered && view.countered.attacker === payload.seat ? view.countered : null;
    const notice = root.querySelector("#gewalt-countered-mine");
    notice.hidden = !countered;
    notice.textContent = countered ? Companion.fill(this.strings.countered_mine, {
      card: game.strings.cards[countered.card], target: game.player(view, payload.seats, countered.target) }) : "";

    this.hand(root, "#gewalt-section-hand", mine.sections || [], "section", String);
    const count = (n) => Array.from({ length: n }, (_, i) => i);
    const numbered = (i) => String(i + 1);
    // a lane by its letter, as the board and the e-ink print it (view.lanes); stages and sections by number
    const lettered = (i) => view.lanes[i];
    const shown = { lane: lettered, stage: numbered, section: numbered };
    this.pick(root, "#gewalt-lane", count(view.lanes.length), this.slot.lane, lettered, (v) => { this.slot.lane = v; });
    this.pick(root, "#gewalt-stage", count(3), this.slot.stage, numbered, (v) => { this.slot.stage = v; });
    this.pick(root, "#gewalt-section", count(5), this.slot.section, numbered, (v) => { this.slot.section = v; });
    for (const [key, row] of [["lane", "#gewalt-lane"], ["stage", "#gewalt-stage"], ["section", "#gewalt-section"]]) {
      for (const button of root.querySelectorAll(`${row} button`)) {
        button.setAttribute("aria-label", Companion.fill(this.strings[key], { n: shown[key](Number(button.dataset.value)) }));
      }
    }

    // The race is over: the scores above say it all, no card or roll control is left.
    root.querySelector("#gewalt-sections").hidden = view.over;
    // while this seat answers an attack, the answer is its whole move: ROLL steps aside
    root.querySelector("#gewalt-roll-button").hidden = view.over || legal.includes("counter");
    root.querySelector("#gewalt-actions").hidden = !view.expert || view.over;
    this.hand(root, "#gewalt-action-hand", actions, "action", (card) => game.strings.cards[card]);
    const relocating = this.chosen.action === "relocate";
    root.querySelector("#gewalt-target-label").hidden = relocating;
    root.querySelector("#gewalt-source-label").hidden = !relocating;
    root.querySelector("#gewalt-relocate-hint").hidden = !relocating;
    // Only the players the rules let this seat attack now (still racing, no attack card in front of them).
    const opponents = mine.targets || [];
    if (!opponents.includes(this.target)) this.target = opponents.length ? opponents[0] : null;
    this.pick(root, "#gewalt-target", opponents, this.target, (seat) => game.player(view, payload.seats, seat),
              (seat) => { this.target = seat; });
    root.querySelector("#gewalt-no-target").hidden = relocating || opponents.length > 0;
    const source = root.querySelector("#gewalt-source");
    const keep = source.value;
    source.replaceChildren(...view.cards.map((c) => Companion.el("option", {
      value: `${c.lane}-${c.stage}-${c.section}`,
      text: Companion.fill(this.strings.slot, { lane: view.lanes[c.lane], stage: c.stage + 1, section: c.section + 1,
                                           length: c.length }) })));
    if (keep && view.cards.some((c) => `${c.lane}-${c.stage}-${c.section}` === keep)) source.value = keep;
    const may = (kind) => legal.includes(kind);
    root.querySelector("#gewalt-place").disabled = !may("play_section") || this.chosen.section === null;
    root.querySelector("#gewalt-discard-section").disabled = !may("discard_section") || this.chosen.section === null;
    root.querySelector("#gewalt-play-action").disabled = this.chosen.action === null
      || !may(relocating ? "relocate" : "attack") || this.chosen.action === "counter"
      || (!relocating && this.target === null);
    root.querySelector("#gewalt-discard-action").disabled = !may("discard_action") || this.chosen.action === null;
    root.querySelector("#gewalt-roll-button").disabled = !may("roll");
  },
};
