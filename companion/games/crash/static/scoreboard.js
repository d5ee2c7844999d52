/* Crash! on the scoreboard: the hex board as an SVG drawn here, the dice, the cars and junkyards, live. */
"use strict";

Companion.games.crash = {
  R: 10,  // a hex's radius in SVG units
  ANGLES: { n: 0, ne: 60, se: 120, s: 180, sw: 240, nw: 300 },  // clockwise from north, as the rules turn

  init(root) {
    const node = root.querySelector("#crash-strings") || document.getElementById("crash-strings");
    this.strings = JSON.parse(node.textContent);
  },

  text(key, params) { return Companion.fill(this.strings[key] || key, params); },

  // Names, colour labels and inks come with the seats in the payload: no page declares a colour.
  seat(payload, seat) { return ((payload && payload.seats) || []).find((s) => s.seat === seat) || {}; },
  name(payload, seat) { return Companion.seatNamed(payload && payload.seats, seat); },
  ink(payload, seat) { return this.seat(payload, seat).ink || "currentColor"; },
  // "B3": the colour's initial (the same in French and English) and the car's number.
  label(payload, seat, car) { return `${(this.seat(payload, seat).label || "?").slice(0, 1)}${car}`; },

  headline(view, payload) {
    const result = view.result;
    if (result && view.match.over && view.match.games > 1) return this.matchScore(view, payload);
    if (result) {
      const [a, b] = result.junkyards;
      if (result.winner === null) return this.text("draw", { a, b });
      const w = result.winner;
      return this.text("wins", { name: this.name(payload, w), a: result.junkyards[w], b: result.junkyards[1 - w] });
    }
    return this.text(view.phase === "roll" ? "rolls" : "steers", { name: this.name(payload, view.turn) });
  },

  ended(view, payload) {
    const parts = [];
    if (view.result.reason === "stalled") parts.push(this.text("stalled", { n: view.stall_turns }));
    const empty = view.players.find((p) => p.in_play === 0);
    if (view.result.reason === "no_cars" && empty) parts.push(this.text("no_cars", { name: this.name(payload, empty.seat) }));
    return parts.join(" ");
  },

  // A match's one score is its games won: the headline says it at the match's end, winner first; between
  // games, this line says it with each seat's name (the headline keeps the game's own cars).
  matchScore(view, payload) {
    const m = view.match;
    if (m.winner === null) return this.text("match_draw", { a: m.wins[0], b: m.wins[1] });
    const [a, b] = [m.wins[m.winner], m.wins[1 - m.winner]];
    return this.text(a === b ? "match_wins_cars" : "match_wins", { name: this.name(payload, m.winner), a, b });
  },

  matchLine(view, payload) {
    const m = view.match;
    if (m.games < 2 || m.over) return "";
    return this.text("games_won", { first: this.name(payload, 0), a: m.wins[0], second: this.name(payload, 1), b: m.wins[1] });
  },

  movedLine(view, payload) {
    const parts = view.moved.map((ref) => {
      const car = view.cars.find((c) => c.seat === ref.seat && c.car === ref.car);
      const label = this.label(payload, car.seat, car.car);
      if (car.status === "captured") return this.text("into", { car: label, colour: this.seat(payload, car.by).label });
      if (car.status === "out") return this.text("out", { car: label });
      return label;
    });
    return parts.length ? this.text("moved", { cars: parts.join(", ") }) : "";
  },

  // The public board in an <svg>; `options` (a seat's page) marks the cars it may steer and the one chosen,
  // and calls onCar(number) when one of them is tapped.
  drawBoard(svg, view, payload, options) {
    const opts = options || {};
    const R = this.R;
    const ns = "http://www.w3.org/2000/svg";
    const make = (tag, attrs, children) => {
      const node = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs || {})) {
        if (k === "text") node.textContent = v; else node.setAttribute(k, v);
      }
      for (const child of children || []) node.append(child);
      return node;
    };
    const centre = (q, r) => [1.5 * R * q, Math.sqrt(3) * R * (r + q / 2)];
    const hex = (q, r, scale) => {
      const [cx, cy] = centre(q, r);
      return [0, 60, 120, 180, 240, 300].map((a) => {
        const t = (a * Math.PI) / 180;
        return `${(cx + R * scale * Math.cos(t)).toFixed(2)},${(cy + R * scale * Math.sin(t)).toFixed(2)}`;
      }).join(" ");
    };
    const places = [...view.cells, ...view.garages].map((c) => centre(c.q, c.r));
    const xs = places.map((p) => p[0]);
    const ys = places.map((p) => p[1]);
    const pad = 1;
    const x0 = Math.min(...xs) - R - pad;
    const y0 = Math.min(...ys) - (Math.sqrt(3) / 2) * R - pad;
    const w = Math.max(...xs) - Math.min(...xs) + 2 * R + 2 * pad;
    const h = Math.max(...ys) - Math.min(...ys) + Math.sqrt(3) * R + 2 * pad;
    svg.setAttribute("viewBox", `${x0.toFixed(2)} ${y0.toFixed(2)} ${w.toFixed(2)} ${h.toFixed(2)}`);
    const nodes = [];
    for (const g of view.garages) nodes.push(make("polygon", { class: "garage", points: hex(g.q, g.r, 0.8) }));
    for (const c of view.cells) {
      if (c.junkyard === null) nodes.push(make("polygon", { class: "cell", points: hex(c.q, c.r, 1) }));
    }
    for (const j of view.junkyards) {
      const [cx, cy] = centre(j.q, j.r);
      nodes.push(make("g", { class: "junkyard", "data-owner": String(j.owner) }, [
        make("title", { text: this.text("junkyard_of", { name: this.name(payload, j.owner), count: j.count }) }),
        make("polygon", { points: hex(j.q, j.r, 1), style: `fill:${this.ink(payload, j.owner)}` }),
        // the owner's mark with the count, as on the glass: the hex's colour alone does not say whose it is
        make("text", { x: cx, y: cy, class: "count", text: `${this.seat(payload, j.owner).mark || ""}${j.count}` }),
      ]));
    }
    const moved = new Set(view.moved.map((m) => `${m.seat}:${m.car}`));
    const steerable = new Set(opts.steerable || []);
    for (const car of view.cars) {
      if (car.q === null) continue;
      const [cx, cy] = centre(car.q, car.r);
      const ink = this.ink(payload, car.seat);
      const mine = car.seat === opts.seat && steerable.has(car.car);
      const classes = ["car", `seat-${car.seat}`];
      if (moved.has(`${car.seat}:${car.car}`)) classes.push("moved");
      if (mine) classes.push("steerable");
      if (mine && opts.selected === car.car) classes.push("selected");
      const t = (this.ANGLES[car.facing] * Math.PI) / 180;
      const [dx, dy] = [Math.sin(t), -Math.cos(t)];
      const at = (k, side) => `${(cx + dx * R * k - dy * R * side).toFixed(2)},${(cy + dy * R * k + dx * R * side).toFixed(2)}`;
      const group = make("g", { class: classes.join(" "), "data-seat": String(car.seat), "data-car": String(car.car),
                                "data-facing": car.facing }, [
        make("title", { text: `${this.label(payload, car.seat, car.car)}${car.status === "waiting" ? ` (${this.strings.garage})` : ""}` }),
        make("polygon", { class: "mark", points: hex(car.q, car.r, 0.92) }),
        make("circle", { cx, cy, r: R * 0.5, class: "body", style: car.seat === 0 ? `fill:${ink};stroke:${ink}` : `stroke:${ink}` }),
        make("text", { x: cx, y: cy, class: "number", text: String(car.car) }),
        make("polygon", { class: "arrow", points: [at(0.88, 0), at(0.6, 0.2), at(0.6, -0.2)].join(" "), style: `fill:${ink}` }),
      ]);
      if (mine) {
        group.setAttribute("role", "button");
        group.setAttribute("tabindex", "0");
        group.setAttribute("aria-label", this.text("car", { n: car.car }));
        const choose = () => opts.onCar && opts.onCar(car.car);
        group.addEventListener("click", choose);
        group.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") choose(); });
      }
      nodes.push(group);
    }
    svg.replaceChildren(...nodes);
  },

  dice(target, view) {
    const el = Companion.el;
    target.replaceChildren(...view.dice.map((d) => {
      const face = Companion.die(d.value, "die small");
      const notes = [];
      if (d.rerolled) notes.push(this.text("again", { n: d.first }));
      if (d.state !== "free") notes.push(this.strings[d.state]);
      return el("span", { class: `crash-die ${d.state}${d.usable ? " usable" : ""}` },
                [face, el("small", { text: notes.join(", ") })]);
    }));
  },

  render(root, view, payload, options) {
    if (!this.strings) this.init(root);
    const el = Companion.el;
    const m = view.match;
    const when = m.games > 1 ? this.text("game_turn", { game: m.game, games: m.games, turn: view.turns })
      : this.text("turn", { turn: view.turns });
    root.querySelector("#crash-status").textContent = `${this.headline(view, payload)} · ${when}`;
    let doing = "";
    if (view.result) doing = this.ended(view, payload);
    else if (view.mode === "dice") doing = this.strings.dice_only;
    else if (view.phase === "roll" && view.moved.length) doing = this.strings.copy;
    if (!view.result && view.stall_turns && view.quiet) {
      doing = `${doing} ${this.text("quiet", { quiet: view.quiet, n: view.stall_turns })}`.trim();
    }
    root.querySelector("#crash-doing").textContent = doing;
    this.dice(root.querySelector("#crash-dice"), view);
    const svg = root.querySelector("#crash-board");
    svg.toggleAttribute("hidden", view.mode === "dice");  // an <svg> has no `hidden` property
    if (view.mode === "board") this.drawBoard(svg, view, payload, options);
    root.querySelector("#crash-moved").textContent = this.movedLine(view, payload);
    root.querySelector("#crash-players tbody").replaceChildren(...view.players.map((p) => {
      const cars = view.cars.filter((c) => c.seat === p.seat && (c.status === "board" || c.status === "waiting"))
        .map((c) => c.car).join(" ");
      const name = el("th", { style: `border-left: 0.5em solid ${this.ink(payload, p.seat)}`,
                              text: this.name(payload, p.seat) });
      if (view.mode === "dice") name.append(el("small", { text: ` ${this.text("in_play", { cars: cars || this.strings.none })}` }));
      return el("tr", { class: view.actor === p.seat ? "turn" : "" }, [
        name, el("td", { text: String(p.in_play) }), el("td", { text: String(p.captured) })]);
    }));
    root.querySelector("#crash-match").textContent = this.matchLine(view, payload);
  },
};
