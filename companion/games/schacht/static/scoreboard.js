/* Crazy Race on the phone: the stage card with face-down cards as coloured backs, the lanes, points. */
"use strict";

Companion.games.schacht = {
  init(root) {
    this.strings = JSON.parse(root.querySelector("#schacht-strings").textContent);
  },

  text(key, params) { return Companion.fill(this.strings[key] || key, params); },

  // Names, marks and colours come with the seats in the payload: each seat's mark, then its chosen name,
  // else its colour's label.
  names(payload, view) {
    const seats = (payload && payload.seats) || [];
    return Array.from({ length: view.players }, (_, s) => Companion.seatNamed(seats, s));
  },

  mark(payload, seat) {
    const found = ((payload && payload.seats) || []).find((s) => s.seat === seat);
    return (found && found.mark) || String(seat + 1);
  },

  ink(payload, seat) { return payload.seats[seat].ink; },

  headline(view, names) {
    const who = names[view.turn];
    if (view.phase === "bid") return this.text("to_play", { name: who });
    if (view.phase === "decide") {
      const d = view.deciding;
      return this.text(d.split ? "share" : "choose", { name: who, n: d.steps });
    }
    if (view.phase === "takeback") return this.text("take_back", { name: who });
    if (view.phase === "review") return this.text("review");
    const winners = view.final.winners;
    return winners.length === 1 ? this.text("wins", { name: names[winners[0]] })
      : this.text("shared", { names: winners.map((s) => names[s]).join(", ") });
  },

  render(root, view, payload) {
    if (!this.strings) this.init(root);
    const el = Companion.el;
    const names = this.names(payload, view);
    const round = view.phase === "bid" ? `, ${this.text("round", { r: view.round, rounds: view.rounds })}` : "";
    root.querySelector("#schacht-status").textContent =
      `${this.text("stage", { n: view.stage, total: view.stages })}${round} · ${this.headline(view, names)}`;
    root.querySelector("#schacht-arrow").textContent = "\u2191\u2192\u2193\u2190"[view.card.arrow];
    const revealed = {};
    for (const r of view.revealed) revealed[r.side] = r;
    for (const box of root.querySelectorAll(".schacht-side")) {
      const side = Number(box.dataset.side);
      const face = view.card.sides[side];
      box.dataset.arrow = String(view.card.arrow === side);
      // The loco as a badge, not an emoji: a phone without an emoji font would show a box.
      box.querySelector(".face").replaceChildren(
        face.loco ? el("span", { class: "loco", text: face.loco }) : this.strings.free,
        el("strong", { class: "distance", text: String(face.distance) }));
      const backs = box.querySelector(".backs");
      const result = revealed[side];
      if (view.taboo === side) {
        backs.replaceChildren(el("span", { class: "taboo", text: this.strings.taboo }));
      } else if (result && result.winner !== null) {
        backs.replaceChildren(...result.totals.map((total, seat) => [total, seat])
          .filter(([, seat]) => result.cards[seat].length)
          .map(([total, seat]) => el("span", {
            class: seat === result.winner ? "back winner" : "back", style: `background:${this.ink(payload, seat)}`,
            // the mark first: a colour alone does not say whose total it is
            title: names[seat], text: `${this.mark(payload, seat)}\u00a0${result.cards[seat].join("+")} = ${total}` })));
      } else {
        backs.replaceChildren(...view.bids[side].map((seat) => el("span", {
          class: "back", style: `background:${this.ink(payload, seat)}`, title: names[seat],
          text: this.mark(payload, seat) })));
      }
    }
    const body = root.querySelector("#schacht-lanes tbody");
    body.replaceChildren(...view.lanes.map((lane, seat) => {
      const cells = Array.from({ length: 6 }, () => el("td"));
      const start = [];
      const home = [];
      for (const loco of lane) {
        if (loco.finished) home.push(loco.loco);
        else if (loco.space === null) start.push(loco.loco);
        else cells[loco.space - 1].textContent = loco.home ? `\u25C2${loco.loco}` : `${loco.loco}\u25B8`;
      }
      const zone = [start.length ? `${start.join("")}\u25B8` : "", home.length ? `\u2713${home.join("")}` : ""];
      const notes = [view.first === seat ? "\u2605" : "", view.out[seat] ? `(${this.strings.out})` : "",
                     view.recalled[seat] ? `(${this.strings.recalled})` : ""].filter(Boolean).join(" ");
      return el("tr", { class: view.turn === seat ? "turn" : "" }, [
        el("th", { style: `border-left: 0.4em solid ${this.ink(payload, seat)}` },
           [names[seat], ...(notes ? [el("small", { text: notes })] : [])]),
        el("td", { text: zone.filter(Boolean).join(" ") }), ...cells,
        el("td", { class: "points", text: String(view.points[seat]) }),
      ]);
    }));
    const piles = view.piles;
    root.querySelector("#schacht-piles").textContent = ["turntable", "finish"].map((name) => this.text("pile", {
      pile: this.strings[name], top: piles[name].top === null ? "–" : piles[name].top,
      left: this.text("left", { n: piles[name].left }) })).join(" · ");
    const results = root.querySelector("#schacht-results");
    const lines = view.revealed.filter((r) => r.winner !== null).map((r) => {
      const line = (what) => el("li", { text: this.text("result", {
        key: "ABCD"[r.side], name: names[r.winner], total: r.totals[r.winner], what }) });
      if (r.pending) return line("?");
      if (r.lost) return line(this.strings.lost);
      const got = r.points.filter((p) => p.value !== null).map((p) => `+${p.value}`).join(" ");
      return line(r.moves.map((m) => `${m.loco}+${m.steps}`).join(" ") + (got ? ` (${got})` : ""));
    });
    if (view.final) {
      for (const [seat, value] of view.final.penalties) {
        lines.push(el("li", { text: this.text("penalty", { name: names[seat], value }) }));
      }
      if (view.final.early) lines.push(el("li", { text: this.strings.early }));
    }
    results.replaceChildren(...lines);
    root.querySelector("#schacht-results-title").hidden = !lines.length;
    this.ranking(root, view, names, payload);
  },

  // The end: every seat by points, the winners first (they won the tie-break on the rearmost loco).
  ranking(root, view, names, payload) {
    root.querySelector("#schacht-final").hidden = !view.final;
    if (!view.final) return;
    const el = Companion.el;
    const final = view.final;
    const rearmost = (seat) => Math.min(...view.lanes[seat].map((loco) => loco.progress));
    const key = (seat) => [final.winners.includes(seat) ? 1 : 0, final.scores[seat], rearmost(seat)];
    const seats = Array.from({ length: view.players }, (_, s) => s)
      .sort((a, b) => { const [x, y] = [key(a), key(b)]; return y[0] - x[0] || y[1] - x[1] || y[2] - x[2] || a - b; });
    let rank = 0;
    root.querySelector("#schacht-ranking").replaceChildren(...seats.map((seat, i) => {
      if (i === 0 || key(seat).join() !== key(seats[i - 1]).join()) rank = i + 1;
      const won = final.winners.includes(seat);
      const item = el("li", { class: won ? "winner" : "", value: String(rank), "data-seat": String(seat),
                              style: `border-left-color:${this.ink(payload, seat)}` }, [
        this.text("rank", { name: names[seat], points: final.scores[seat] })]);
      if (won) item.append(" ", el("strong", { text: `\u2605 ${this.strings.winner}` }));
      return item;
    }));
  },
};
