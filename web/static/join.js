/* The join page: take a free seat with the table's code and a name, or become the host. */
"use strict";

(() => {
  const form = document.getElementById("join-form");
  const picker = document.getElementById("seat-picker");
  let chosen = null;

  let shown = [];

  // A seat in the table's words: its place (the game's name for it, else "Seat n"), its colour, and
  // who holds it; the labels come translated in the seats' payload.
  function seatButton(s) {
    const taken = Boolean(s.name);
    const label = taken ? `${s.name} (${Companion.t("taken")})` : s.label;
    const button = Companion.el("button", {
      type: "button", class: "seat-choice", "data-seat": String(s.seat), "data-taken": String(taken),
      style: `--seat: ${s.ink}`, "aria-pressed": String(chosen === s.seat),
    }, [Companion.el("span", { class: "swatch", "aria-hidden": "true" }),
        Companion.el("span", { text: Companion.marked(s, `${s.place} · ${label}`) })]);
    if (taken) button.disabled = true;
    if (!s.in_game) button.append(Companion.el("small", { text: ` (${Companion.t("not_playing")})` }));
    button.addEventListener("click", () => { chosen = s.seat; render(shown); });
    return Companion.el("li", {}, [button]);
  }

  // The list follows the table live: a seat another phone takes is greyed out at once, and the choice
  // moves to a free one.
  function render(seats) {
    shown = seats || [];
    if (!shown.length) return;
    if (chosen === null || shown[chosen].name) {
      const free = shown.find((s) => s.in_game && !s.name) || shown.find((s) => !s.name);
      chosen = free ? free.seat : null;
    }
    picker.replaceChildren(...shown.map(seatButton));
  }

  async function load() {
    // With this browser's host token, if any: a dead one (a long press on D) is dropped on the way.
    const answer = await Companion.fetchPart("/api/seats", Companion.hostHeaders());
    if (!answer.ok) return;
    render(answer.data.seats);
    document.getElementById("become-host").hidden = answer.data.host_claimed || Boolean(Companion.hostToken());
  }

  async function returnLink() {
    const token = Companion.seatToken();
    if (!token) return;
    const answer = await Companion.fetchPart(`/api/seat/${encodeURIComponent(token)}`);
    if (answer.ok) {
      document.getElementById("return-link").href = `/seat/${encodeURIComponent(token)}`;
      document.getElementById("return").hidden = false;
    } else {
      Companion.forgetSeat();  // freed or re-issued by the host
    }
  }

  // The scanned QR code's key stands for the code, and never waits on wrong codes others typed; a code
  // typed over the link's is sent alone.
  const linked = { code: form.code.value.trim(), key: form.code.dataset.key || "" };
  function code() {
    const typed = form.code.value.trim();
    return typed.toUpperCase() === linked.code.toUpperCase() && linked.key ? { code: typed, key: linked.key } : { code: typed };
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = Object.assign(code(), { seat: chosen ?? 0, name: form.name.value });
    const answer = await Companion.request("POST", "/api/join", body);
    if (answer.ok) {
      Companion.keepSeat(answer.data.token);
      window.location.assign(answer.data.link);
    } else {
      load();
    }
  });

  document.getElementById("claim-host").addEventListener("click", async () => {
    const answer = await Companion.request("POST", "/api/host/claim", code());
    if (answer.ok) {
      Companion.keepHost(answer.data.token);
      window.location.assign("/host");
    }
  });

  load();
  returnLink();
  Companion.live("/api/events", (payload) => render(payload.seats));
})();
