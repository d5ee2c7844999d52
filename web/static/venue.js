// The dashboard's live pages: one event stream of the venue, a bounded snapshot first and then what
// changed (tables merged by name, results by id, the standings' window again when it moved).
"use strict";
(function () {
  const S = JSON.parse(document.getElementById("venue-strings").textContent);
  const director = document.body.dataset.director;
  const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m));
  // A count in the reader's words: the forms for 0, 1 and 2 or more (French says "1 place", "0 point").
  const count = (forms, n) => fill(forms[Math.min(Math.max(Math.abs(Number(n)) || 0, 0), 2)], { n: n });
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  const by = document.getElementById("by");
  const lang = document.documentElement.lang;
  let source = null;
  // What the page holds: every table by name, the results it shows (newest first: the window, and what
  // "older" brought; `limit` of them kept, so a page left open all day stays its size) and the standings.
  const tables = new Map();
  let results = [];
  let older = false;
  let limit = 0;
  let standings = [];
  let more = false;

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

  function tableRow(t) {
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
    return li;
  }

  // A snapshot's tables replace the list; a delta's replace their own rows, or come in at their place.
  function drawTables(rows, whole) {
    const list = document.getElementById("tables");
    if (whole) {
      tables.clear();
      list.replaceChildren();
    }
    for (const t of rows) {
      const li = tableRow(t);
      const shown = tables.get(t.name);
      tables.set(t.name, li);
      if (shown) { shown.replaceWith(li); continue; }
      const next = [...tables.keys()].filter((n) => n > t.name).sort()[0];
      list.insertBefore(li, next === undefined ? null : tables.get(next));
    }
    const empty = list.querySelector(".empty");
    if (tables.size && empty) empty.remove();
    if (!tables.size && !empty) list.append(el("li", "empty", S.no_tables));
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

  // A delta's results replace the ones shown with their id, and new ones come in at their place; one
  // older than the oldest shown waits for "older" to bring it (as the dashboard has it then).
  function mergeResults(rows) {
    for (const r of rows) {
      const at = results.findIndex((x) => x.id === r.id);
      if (at >= 0) results[at] = r;
      else if (!older || !results.length || r.id > results[results.length - 1].id) results.push(r);
    }
    results.sort((a, b) => b.id - a.id);
    if (results.length > limit) {
      results = results.slice(0, limit);
      older = true;
    }
  }

  function drawMore() {
    const olderButton = document.getElementById("older");
    if (olderButton) olderButton.hidden = !older;
    const moreButton = document.getElementById("more-standings");
    if (moreButton) moreButton.hidden = !more;
  }

  function drawResults() {
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
      drawPlayers();
    }
    const voiding = document.getElementById("void");
    if (voiding) {
      const pick = voiding.elements.result;
      const kept = pick.value;
      pick.replaceChildren(...results.filter((r) => !r.voided).map((r) => new Option(label(r), r.id)));
      if (kept) pick.value = kept;
    }
    drawMore();
  }

  function drawPlayers() {
    const form = document.getElementById("correct");
    const r = results.find((x) => String(x.id) === form.elements.result.value);
    const kept = form.elements.player.value;
    form.elements.player.replaceChildren(...(r ? r.players.map((p, i) => new Option(p, i)) : []));
    if (kept) form.elements.player.value = kept;
  }

  function connect() {
    if (source) source.close();
    const live = document.getElementById("live");
    source = new EventSource("/api/venue/events?by=" + kind() + "&lang=" + lang);
    source.addEventListener("venue", (e) => {
      const data = JSON.parse(e.data);
      live.textContent = S.live;
      document.body.dataset.version = e.lastEventId;
      drawTables(data.tables, !data.delta);
      if (!data.delta) {
        results = data.results;
        older = data.older;
        limit = Math.max(data.results.length, windowSize);
        drawResults();
      } else if (data.results.length) {
        mergeResults(data.results);
        drawResults();
      }
      if (data.standings) {
        standings = data.standings;
        more = data.more;
        drawStandings(standings, data.by);
        drawMore();
      }
    });
    source.onerror = () => {
      // A refusal (the dashboard's live pages are full) closes the stream for good: say so, try later.
      if (source.readyState === EventSource.CLOSED) {
        live.textContent = S.full;
        setTimeout(connect, 30000);
      } else live.textContent = S.reconnecting;
    };
  }

  const kind = () => (by ? by.value : document.body.dataset.by);
  const windowSize = Number(document.body.dataset.window);

  // "Older results" brings the next window before the oldest shown; "More players" the standings' next.
  const olderButton = document.getElementById("older");
  if (olderButton) {
    olderButton.addEventListener("click", async () => {
      if (!results.length) return;
      const answer = await fetch("/api/venue/results?before=" + results[results.length - 1].id + "&lang=" + lang);
      const data = await answer.json();
      if (!answer.ok) return;
      const known = new Set(results.map((r) => r.id));
      results.push(...data.results.filter((r) => !known.has(r.id)));
      limit = results.length;
      older = data.older;
      drawResults();
    });
  }
  const moreButton = document.getElementById("more-standings");
  if (moreButton) {
    moreButton.addEventListener("click", async () => {
      const answer = await fetch("/api/venue/standings?by=" + kind() + "&offset=" + standings.length + "&lang=" + lang);
      const data = await answer.json();
      if (!answer.ok) return;
      standings = standings.concat(data.standings);
      more = data.more;
      drawStandings(standings, kind());
      drawMore();
    });
  }

  if (by) by.addEventListener("change", connect);
  const form = document.getElementById("correct");
  if (form) {
    form.elements.result.addEventListener("change", drawPlayers);
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
