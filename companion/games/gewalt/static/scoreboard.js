/* Crazy Race on the scoreboard: the race on five lanes, the trophies, the turn, then the scores. */
"use strict";

Companion.games.gewalt = {
  strings: null,

  init(root) {
    const node = root.querySelector("#gewalt-strings") || document.getElementById("gewalt-strings");
    this.strings = JSON.parse(node.textContent);
  },

  // "❷ B Anna" (the seat's mark, its lane's letter, its name), or "❷ B Blue" when it has no name yet: as
  // the glass names it.
  player(view, seats, seat) {
    const info = (seats || []).find((s) => s.seat === seat) || {};
    const name = info.name || info.label || "";
    return Companion.marked(info, `${view.letters[seat]} ${name}`.trim());
  },

  explain(roll) {
    const s = this.strings;
    const total = roll.dice.reduce((a, b) => a + b, 0);
    const params = { total, points: roll.points };
    if (roll.effect === "double") return Companion.fill(s.double, params);
    if (roll.effect === "minus_4") return Companion.fill(total >= 4 ? s.minus : s.minus_floor, params);
    if (roll.effect === "plus_4") return Companion.fill(s.plus, params);
    if (roll.effect === "no_roll") return s.no_roll;
    if (roll.effect === "move_4" || roll.effect === "move_10") return Companion.fill(s.instead, params);
    return `${roll.dice.join(" + ")} = ${roll.points}`;
  },

  render(root, view, payload) {
    if (!this.strings) this.init(root);
    const s = this.strings;
    const seats = (payload && payload.seats) || [];
    const el = Companion.el;
    const who = (seat) => this.player(view, seats, seat);
    const turn = root.querySelector("#gewalt-turn");
    turn.textContent = view.over
      ? Companion.fill(s.winner, { players: view.winners.map(who).join(", ") })
      : Companion.fill(s.turn, { player: who(view.turn) });
    const front = root.querySelector("#gewalt-front");
    const card = view.over ? null : view.front[view.turn];
    front.hidden = !card;
    front.textContent = card ? Companion.fill(s.front, { player: view.letters[view.turn], card: s.cards[card] }) : "";
    const pending = root.querySelector("#gewalt-pending");
    pending.hidden = !view.pending;
    pending.textContent = view.pending ? Companion.fill(s.pending, {
      attacker: view.letters[view.pending.attacker], target: view.letters[view.pending.target],
      card: s.cards[view.pending.card] }) : "";
    const countered = root.querySelector("#gewalt-countered");
    countered.hidden = !view.countered;
    countered.textContent = view.countered ? Companion.fill(s.countered, {
      attacker: who(view.countered.attacker), target: who(view.countered.target),
      card: s.cards[view.countered.card] }) : "";
    const roll = root.querySelector("#gewalt-roll");
    roll.hidden = !view.last_roll;
    roll.textContent = view.last_roll
      ? Companion.fill(s.moved, { player: view.letters[view.last_roll.seat], how: this.explain(view.last_roll) }) : "";

    const head = el("tr", {}, [el("th", { class: "lane" })]);
    for (let stage = 0; stage < 3; stage++) {
      head.append(el("th", { colspan: "6", text: Companion.fill(s.stage, {
        n: stage + 1, taken: view.trophies[stage].length, players: view.players }) }));
    }
    const rows = [head];
    for (let lane = 0; lane < 5; lane++) {
      const racing = lane < view.players;
      const tr = el("tr", { class: racing && lane === view.actor && !view.over ? "turn" : "" },
                    [el("th", { class: "lane", text: racing ? who(lane) : view.lanes[lane] })]);
      // an attack card waiting in front of this player, public as on the table
      if (racing && view.front[lane]) tr.firstChild.append(el("small", { text: ` ► ${s.cards[view.front[lane]]}` }));
      const pawn = racing ? view.pawns[lane] : null;
      for (let stage = 0; stage < 3; stage++) {
        for (let section = 0; section < 5; section++) {
          const placed = view.cards.find((c) => c.lane === lane && c.stage === stage && c.section === section);
          const here = pawn && !pawn.finished && pawn.stage === stage && pawn.section === section;
          const classes = [placed ? "card" : "", here ? "pawn" : ""].join(" ").trim();
          tr.append(el("td", { class: classes, text: placed ? String(placed.length) : "",
                               "data-slot": `${lane}-${stage}-${section}` }));
        }
        const place = racing ? view.trophies[stage].indexOf(lane) : -1;
        tr.append(el("td", { class: "line", text: place >= 0 ? String(place + 1) : "" }));
      }
      rows.push(tr);
    }
    root.querySelector("#gewalt-race").replaceChildren(...rows);

    const scores = root.querySelector("#gewalt-scores");
    scores.hidden = !view.scores;
    if (!view.scores) return;
    const table = [el("tr", {}, [s.player, ...[1, 2, 3].map((n) => Companion.fill(s.stage_n, { n })), s.total]
      .map((text) => el("th", { text })))];
    for (const row of view.scores) {
      const cells = [el("td", { text: who(row.seat) })];
      for (let stage = 0; stage < 3; stage++) {
        const marks = row.marks[stage].map((m) => ` +${view.letters[m]}`).join("");
        cells.push(el("td", { class: row.kept[stage] ? "kept" : "",
                              text: `${row.targets[stage]}→${row.places[stage]}${marks}` }));
      }
      cells.push(el("td", { class: view.winners.includes(row.seat) ? "kept" : "", text: String(row.total) }));
      table.push(el("tr", {}, cells));
    }
    root.querySelector("#gewalt-score-table").replaceChildren(...table);
    root.querySelector("#gewalt-legend").textContent = s.legend.join(" · ");
  },
};
