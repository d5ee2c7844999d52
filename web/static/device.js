/* The device twin: the e-ink frame, the LED dice and status LED, and its buttons (simulator only). */
"use strict";

(() => {
  const POLL_MS = 500;
  const HOLD_MS = 800;
  // The four LED groups of a die: centre, one diagonal pair, the other, the middle pair (3x3 spots).
  const SPOTS = [0, 2, 3, 4, 5, 6, 8];
  const frame = document.getElementById("frame");
  const noFrame = document.getElementById("no-frame");
  const diceBox = document.getElementById("led-dice");
  let frameVersion = null;
  let state = JSON.parse(document.getElementById("device-state").textContent);
  let frameUrl = null;
  let loading = null;  // the frame version being fetched

  // The frame holds the join code, so it comes with the host's token like every device answer.
  // A frame that did not come is asked again at the next poll.
  async function loadFrame(version) {
    try {
      const response = await fetch(`/api/device/frame.png?v=${version}`, { headers: Companion.hostHeaders() });
      if (response.ok) {
        const image = await response.blob();
        if (frameUrl) URL.revokeObjectURL(frameUrl);
        frameUrl = URL.createObjectURL(image);
        frame.src = frameUrl;
      }
      frameVersion = version;  // the table answered: only a newer frame is asked for now
    } catch (e) { /* the table did not answer: the Live badge says so */ }
  }

  function ledDie(value) {
    const lit = Companion.PIPS[value] || [];
    const face = Companion.el("span", { class: "led-die", role: "img", "data-value": String(value || 0),
                                        "aria-label": value ? Companion.t("die", { n: value }) : Companion.t("led_off") });
    for (let i = 0; i < 9; i++) {
      face.append(Companion.el("span", SPOTS.includes(i) ? { class: "led", "data-on": String(lit.includes(i)) } : { class: "gap" }));
    }
    return face;
  }

  function render(device) {
    state = device;
    diceBox.replaceChildren(...device.dice.map(ledDie));
    diceBox.dataset.faces = device.dice.map((v) => v || 0).join(",");
    const status = document.getElementById("status-led");
    status.dataset.on = String(device.status);
    status.setAttribute("aria-label", device.status ? Companion.t("led_on") : Companion.t("led_off"));
    for (const button of document.querySelectorAll("button.hw")) {
      button.disabled = !device.simulated || !device.buttons.includes(button.dataset.button);
    }
    document.getElementById("hint-sim").hidden = !device.simulated;
    document.getElementById("hint-real").hidden = device.simulated || !device.board;
    document.getElementById("hint-none").hidden = device.board;
    if (device.frame && device.frame_version !== frameVersion && device.frame_version !== loading) {
      loading = device.frame_version;
      loadFrame(loading).finally(() => { loading = null; });
    }
    frame.hidden = !device.frame;
    noFrame.hidden = device.frame;
    document.body.dataset.frameVersion = String(device.frame_version);
    const fault = document.getElementById("panel-fault");  // the panel stopped answering
    fault.textContent = (device.panel && device.panel.message) || "";
    fault.hidden = !(device.panel && device.panel.fault);
  }

  async function poll() {
    const answer = await Companion.request("GET", "/api/device", undefined, Companion.hostHeaders());
    if (answer.status === 403) {
      document.getElementById("twin").hidden = true;
      document.getElementById("not-yours").hidden = false;
      return;  // not this phone's to see: stop asking
    }
    document.getElementById("twin").hidden = false;
    document.getElementById("not-yours").hidden = true;
    if (answer.ok) { Companion.setLive("live"); render(answer.data); } else Companion.setLive("lost");
    setTimeout(poll, POLL_MS);
  }

  // A press shorter than HOLD_MS is a click; a longer one is a hold, as on the device.
  for (const button of document.querySelectorAll("button.hw")) {
    let downAt = 0;
    button.addEventListener("pointerdown", () => { downAt = performance.now(); });
    button.addEventListener("click", async () => {
      const hold = downAt > 0 && performance.now() - downAt >= HOLD_MS;
      downAt = 0;
      const answer = await Companion.request("POST", "/api/device/press", { button: button.dataset.button, hold }, Companion.hostHeaders());
      if (answer.ok) render(answer.data);
    });
  }

  frame.addEventListener("error", () => { frame.hidden = true; noFrame.hidden = false; });
  if (state) render(state);
  poll();
})();
