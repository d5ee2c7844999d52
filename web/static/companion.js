/* Shared by every page: strings, messages, commands, the live stream, dice faces and the seats bar. */
"use strict";

const Companion = (() => {
  const strings = JSON.parse(document.getElementById("strings").textContent);
  const games = {};
  const seats = {};
  const HOST_KEY = "companion.host";
  const SEAT_KEY = "companion.seat";

  // A string's {name} fields filled from `params`: every page and game script fills templates with this.
  // A plural comes as its forms for n = 0, 1 and more (the template's plural_forms): `params.n` picks one.
  // One pass, with a function: a value (a name, a password) is put in as it is, never read as a field
  // to fill or as one of String.replace's `$` patterns.
  function fill(template, params) {
    const values = params || {};
    const text = Array.isArray(template) ? template[Math.min(Math.max(Number(values.n) || 0, 0), 2)] : template;
    return text.replace(/\{(\w+)\}/g, (field, name) => (Object.hasOwn(values, name) ? String(values[name]) : field));
  }

  function t(key, params) { return fill(strings[key] || key, params); }

  let messageTimer = null;
  function show(text, kind) {
    const box = document.getElementById("message");
    box.textContent = text;
    box.dataset.kind = kind || "error";
    box.hidden = false;
    clearTimeout(messageTimer);
    messageTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  // The host link (/?host=TOKEN) is kept on this phone only and taken out of the address bar,
  // so it is not shown on screen or bookmarked by accident.
  function hostToken() {
    const url = new URL(window.location.href);
    const given = url.searchParams.get("host");
    if (given) {
      try { localStorage.setItem(HOST_KEY, given); } catch (e) { /* private mode: keep it for this page */ }
      url.searchParams.delete("host");
      window.history.replaceState(null, "", url.pathname + url.search + url.hash);
      hostToken.memory = given;
    }
    try { return localStorage.getItem(HOST_KEY) || hostToken.memory || null; } catch (e) { return hostToken.memory || null; }
  }

  function forgetHost() {
    hostToken.memory = null;
    try { localStorage.removeItem(HOST_KEY); } catch (e) { /* nothing kept */ }
  }

  // A seat's token is kept on its phone, so the scoreboard and the join page can lead back to it
  // and a reload or a reconnect keeps the seat.
  function seatToken() {
    const page = document.getElementById("seat");
    if (page) return JSON.parse(page.textContent).token;
    try { return localStorage.getItem(SEAT_KEY); } catch (e) { return null; }
  }

  function keepSeat(token) {
    try { localStorage.setItem(SEAT_KEY, token); } catch (e) { /* private mode: the link still works */ }
  }

  function forgetSeat() {
    try { localStorage.removeItem(SEAT_KEY); } catch (e) { /* nothing kept */ }
  }

  function keepHost(token) {
    try { localStorage.setItem(HOST_KEY, token); } catch (e) { /* private mode */ }
    hostToken.memory = token;
  }

  function hostHeaders() {
    const host = hostToken();
    return host ? { "X-Host-Token": host } : {};
  }

  function lang() { return document.documentElement.lang; }

  // One line of the table's public history in words: `lines` is the page's history-lines table, `names`
  // maps seats to names. An undo line names what it took back.
  function historyLine(entry, lines, names) {
    const who = entry.seat === null || entry.seat === undefined ? lines.the_device : names.get(entry.seat);
    const words = (kind) => (lines[kind] || kind.replace(/_/g, " ")).split("{who}").join(who || lines.the_device);
    if (entry.kind === "undo") return (lines.undo || "{what}").split("{what}").join(entry.undone ? words(entry.undone) : "");
    return words(entry.kind);
  }

  // One exchange with the table, said nowhere: status 0 when it did not answer.
  async function exchange(method, url, body, headers) {
    const init = { method, headers: Object.assign({ "Accept": "application/json" }, headers || {}) };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    const sep = url.includes("?") ? "&" : "?";
    let response;
    try {
      response = await fetch(`${url}${sep}lang=${lang()}`, init);
    } catch (e) {
      return { ok: false, status: 0, data: null };
    }
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    // A long press on D made a new host link: this browser's is dead, and keeping it would hide
    // "become the host" on /join and refuse every host action.
    if (response.headers.get("X-Host-Token-Stale")) forgetHost();
    return { ok: response.ok, status: response.status, data };
  }

  async function request(method, url, body, headers) {
    const answer = await exchange(method, url, body, headers);
    if (!answer.ok) show((answer.data && answer.data.error) || t("offline"));
    return answer;
  }

  // Waits before the next try, longer after each (1 s, 2 s, 4 s... up to 30 s).
  const backoff = (tries) => PageLoad.wait(tries, 1000);

  // A part of the page that comes by a request (the join page's seats, the host's controls): asked again
  // while the table does not answer, the page saying so meanwhile (base.html), so it never stays
  // half-built. The table's own answer, a refusal included, ends the wait.
  async function fetchPart(url, headers) {
    for (let tries = 0; ; tries++) {
      const answer = await exchange("GET", url, undefined, headers);
      if (answer.status !== 0 && answer.status < 500) {
        if (tries) PageLoad.clear();
        return answer;
      }
      PageLoad.say(answer.status ? "retry" : "offline");
      await backoff(tries);
    }
  }

  // A command for the table: on a seat's page it acts for that seat only; elsewhere it goes with
  // the host token when this phone has one.
  function command(kind, args, extraHeaders) {
    const headers = Object.assign({}, extraHeaders || {});
    const page = document.getElementById("seat");
    if (page) headers["X-Seat-Token"] = JSON.parse(page.textContent).token;
    else Object.assign(headers, hostHeaders());
    return request("POST", "/api/command", { kind, args: args || {} }, headers);
  }

  function setLive(state) {
    const badge = document.getElementById("live");
    badge.dataset.state = state;
    badge.textContent = state === "live" ? t("live") : state === "lost" ? t("reconnecting") : "";
  }

  // The page's live stream; every (re)connect starts with a full snapshot. EventSource reconnects by
  // itself after a dropped connection, but gives up on an answer that is not a stream (the table
  // refusing one more live page, a Wi-Fi login page): this page then opens a new one, later and later,
  // unless `closed()` (awaited) says the stream is gone for good.
  function live(url, onView, closed) {
    const sep = url.includes("?") ? "&" : "?";
    const take = (event) => { setLive("live"); onView(JSON.parse(event.data), event.type); };
    let tries = 0;
    function open() {
      const source = new EventSource(`${url}${sep}lang=${lang()}`);
      source.addEventListener("snapshot", take);
      source.addEventListener("update", take);
      source.addEventListener("rejected", (event) => show(JSON.parse(event.data).error));
      // The e-ink panel stopped answering: said until the device restarts (the server words it).
      source.addEventListener("panel", (event) => {
        const panel = JSON.parse(event.data);
        const box = document.getElementById("panel-fault");
        box.textContent = panel.message;
        box.hidden = !panel.fault;
      });
      source.addEventListener("open", () => { tries = 0; setLive("live"); });
      source.addEventListener("error", async () => {
        setLive("lost");
        if (source.readyState !== EventSource.CLOSED) return;
        if (closed && await closed()) return;
        await backoff(tries++);
        open();
      });
    }
    open();
  }

  // A button that cannot be taken back takes a second tap within a few seconds: the first shows
  // `data-confirm` in its place (and marks it "armed"), the second runs `action`; else it goes back to
  // `data-label`. Start, Play again, End the game, Free a seat, New link: one pattern on every page.
  function twoTaps(button, action) {
    let armed = null;
    const reset = () => { armed = null; button.textContent = button.dataset.label; button.classList.remove("armed"); };
    button.addEventListener("click", async (event) => {
      event.preventDefault();
      if (!armed) {
        button.textContent = button.dataset.confirm;
        button.classList.add("armed");
        armed = setTimeout(reset, 4000);
        return;
      }
      clearTimeout(armed);
      reset();
      await action();
    });
    return button;
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  // Which of the 3x3 spots hold a pip, for faces 1 to 6 (row by row). Two and three use the
  // top-left/bottom-right diagonal, as the e-ink faces and the LED dice's "diagonal" line do.
  const PIPS = {
    1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8],
  };

  function die(value, className) {
    const face = el("span", { class: className || "die", role: "img", "data-value": String(value || 0),
                              "aria-label": value ? t("die", { n: value }) : "" });
    const lit = PIPS[value] || [];
    for (let i = 0; i < 9; i++) face.append(el("span", { class: lit.includes(i) ? "pip on" : "pip" }));
    return face;
  }

  // A seat as every output names it: its mark (❶ to ❻, from the payload: the glass draws the same), a
  // space that never breaks, then its chosen name, else its colour label. Colour is never the only cue.
  function seatName(s) { return marked(s, s.name || s.label || String(s.seat + 1)); }

  // `text` (a seat's name, its place and colour) after the seat's mark.
  function marked(s, text) { return s && s.mark ? `${s.mark}\u00a0${text}` : text; }

  // Seat number `seat` of the payload's `seatList` as every output names it ("❷ Bob").
  function seatNamed(seatList, seat) {
    const found = (seatList || []).find((s) => s.seat === seat);
    return found ? seatName(found) : String(seat + 1);
  }

  // The seats bar: each seat's colour, mark and name (or colour label), the one to play marked.
  function renderSeats(target, seatList, turn) {
    const playing = (seatList || []).filter((s) => s.playing);
    target.replaceChildren(...playing.map((s) => {
      const chip = el("li", { class: "seat-chip", "data-seat": String(s.seat), style: `--seat: ${s.ink}` }, [
        el("span", { class: "swatch", "aria-hidden": "true" }),
        el("span", { text: seatName(s) }),
      ]);
      if (turn === s.seat) chip.setAttribute("aria-current", "true");
      return chip;
    }));
    target.hidden = playing.length === 0;
  }

  // The host ended a game: the page tells which, and what runs until the next one (`ended` is its title).
  function showEnded(payload) {
    const notice = document.getElementById("game-ended");
    if (!notice) return;
    notice.hidden = !payload.ended;
    notice.textContent = payload.ended ? t("ended", { game: payload.ended, idle: payload.title || "" }) : "";
  }

  // A game of a match ended (payload.match, GameSpec.match_game): which game, and what comes next.
  function matchLine(payload) {
    const m = payload.match;
    if (!m || !m.ended) return "";
    if (!payload.over) return t("match_next", { game: m.game, games: m.games, next: m.game + 1 });
    const winners = (payload.result && payload.result.winners) || [];
    if (!winners.length) return t("match_drawn", { game: m.game, games: m.games });
    const names = winners.map((s) => seatNamed(payload.seats, s)).join(", ");
    return t("match_won", { game: m.game, games: m.games, names });
  }

  return { t, fill, show, showEnded, matchLine, historyLine, hostToken, forgetHost, keepHost, hostHeaders, seatToken, keepSeat, forgetSeat, request,
           fetchPart, command, live, setLive, twoTaps, el, die, marked, seatName, seatNamed, renderSeats, games, seats, PIPS };
})();
