// The dashboard's live pages: one event stream of the whole venue, drawn again at each change.
"use strict";
(function () {
  const S = JSON.parse(document.getElementById("venue-strings").textContent);
  const director = document.body.dataset.director;
  const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m));
  // A count in the reader's words: the forms for 0, 1 and 2 or more (French says "1 place", "0 point").
  const count = (forms, n) => fill(forms[Math.min(Math.max(Math.abs(Number(n)) || 0, 0), 2)], { n: n });
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  const by = document.getElementById("by");
  let source = null;

  // A seat as every page names it: its mark (❶ to ❻), its name, and its colour in words, never the
  // colour alone.
  function seatText(s) {
    const said = s.name ? s.name + " · " + s.label : s.label;
    return s.mark ? s.mark + "\u00a0" + said : said;
  }
  function seatName(seats, n) {
    const seat = (seats || []).find((s) => s.seat === n);
    return seat ? seatText(seat) : String(n + 1);
  }

  // A time the dashboard sends (UTC) as the reader's clock shows it, on 24 hours as the glass does: "21:04".
  function clock(iso) {
    return new Date(iso).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }

  function drawTables(tables) {
    const list = document.getElementById("tables");
    list.replaceChildren();
    if (!tables.length) list.append(el("li", "", S.no_tables));
    for (const t of tables) {
      const u = t.update || {};
      const li = el("li", t.silent_since ? "online silent" : t.online ? "online" : "offline");
      li.dataset.table = t.name;
      li.append(el("strong", "", t.name + " · " + (t.online ? S.online : S.offline)));
      // Online by its status, yet nothing heard from it for a while: said in words, with since when.
      if (t.silent_since) li.append(el("div", "silence", fill(S.silent, { time: clock(t.silent_since) })));
      const line = [u.title || u.game || S.no_game];
      if (u.version) line.push(fill(S.version, { n: u.version }));
      if (u.over) line.push(S.over);
      else if ((u.waiting || []).length) line.push(fill(S.turn, { who: u.waiting.map((n) => seatName(u.seats, n)).join(", ") }));
      li.append(el("div", "game", line.join(" · ")));
      li.append(el("div", "seats", (u.seats || []).filter((s) => s.in_game).map(seatText).join(", ")));
      list.append(li);
    }
  }

  function drawStandings(rows, kind) {
    const list = document.getElementById("standings");
    list.replaceChildren();
    for (const r of rows) {
      const li = el("li");
      li.append(el("span", "", r.player), el("span", "", count(kind === "points" ? S.points_n : S.places_n, r.total)));
      list.append(li);
    }
  }

  function drawResults(results) {
    const list = document.getElementById("results");
    if (!list) return;
    list.replaceChildren();
    if (!results.length) list.append(el("li", "", S.no_results));
    for (const r of results) {
      const li = el("li", r.voided ? "voided" : "");
      li.dataset.result = r.id;
      const figures = r.players.map((p, i) => p + " " + (r.scores ? r.scores[i] : "#" + r.places[i]));
      li.append(el("strong", "", r.table + " · " + r.title), el("div", "figures", figures.join(" · ")));
      if (r.voided) {
        li.append(el("span", "voided-word", S.voided), el("div", "audit", fill(S.void_line, { who: r.voided.who, why: r.voided.why })));
      }
      if (r.corrections.length) li.append(el("span", "corrected", S.corrected));
      for (const c of r.corrections) {
        li.append(el("div", "audit", fill(S.correction, { who: c.who, field: S[c.field], player: r.players[c.player], before: c.before, after: c.after, why: c.why })));
      }
      list.append(li);
    }
    const label = (r) => r.table + " · " + r.title + " · " + r.at.slice(11, 16);
    const form = document.getElementById("correct");
    if (form) {
      const pick = form.elements.result;
      const kept = pick.value;
      pick.replaceChildren(...results.map((r) => new Option(label(r), r.id)));
      if (kept) pick.value = kept;
      drawPlayers(results);
    }
    const voiding = document.getElementById("void");
    if (voiding) {
      const pick = voiding.elements.result;
      const kept = pick.value;
      pick.replaceChildren(...results.filter((r) => !r.voided).map((r) => new Option(label(r), r.id)));
      if (kept) pick.value = kept;
    }
  }

  let lastResults = [];
  function drawPlayers(results) {
    const form = document.getElementById("correct");
    const r = results.find((x) => String(x.id) === form.elements.result.value);
    const kept = form.elements.player.value;
    form.elements.player.replaceChildren(...(r ? r.players.map((p, i) => new Option(p, i)) : []));
    if (kept) form.elements.player.value = kept;
  }

  function connect() {
    if (source) source.close();
    const live = document.getElementById("live");
    source = new EventSource("/api/venue/events?by=" + (by ? by.value : document.body.dataset.by));
    source.addEventListener("venue", (e) => {
      const data = JSON.parse(e.data);
      live.textContent = S.live;
      document.body.dataset.version = e.lastEventId;
      drawTables(data.tables);
      drawStandings(data.standings, data.by);
      lastResults = data.results;
      drawResults(data.results);
    });
    source.onerror = () => {
      // A refusal (the dashboard's live pages are full) closes the stream for good: say so, try later.
      if (source.readyState === EventSource.CLOSED) {
        live.textContent = S.full;
        setTimeout(connect, 30000);
      } else live.textContent = S.reconnecting;
    };
  }

  if (by) by.addEventListener("change", connect);
  const form = document.getElementById("correct");
  if (form) {
    form.elements.result.addEventListener("change", () => drawPlayers(lastResults));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = form.elements;
      const body = { result: Number(f.result.value), player: Number(f.player.value), field: f.field.value, value: Number(f.value.value), who: f.who.value, why: f.why.value };
      const answer = await fetch("/api/director/" + encodeURIComponent(director) + "/corrections", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const data = await answer.json();
      document.getElementById("correct-message").textContent = answer.ok ? S.saved : data.error;
    });
  }
  // Voiding cannot be taken back: the first tap arms the button, the second sends.
  const voiding = document.getElementById("void");
  if (voiding) {
    const button = voiding.querySelector("button");
    const disarm = () => { delete button.dataset.armed; button.textContent = S.void; };
    voiding.elements.result.addEventListener("change", disarm);
    voiding.addEventListener("submit", async (e) => {
      e.preventDefault();
      const message = document.getElementById("void-message");
      if (!button.dataset.armed) {
        button.dataset.armed = "1";
        button.textContent = S.void_again;
        return;
      }
      disarm();
      const f = voiding.elements;
      const body = { result: Number(f.result.value), who: f.who.value, why: f.why.value };
      const answer = await fetch("/api/director/" + encodeURIComponent(director) + "/voids", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const data = await answer.json();
      message.textContent = answer.ok ? S.void_saved : data.error;
    });
  }
  connect();
})();
