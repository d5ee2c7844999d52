/* The host page: join code, undo and end, a new game with its options, seats and the screen's language. */
"use strict";

(() => {
  const strings = JSON.parse(document.getElementById("host-strings").textContent);
  const H = () => Companion.hostHeaders();
  const historyLines = JSON.parse(document.getElementById("history-lines").textContent);
  let games = [];
  let latest = JSON.parse(document.getElementById("snapshot").textContent);
  let phonesUrl = null;

  const twoTaps = Companion.twoTaps;

  function optionInput(name, schema, required) {
    const id = `opt-${name}`;
    const label = Companion.el("label", { for: id, text: schema.title || (name === "players" ? strings.players : name.replace(/_/g, " ")) });
    let input;
    if (schema.type === "boolean") {
      input = Companion.el("input", { id, name, type: "checkbox" });
      input.checked = Boolean(schema.default);
      return Companion.el("div", { class: "check" }, [input, label]);
    }
    if (schema.enum) {
      input = Companion.el("select", { id, name }, schema.enum.map((v) => Companion.el("option", { value: String(v), text: String(v) })));
      if (schema.default !== undefined) input.value = String(schema.default);
    } else {
      input = Companion.el("input", { id, name, type: schema.type === "integer" ? "number" : "text" });
      if (schema.minimum !== undefined) input.min = schema.minimum;
      if (schema.maximum !== undefined) input.max = schema.maximum;
      if (schema.default !== undefined) input.value = String(schema.default);
      if (required) input.required = true;
    }
    // An enum of numbers has no type in its JSON Schema: its values say it.
    input.dataset.kind = schema.type || (schema.enum && Number.isInteger(schema.enum[0]) ? "integer" : "string");
    return Companion.el("div", { class: "field" }, [label, input]);
  }

  // A game's expected length for the options chosen (an `x-length` keyword of an option's schema: minutes
  // by the values of the options it names, and shorter settings for some player counts), kept up to date.
  function lengthHint(box, hint) {
    const text = Companion.el("p", { class: "hint", id: "game-length", "aria-live": "polite" });
    const shorter = Companion.el("button", { type: "button", id: "game-shorter", class: "secondary" });
    const value = (name) => { const input = box.querySelector(`[name="${name}"]`); return input ? input.value : ""; };
    const update = () => {
      const minutes = hint.minutes[hint.by.map(value).join(",")];
      text.textContent = minutes === undefined ? "" : Companion.fill(strings.length, { minutes });
      const better = hint.shorter[value(hint.by[0])];
      const key = better && hint.by.map((name, i) => (i === 0 ? value(name) : String(better[name]))).join(",");
      shorter.hidden = !better || key === hint.by.map(value).join(",");
      if (!shorter.hidden) shorter.textContent = Companion.fill(strings.shorter, { minutes: hint.minutes[key] });
      shorter.onclick = () => {
        for (const [name, v] of Object.entries(better || {})) box.querySelector(`[name="${name}"]`).value = String(v);
        update();
      };
    };
    box.oninput = update;  // one listener, the latest game's
    setTimeout(update);
    return Companion.el("div", { class: "field" }, [text, shorter]);
  }

  function showOptions() {
    const game = games.find((g) => g.name === document.getElementById("game-choice").value);
    const box = document.getElementById("game-options");
    box.replaceChildren();
    if (!game) return;
    const schema = game.options || {};
    const props = (schema.$defs && schema.$ref) ? schema.$defs[schema.$ref.split("/").pop()].properties : schema.properties || {};
    const required = new Set(((schema.$defs && schema.$ref) ? schema.$defs[schema.$ref.split("/").pop()].required : schema.required) || []);
    for (const [name, prop] of Object.entries(props)) {
      const field = optionInput(name, prop, required.has(name));
      if (name === "players") {
        const input = field.querySelector("input");
        const seated = (window.hostSeats || []).filter((s) => s.name).length;
        if (seated >= game.seats[0] && seated <= game.seats[1]) input.value = String(seated);
        else if (!input.value) input.value = String(game.seats[0] || "");
      }
      box.append(field);
    }
    const hint = Object.values(props).map((prop) => prop["x-length"]).find(Boolean);
    if (hint) box.append(lengthHint(box, hint));
    // The game's data files: each may be replaced by the owner's own copy for this game.
    document.getElementById("data-files").replaceChildren(...(game.data || []).map((file) => {
      const id = `data-${file.key}`;
      return Companion.el("div", { class: "field" }, [
        Companion.el("label", { for: id, text: Companion.fill(strings.own_file, { title: file.title }) }),
        Companion.el("input", { id, type: "file", accept: ".toml,text/plain", "data-key": file.key }),
      ]);
    }));
  }

  async function readOptions() {
    const options = {};
    for (const input of document.querySelectorAll("#game-options input, #game-options select")) {
      if (input.type === "checkbox") options[input.name] = input.checked;
      else if (input.value === "") continue;
      else options[input.name] = input.dataset.kind === "integer" ? Number(input.value) : input.value;
    }
    return options;
  }

  async function readData() {
    const data = {};
    for (const input of document.querySelectorAll("#data-files input[type=file]")) {
      const file = input.files[0];
      if (file) data[input.dataset.key] = { name: file.name, text: await file.text() };
    }
    return data;
  }

  async function showLink(seat, answer, name) {
    // The address phones reach (the simulator's page may be open on 127.0.0.1, which no other phone can).
    const url = new URL(answer.data.link, phonesUrl || window.location.href).href;
    // The seat as every page names it: its player's name, else its place and colour.
    const shown = (window.hostSeats || []).find((s) => s.seat === seat);
    const who = Companion.marked(shown, name || (shown ? (shown.name || `${shown.place} · ${shown.label}`) : String(seat + 1)));
    document.getElementById("seat-link-for").textContent = Companion.fill(strings.link_for, { seat: who });
    const link = document.getElementById("seat-link-url");
    link.href = url;
    link.textContent = url;
    await showQr("seat-link-qr", url);
    document.getElementById("seat-link").hidden = false;
  }

  // A link's QR code (POST: links are secrets, never in an address the browser keeps).
  async function showQr(id, text) {
    const qr = await fetch("/api/qr", { method: "POST", headers: Object.assign({ "Content-Type": "application/json" }, H()),
                                        body: JSON.stringify({ text }) });
    document.getElementById(id).innerHTML = qr.ok ? await qr.text() : "";
  }

  function seatRow(s) {
    const name = Companion.el("input", { type: "text", maxlength: "24", value: s.name, "aria-label": strings.name_for,
                                         placeholder: strings.name });
    const give = Companion.el("button", { type: "button", class: "secondary", text: strings.give });
    give.addEventListener("click", async () => {
      const answer = await Companion.request("POST", `/api/seats/${s.seat}/assign`, { name: name.value }, H());
      if (answer.ok) showLink(s.seat, answer, name.value.trim());
    });
    const renew = Companion.el("button", { type: "button", class: "secondary", text: strings.new_link });
    renew.addEventListener("click", async () => {
      const answer = await Companion.request("POST", `/api/seats/${s.seat}/reissue`, {}, H());
      if (answer.ok) showLink(s.seat, answer);
    });
    const free = Companion.el("button", { type: "button", class: "secondary", text: strings.free_seat });
    free.addEventListener("click", () => Companion.request("POST", `/api/seats/${s.seat}/free`, {}, H()));
    // A free seat only needs a name and "give"; a taken one a new link or freeing: one line each.
    name.readOnly = Boolean(s.name);
    const buttons = s.name ? [renew, free] : [give];
    return Companion.el("li", { "data-seat": String(s.seat), "data-taken": String(Boolean(s.name)), style: `--seat: ${s.ink}` }, [
      Companion.el("span", { class: "swatch", "aria-hidden": "true" }),
      Companion.el("strong", { text: Companion.marked(s, `${s.place} · ${s.label}`) }),
      Companion.el("div", { class: "seat-line" }, [name, ...buttons]),
    ]);
  }

  const takenForms = JSON.parse(document.getElementById("seats-taken-forms").textContent);
  function renderSeats(seats) {
    window.hostSeats = seats;
    document.getElementById("seats-taken").textContent = takenForms[seats.filter((s) => s.name).length] || "";
    const list = document.getElementById("seat-admin");
    // Keep a name being typed: rebuild only when the seats themselves changed.
    const key = JSON.stringify(seats);
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.replaceChildren(...seats.map(seatRow));
  }

  // The network card: shown when the table manages its network; a switch is answered at once and
  // done in the background, so the card asks again until it is over.
  async function showNetwork() {
    const answer = await Companion.request("GET", "/api/network", undefined, H());
    if (!answer.ok || !answer.data.managed) return;
    const net = answer.data;
    const card = document.getElementById("network");
    card.hidden = false;
    const now = document.getElementById("network-now");
    // "unknown": the state could not be read, and `problem` (in this page's language) says why.
    const text = { hotspot: strings.network_hotspot, client: strings.network_client, unknown: strings.network_unknown }[net.mode] || strings.network_offline;
    now.textContent = Companion.fill(text, { ssid: net.hotspot.ssid, password: net.hotspot.password, network: net.network || "", url: net.url, problem: net.problem });
    const note = document.getElementById("network-note");
    note.textContent = net.switching ? strings.network_switching
      : net.problem && net.mode !== "unknown" ? Companion.fill(strings.network_problem, { problem: net.problem }) : "";
    for (const b of document.querySelectorAll("#network-mode button")) {
      b.setAttribute("aria-pressed", String(b.dataset.mode === net.mode));
      b.disabled = net.switching;
      b.onclick = async () => {
        const sent = await Companion.request("POST", "/api/network", { mode: b.dataset.mode }, H());
        if (sent.ok) showNetwork();
      };
    }
    if (net.switching) setTimeout(showNetwork, 2000);
  }

  // The venue card: shown when the table publishes to a venue; whether the venue is reachable and how
  // much waits for it, asked again every 10 s while the page is open.
  async function showVenue() {
    const answer = await Companion.request("GET", "/api/venue", undefined, H());
    if (!answer.ok || !answer.data.venue) return;
    const link = answer.data;
    document.getElementById("venue-link").hidden = false;
    const text = link.reachable ? strings.venue_reachable : strings.venue_unreachable;
    document.getElementById("venue-link-now").textContent = Companion.fill(text, { venue: link.venue, table: link.table, n: link.waiting });
    setTimeout(showVenue, 10000);
  }

  async function start() {
    // Only the table's refusal makes this browser forget its host link, never a dropped connection.
    const me = await Companion.fetchPart("/api/host", H());
    if (!me.ok) {
      Companion.show((me.data && me.data.error) || Companion.t("offline"));
      Companion.forgetHost();
      document.getElementById("not-host").hidden = false;
      return;
    }
    document.getElementById("host-controls").hidden = false;
    document.getElementById("join-code").textContent = me.data.join_code;
    showQr("join-qr", me.data.join_link);  // the glass's own: a scan joins at once, whatever strangers type
    phonesUrl = me.data.url;
    for (const b of document.querySelectorAll("#screen-language button")) {
      b.setAttribute("aria-pressed", String(b.dataset.language === me.data.language));
      b.addEventListener("click", async () => {
        const answer = await Companion.request("POST", "/api/language", { language: b.dataset.language }, H());
        if (answer.ok) for (const o of document.querySelectorAll("#screen-language button")) o.setAttribute("aria-pressed", String(o === b));
      });
    }
    showNetwork();
    showVenue();
    const list = await Companion.fetchPart("/api/games");
    games = list.ok ? list.data.games : [];
    const choice = document.getElementById("game-choice");
    choice.replaceChildren(...games.map((g) => Companion.el("option", { value: g.name, text: g.title })));
    const current = JSON.parse(document.getElementById("snapshot").textContent);
    if (current.game && games.some((g) => g.name === current.game)) choice.value = current.game;
    choice.addEventListener("change", showOptions);
    showOptions();
    Companion.live("/api/events", (payload) => {
      // The page follows the running game: another game started since it was loaded.
      const shown = document.getElementById("game-title");
      if (payload.title && shown.textContent !== payload.title) {
        document.title = document.title.split(shown.textContent).join(payload.title);
        shown.textContent = payload.title;
      }
      latest = payload;
      showUndo();
      renderSeats(payload.seats || []);
      document.body.dataset.version = String(payload.version);
      document.body.dataset.game = payload.game || "";
    });
  }

  // Undo takes back one move, and says which before and after: a first tap names the move, a second
  // (within a few seconds) confirms it, tied to the table's version so a later move is never taken back.
  const undo = document.getElementById("undo");
  let undoArmed = null;
  function lastMove() {
    const history = (latest && latest.history) || [];
    const names = new Map((latest.seats || []).map((s) => [s.seat, Companion.seatName(s)]));
    const last = [...history].reverse().find((entry) => entry.kind !== "undo");
    return last && last.kind !== "new_game" ? Companion.historyLine(last, historyLines, names) : null;
  }
  // Whether Undo can take the last move back is the table's to say (`undo`, by the rule that refuses
  // it): when it cannot, the button is off and the line under it says why, before anyone taps.
  function showUndo() {
    const hint = document.getElementById("undo-what");
    undo.disabled = !latest.undo;
    hint.textContent = latest.undo ? "" : (lastMove() ? strings.cannot_undo : strings.nothing_to_undo);
    hint.hidden = Boolean(latest.undo);
    if (!latest.undo && undoArmed) disarmUndo();
  }
  function disarmUndo() {
    clearTimeout(undoArmed);
    undoArmed = null;
    undo.textContent = undo.dataset.label;
    undo.classList.remove("armed");
    delete undo.dataset.expect;
  }
  undo.addEventListener("click", async () => {
    if (!undoArmed) {
      const what = lastMove();
      if (!what) { Companion.show(strings.nothing_to_undo); return; }
      undo.textContent = Companion.fill(strings.undo_confirm, { what });
      undo.dataset.what = what;
      undo.dataset.expect = String(latest.version);
      undo.classList.add("armed");
      undoArmed = setTimeout(disarmUndo, 4000);
      return;
    }
    const what = undo.dataset.what, expect = Number(undo.dataset.expect);
    disarmUndo();
    const answer = await Companion.command("undo", { expect });
    if (answer.ok) Companion.show(Companion.fill(strings.undone, { what }), "ok");
  });
  twoTaps(document.getElementById("end-game"), () => Companion.command("end_game"));
  // The same game again, with the same options and seats: every phone keeps its link.
  twoTaps(document.getElementById("play-again"), () => Companion.command("new_game", { again: true }));
  twoTaps(document.getElementById("start-game"), async () => {
    const form = document.getElementById("new-game");
    if (!form.reportValidity()) return;
    await Companion.command("new_game", { game: document.getElementById("game-choice").value,
                                          options: await readOptions(), data: await readData() });
  });
  document.getElementById("seat-link-copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(document.getElementById("seat-link-url").href); Companion.show(Companion.t("copied"), "ok"); }
    catch (e) { /* no clipboard over plain http: the link is on screen */ }
  });
  start();
})();
