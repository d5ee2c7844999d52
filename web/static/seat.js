/* A seat's private page: its private view, live over its own stream. */
"use strict";

(() => {
  const token = JSON.parse(document.getElementById("seat").textContent).token;
  const target = document.getElementById("private-view");

  function render(payload) {
    const view = payload.private || {};
    if (Object.keys(view).length) Companion.renderView(target, view);
    else target.replaceChildren(Companion.el("p", { class: "hint", text: Companion.t("nothing_private") }));
    document.body.dataset.version = String(payload.version);
  }

  render(JSON.parse(document.getElementById("snapshot").textContent));
  Companion.live(`/api/seat/${encodeURIComponent(token)}/events`, render);
})();
