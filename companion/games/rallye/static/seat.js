/* Le rallye hasardeux on a seat's page: the answer window, choices, the hand of surprise cards and where each goes. */
"use strict";

Companion.seats.rallye = {
  strings: null,
  payload: null,
  chosen: {},  // card -> the targets picked on this page, kept across updates
  window: null,  // {key, until}: when the open window closes, by this page's clock
  timer: null,

  init(root) {
    Companion.games.rallye.init(root);
    this.strings = JSON.parse(root.querySelector("#rallye-seat-strings").textContent);
    root.querySelector("#rallye-roll").addEventListener("click", () => Companion.command("roll", {}));
    root.querySelector("#rallye-place-button").addEventListener("click", () =>
      Companion.command("place_passage", { card: Number(root.querySelector("#rallye-place-card").value) }));
    this.timer = setInterval(() => this.countdown(root), 1000);
  },

  button(text, kind, args, primary) {
    const button = Companion.el("button", { type: "button", class: primary ? "primary" : "", text });
    button.addEventListener("click", () => Companion.command(kind, args));
    return button;
  },

  // The seconds left in the window: the table says how many were left when it sent the page (a reload
  // mid-window keeps counting from there); the page counts down from that by its own clock.
  countdown(root) {
    const pending = this.payload && this.payload.public.pending;
    const mine = pending && (pending.kind === "cancel" ? (pending.asked || []).includes(this.payload.seat)
      : pending.seat === this.payload.seat);
    const open = mine && pending.seconds > 0;
    if (!open) { this.window = null; return; }
    const key = `${pending.kind}:${pending.seat}:${this.payload.public.moves}`;
    if (!this.window || this.window.key !== key) {
      const seconds = this.payload.deadline === null || this.payload.deadline === undefined
        ? pending.seconds : this.payload.deadline;
      this.window = { key, until: Date.now() + seconds * 1000 };
    }
    const left = Math.max(0, Math.ceil((this.window.until - Date.now()) / 1000));
    const [template, where] = {
      cancel: [this.strings.left, "#rallye-countdown"],
      trim: [this.strings.left_trim, "#rallye-trim-countdown"],
    }[pending.kind] || [this.strings.left_choice, "#rallye-choose-countdown"];
    const text = Companion.fill(template, { n: left, answer: this.defaultChoice(pending) });
    root.querySelector(where).textContent = text;
  },

  // What the table chooses once a choice's window closes (rules.default_choice): stay out of an optional
  // passage, else the first choice.
  defaultChoice(pending) {
    if (pending.kind === "exit") {
      return pending.optional ? this.strings.stay : Companion.fill(this.strings.card_n, { n: pending.choices[0] });
    }
    return pending.kind === "target" ? Companion.games.rallye.name(this.payload, pending.choices[0]) : "";
  },

  render(root, payload) {
    this.payload = payload;
    const game = Companion.games.rallye;
    const view = payload.public;
    game.render(root, view, payload);
    const s = this.strings;
    const g = game.strings;
    const fill = Companion.fill;
    const mine = payload.private || {};
    const legal = payload.legal || mine.legal || [];
    const plays = mine.plays || [];
    const pending = view.pending;
    const asked = !pending ? null
      : pending.kind === "cancel" ? ((pending.asked || []).includes(payload.seat) ? "cancel" : null)
      : pending.seat === payload.seat ? pending.kind : null;

    const ask = root.querySelector("#rallye-ask");
    ask.hidden = asked !== "cancel";
    if (asked === "cancel") {
      const question = fill(s.ask, { threat: g.threats[pending.threat] });
      root.querySelector("#rallye-ask-text").textContent = question.charAt(0).toUpperCase() + question.slice(1);
      const cancels = plays.filter((p) => p.command === "cancel");
      root.querySelector("#rallye-ask-none").hidden = cancels.length > 0;
      root.querySelector("#rallye-ask-none").textContent = s.ask_none;
      root.querySelector("#rallye-ask-buttons").replaceChildren(
        ...cancels.map((p) => this.button(fill(s.cancel_with, { card: g.cards[p.card] }), "cancel", { card: p.card }, true)),
        this.button(s.no, "decline", {}, false));
    }

    const choose = root.querySelector("#rallye-choose");
    choose.hidden = !(asked === "target" || asked === "exit");
    if (!choose.hidden) {
      const buttons = asked === "target"
        ? pending.choices.map((seat) => this.button(game.name(payload, seat), "choose", { seat }, false))
        : pending.choices.map((card) => this.button(fill(s.card_n, { n: card }), "exit", { card }, false));
      if (asked === "exit" && pending.optional) buttons.push(this.button(s.stay, "stay", {}, false));
      root.querySelector("#rallye-choose-text").textContent = asked === "exit" ? s.which_exit
        : pending.threat === "one_back" ? fill(s.who_back, { n: pending.amount }) : s.who_swap;
      root.querySelector("#rallye-choose-buttons").replaceChildren(...buttons);
    }

    const trim = root.querySelector("#rallye-trim");
    trim.hidden = asked !== "trim";
    if (asked === "trim") {
      root.querySelector("#rallye-trim-text").textContent = s.trim;
      root.querySelector("#rallye-trim-buttons").replaceChildren(...plays.filter((p) => p.command === "discard")
        .map((p) => this.button(fill(s.discard, { card: g.cards[p.card] }), "discard", { card: p.card }, false)));
    }

    const place = root.querySelector("#rallye-place");
    place.hidden = !legal.includes("place_passage");
    if (!place.hidden) {
      root.querySelector("#rallye-place-text").textContent = s.place;
      const select = root.querySelector("#rallye-place-card");
      const keep = select.value;
      select.replaceChildren(...view.circuit.filter((c) => c.kind === "route").map((c) =>
        Companion.el("option", { value: String(c.position), text: fill(s.card_n, { n: c.position }) })));
      if (keep && [...select.options].some((o) => o.value === keep)) select.value = keep;
    }
    root.querySelector("#rallye-roll").hidden = !legal.includes("roll");

    this.hand(root, mine.hand || [], plays);
    this.countdown(root);
  },

  // Each card of the hand: its name and text; a card playable now gets its targets and "play".
  hand(root, cards, plays) {
    const s = this.strings;
    const g = Companion.games.rallye.strings;
    const el = Companion.el;
    const fill = Companion.fill;
    root.querySelector("#rallye-hand-empty").hidden = cards.length > 0;
    root.querySelector("#rallye-hand-empty").textContent = s.empty;
    const seen = new Set();
    root.querySelector("#rallye-hand").replaceChildren(...cards.map((card, index) => {
      const item = el("li", { class: "rallye-card", "data-card": card }, [
        el("strong", { text: g.cards[card] }), el("p", { class: "hint", text: this.cardText(card) })]);
      if (seen.has(card)) return item;  // two alike: one set of controls
      seen.add(card);
      const play = plays.find((p) => p.card === card && p.command !== "cancel" && p.command !== "discard");
      if (["protection", "shield_oil", "shield_tacks"].includes(card)) {
        item.append(el("p", { class: "hint", text: s.kept }));
        return item;
      }
      if (!play) {
        item.append(el("p", { class: "hint", text: s.no_target }));
        return item;
      }
      const options = () => play.targets.map((n) => el("option", { value: String(n), text: fill(s.card_n, { n }) }));
      const kept = this.chosen[card] || {};
      const pick = (select, value) => {
        if (value !== undefined && play.targets.includes(Number(value))) select.value = String(value);
      };
      const first = el("select", { "aria-label": play.command === "swap_cards" ? s.first : s.where, id: `rallye-target-${index}` }, options());
      pick(first, kept.first);
      const fields = [el("label", { class: "rallye-field" }, [play.command === "swap_cards" ? s.first : s.where, first])];
      let second = null;
      if (play.command === "swap_cards") {
        second = el("select", { "aria-label": s.second, id: `rallye-second-${index}` }, options());
        if (play.targets.length > 1) second.value = String(play.targets[1]);
        pick(second, kept.second);
        fields.push(el("label", { class: "rallye-field" }, [s.second, second]));
      }
      const remember = () => { this.chosen[card] = { first: first.value, second: second && second.value }; };
      first.addEventListener("change", remember);
      if (second) second.addEventListener("change", remember);
      const button = el("button", { type: "button", class: "primary", text: s.play, "data-play": card });
      button.addEventListener("click", () => {
        const at = Number(first.value);
        if (play.command === "swap_cards") Companion.command("swap_cards", { first: at, second: Number(second.value) });
        else if (play.command === "lay") Companion.command("lay", { card, at });
        else Companion.command(play.command, { passage: at });
      });
      item.append(el("div", { class: "rallye-play" }, [...fields, button]));
      return item;
    }));
  },

  cardText(card) {
    return this.strings.card_texts[card];
  },
};
