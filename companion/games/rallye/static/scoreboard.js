/* Le rallye hasardeux on the scoreboard: the circuit (face-up faces only), pawns, laps, the last effect, the ranking. */
"use strict";

Companion.games.rallye = {
  strings: null,
  // The icon each face-up card shows, as on the e-ink (companion/games/rallye/names.py).
  ICONS: {
    none: "\u2014", others_back: "\u21c7", all_back: "\u21da", others_back_me_forward: "\u21c4", ford_4: "\u22484",
    ford_5: "\u22485", one_back: "\u21e0", swap_last: "\u21c6\u25bc", swap_first: "\u21c6\u25b2", swap_any: "\u21c6?",
    reverse: "\u21ba",
  },
  SURPRISE: "\u2605",
  START: "\u2691",
  ENTRANCE: "\u2193",
  EXIT: "\u2191",
  OPEN: "\u25ce",
  KEY: "\u26b7",
  HAZARDS: { tacks: "\u2736", oil_roll: "\u25cf?", oil_5: "\u25cf5" },

  init(root) {
    const node = root.querySelector("#rallye-strings") || document.getElementById("rallye-strings");
    this.strings = JSON.parse(node.textContent);
    this.legend(root);
  },

  // A seat as every output names it: its mark, then its chosen name, else its colour; and its ink and
  // its pawn's mark (❶ to ❻, as on the glass) from payload.seats.
  seat(payload, seat) {
    return ((payload && payload.seats) || []).find((s) => s.seat === seat) || {};
  },

  name(payload, seat) { return Companion.seatNamed(payload && payload.seats, seat); },

  mark(payload, seat) { return this.seat(payload, seat).mark || String(seat + 1); },

  effectText(effect, surprise, exact) {
    const s = this.strings;
    const text = exact && s.exact[effect] ? s.exact[effect] : s.texts[effect];
    return surprise ? `${s.surprise} ${text}` : text;
  },

  status(view, payload) {
    const s = this.strings;
    const fill = Companion.fill;
    if (view.phase === "over") return s.over;
    const pending = view.pending;
    const player = pending && pending.kind === "cancel" && pending.asked.length > 1
      ? pending.asked.map((seat) => this.name(payload, seat)).join(", ") : this.name(payload, view.actor);
    if (!pending) return fill(s.turn, { player });
    if (pending.kind === "place") return fill(s.placing, { player });
    if (pending.kind === "trim") return fill(s.trim, { player });
    if (pending.kind === "cancel") {
      return fill(s.cancel, { player, threat: s.threats[pending.threat],
                              cards: pending.cards.map((c) => s.cards[c]).join(s.or) });
    }
    if (pending.kind === "exit") return fill(s.exit_choice, { player });
    if (pending.threat === "one_back") return fill(s.target_one_back, { player, n: pending.amount });
    return fill(s.target_swap, { player });
  },

  // What one card of the circuit shows: a face-down card only its number (its face is nobody's yet).
  face(card) {
    if (card.kind === "start") return this.START;
    if (card.kind === "route") {
      if (!card.face_up) return "";
      return (card.effect !== "none" || !card.surprise ? this.ICONS[card.effect] : "") + (card.surprise ? this.SURPRISE : "");
    }
    const arrow = card.kind === "entrance" ? this.ENTRANCE : this.EXIT;
    return card.open ? `${arrow}${this.OPEN}${card.access ? "+" : ""}` : `${arrow}${card.keys}/${card.padlocks}${this.KEY}`;
  },

  describe(card) {
    const s = this.strings;
    const fill = Companion.fill;
    const parts = [fill(s.card_n, { n: card.position })];
    if (card.kind === "route") parts.push(card.face_up ? s.effects[card.effect] + (card.surprise ? ` ${this.SURPRISE}` : "") : s.face_down);
    else parts.push(s.kinds[card.kind]);
    if (card.kind === "entrance" || card.kind === "exit") {
      parts.push(card.open ? s.open : fill(s.locked, { keys: card.keys, padlocks: card.padlocks }));
      if (card.access) parts.push(s.access);
    }
    if (card.hazard) parts.push(s.hazards[card.hazard]);
    return parts.join(", ");
  },

  render(root, view, payload) {
    if (!this.strings) this.init(root);
    const s = this.strings;
    const el = Companion.el;
    const fill = Companion.fill;
    root.querySelector("#rallye-status").textContent = this.status(view, payload);

    const effect = view.last_effect;
    root.querySelector("#rallye-effect-name").textContent = effect ? s.effects[effect.effect] : s.no_effect;
    root.querySelector("#rallye-effect-text").textContent = effect
      ? `${fill(s.effect_at, { player: this.name(payload, effect.seat), n: effect.position })} ${this.effectText(effect.effect, effect.surprise, view.ford_exact)}`
      : "";
    const die = root.querySelector("#rallye-die");
    die.hidden = !view.die;
    die.replaceChildren(...(view.die ? [Companion.die(view.die.face, "die small"),
                                        el("span", { text: fill(s.die, { face: view.die.face }) })] : []));

    const here = new Map();
    for (const pawn of view.pawns) {
      if (!pawn.finished) here.set(pawn.position, [...(here.get(pawn.position) || []), pawn.seat]);
    }
    root.querySelector("#rallye-circuit").replaceChildren(...view.circuit.map((card) => {
      const pawns = (here.get(card.position) || []).map((seat) => el("span", {
        class: "pawn", style: `--seat: ${this.seat(payload, seat).ink || "currentColor"}`,
        title: this.name(payload, seat), text: this.mark(payload, seat) }));
      return el("li", {
        class: `spot ${card.kind}${card.kind === "route" && !card.face_up ? " back" : ""}${card.open ? " open" : ""}`,
        "data-position": String(card.position), "aria-label": this.describe(card), title: this.describe(card),
      }, [
        el("span", { class: "number", text: String(card.position) }),
        el("span", { class: "face", text: this.face(card) }),
        ...(card.hazard ? [el("span", { class: "hazard", text: this.HAZARDS[card.hazard] })] : []),
        ...(pawns.length ? [el("span", { class: "pawns" }, pawns)] : []),
      ]);
    }));

    const order = [...view.ranking, ...view.pawns.map((p) => p.seat).filter((seat) => !view.ranking.includes(seat))];
    root.querySelector("#rallye-players tbody").replaceChildren(...order.map((seat) => {
      const pawn = view.pawns[seat];
      const held = pawn.status ? s.statuses[pawn.status] + (pawn.status === "tacks" ? ` (${s.turns[Math.min(pawn.blocked, s.turns.length - 1)]})` : "") : "";
      const place = view.ranking.indexOf(seat);
      const who = el("th", { scope: "row" }, [
        el("span", { class: "swatch", style: `--seat: ${this.seat(payload, seat).ink || "currentColor"}`, "aria-hidden": "true" }),
        el("span", { text: ` ${place >= 0 ? `${place + 1}. ` : ""}${this.name(payload, seat)}` }),
        ...(held ? [el("small", { class: "held", text: ` ${held}` })] : []),
      ]);
      return el("tr", { class: seat === view.actor && view.phase !== "over" ? "turn" : "", "data-seat": String(seat) }, [
        who,
        // the flag and the full laps only for a player who crossed the line: the one left on the road when
        // the race ended keeps its card and its lap
        el("td", { text: pawn.lap >= view.laps ? "\u2691" : String(pawn.position) }),
        el("td", { text: `${Math.min(pawn.lap + (pawn.lap >= view.laps ? 0 : 1), view.laps)}/${view.laps}` }),
        el("td", { text: String(pawn.cards) }),
      ]);
    }));
    root.querySelector("#rallye-ranking-box").hidden = !view.ranking.length;
    root.querySelector("#rallye-ranking").replaceChildren(...view.ranking.map((seat) => el("li", { text: this.name(payload, seat) })));
  },

  legend(root) {
    const target = root.querySelector("#rallye-legend");
    if (!target) return;
    const el = Companion.el;
    const items = Object.entries(this.ICONS).map(([effect, icon]) => [icon, this.strings.effects[effect]]);
    items.push([this.SURPRISE, this.strings.surprise], [this.START, this.strings.kinds.start],
               [this.ENTRANCE, this.strings.kinds.entrance], [this.EXIT, this.strings.kinds.exit],
               [this.OPEN, this.strings.open], [this.KEY, this.strings.cards.key],
               ...Object.entries(this.HAZARDS).map(([hazard, icon]) => [icon, this.strings.hazards[hazard]]));
    target.replaceChildren(...items.flatMap(([icon, text]) => [el("dt", { text: icon }), el("dd", { text })]));
  },
};
