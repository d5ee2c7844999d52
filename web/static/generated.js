/* The pages of a game that ships none: its views as labelled lists, its legal commands as forms.

The page carries the game's shapes (companion/outputs/webapp/schemas.py), every label already in the reader's
language; this script only lays them out. It registers the renderers a game's own scripts would. */
"use strict";

Companion.generated = (() => {
  const { el, t } = Companion;
  const source = document.getElementById("generated");
  const described = source ? JSON.parse(source.textContent) : null;
  const FEW = 6;  // at most this many values: a row of buttons; more: a stepper or a list
  const SCALARS = ["seat", "boolean", "choice", "integer", "number", "string"];
  let seats = [];  // the latest payload's seats: their names and who plays

  const text = (value) => document.createTextNode(value);

  function seatName(seat) {
    const found = seats.find((s) => s.seat === seat);
    return found ? Companion.seatName(found) : t("seat_n", { n: seat + 1 });
  }

  // --- views: each value as its shape says -----------------------------------------------------------
  // A value the schema says nothing about (an `any`) is shown by what it is.
  function guessed(value) {
    if (Array.isArray(value)) return { kind: "array", items: { kind: "any" } };
    if (value && typeof value === "object") return { kind: "map", values: { kind: "any" } };
    return { kind: "string" };
  }

  // The label and value of each entry of an object (or a dict, by its keys) as a definition list; each
  // value says its field's key, for a game's style sheet.
  function pairs(entries, list) {
    const target = list || el("dl", { class: "view" });
    target.replaceChildren();
    for (const [label, value, key] of entries) {
      target.append(el("dt", { text: label }), el("dd", key === undefined ? {} : { "data-key": key }, [value]));
    }
    return target;
  }

  function entries(shape, value) {
    if (shape.kind === "object") return shape.fields.map((f) => [f.label, shown(f.shape, value[f.key]), f.key]);
    return Object.entries(value).map(([key, item]) => [key, shown(shape.values || { kind: "any" }, item), key]);
  }

  function shown(given, value) {
    if (value === null || value === undefined) return text("—");
    const shape = given.kind === "any" ? guessed(value) : given;
    switch (shape.kind) {
      case "seat": return text(Number.isInteger(value) ? seatName(value) : String(value));
      case "boolean": return text(t(value ? "yes" : "no"));
      case "choice": {
        const option = shape.options.find((o) => o.value === value);
        return text(option ? option.label : String(value));
      }
      case "object":
      case "map":
        return typeof value === "object" ? pairs(entries(shape, value)) : text(String(value));
      case "array": {
        if (!Array.isArray(value)) return text(String(value));
        if (!value.length) return text("—");
        if (shape.per_seat) return pairs(value.map((item, seat) => [seatName(seat), shown(shape.items, item)]));
        if (SCALARS.includes(shape.items.kind)) {
          return text(value.map((item) => shown(shape.items, item).textContent).join(", "));
        }
        return el("ul", {}, value.map((item) => el("li", {}, [shown(shape.items, item)])));
      }
      default: return text(String(value));
    }
  }

  function renderView(target, shape, view) {
    if (shape && view && typeof view === "object") pairs(entries(shape, view), target);
    else target.replaceChildren();
  }

  // --- forms: one control per field ------------------------------------------------------------------
  // A control is { node, read(), reset(), update() }: read() gives the value, or undefined when left
  // empty, or throws Unfit with what to fix; update() follows the seats (a seat field offers the seats in
  // play). The page checks what it can, so a player is told in words, not by a refusal naming a key.
  class Unfit extends Error {}

  function bounds(label, shape) {
    if (shape.min !== undefined && shape.max !== undefined) {
      return t("between", { field: label, min: shape.min, max: shape.max });
    }
    if (shape.min !== undefined) return t("at_least", { field: label, min: shape.min });
    if (shape.max !== undefined) return t("at_most", { field: label, max: shape.max });
    return t("whole_number", { field: label });
  }

  function choices(id, label, options, initial, multiple) {
    const row = el("div", { class: "choices", id, role: "group", "aria-label": label });
    let list = [];
    let picked = [];
    const mark = () => {
      for (const button of row.children) {
        button.setAttribute("aria-pressed", String(picked.includes(list[Number(button.dataset.index)].value)));
      }
    };
    const draw = () => {
      list = options();
      row.replaceChildren(...list.map((option, index) => {
        const button = el("button", { type: "button", "data-index": String(index), text: option.label });
        button.addEventListener("click", () => {
          const value = list[index].value;
          if (!multiple) picked = [value];
          else picked = picked.includes(value) ? picked.filter((v) => v !== value) : [...picked, value];
          mark();
        });
        return button;
      }));
      mark();
    };
    const reset = () => { picked = initial === undefined ? [] : multiple ? [...initial] : [initial]; mark(); };
    draw();
    reset();
    return {
      node: row, labelled: false, reset, update: draw,
      read: () => multiple ? list.map((o) => o.value).filter((v) => picked.includes(v))
        : picked.length ? picked[0] : undefined,
    };
  }

  function select(id, options, initial) {
    const list = options();
    const input = el("select", { id }, [el("option", { value: "", text: "—" }),
      ...list.map((option, index) => el("option", { value: String(index), text: option.label }))]);
    const reset = () => {
      const index = list.findIndex((o) => o.value === initial);
      input.value = index < 0 ? "" : String(index);
    };
    reset();
    return { node: input, labelled: true, reset, update() {},
             read: () => input.value === "" ? undefined : list[Number(input.value)].value };
  }

  function stepper(id, label, shape, initial) {
    const input = el("input", { id, type: "number", inputmode: "numeric", step: "1" });
    if (shape.min !== undefined) input.min = String(shape.min);
    if (shape.max !== undefined) input.max = String(shape.max);
    const nudge = (by) => {
      let value = input.value === "" ? (by > 0 ? shape.min : shape.max) ?? 0 : Number(input.value) + by;
      if (shape.min !== undefined) value = Math.max(shape.min, value);
      if (shape.max !== undefined) value = Math.min(shape.max, value);
      input.value = String(value);
    };
    const less = el("button", { type: "button", class: "step", "aria-label": t("one_less"), text: "−" });
    const more = el("button", { type: "button", class: "step", "aria-label": t("one_more"), text: "+" });
    less.addEventListener("click", () => nudge(-1));
    more.addEventListener("click", () => nudge(1));
    const reset = () => { input.value = initial === undefined || initial === null ? "" : String(initial); };
    reset();
    const read = () => {
      if (input.value === "") return undefined;
      const value = Number(input.value);
      const fits = Number.isInteger(value) && value >= (shape.min ?? value) && value <= (shape.max ?? value);
      if (!fits) throw new Unfit(bounds(label, shape));
      return value;
    };
    return { node: el("div", { class: "stepper" }, [less, input, more]), labelled: true, reset, update() {}, read };
  }

  function entry(id, shape, initial) {
    const input = el("input", { id, type: shape.kind === "number" ? "number" : "text" });
    if (shape.kind === "number") input.step = "any";
    if (shape.max_length !== undefined) input.maxLength = shape.max_length;
    const reset = () => {
      const value = initial === undefined || initial === null ? "" : initial;
      input.value = typeof value === "string" ? value : JSON.stringify(value);
    };
    reset();
    // A string is sent as typed; a number as a number; anything else is read as JSON where it parses.
    const read = () => {
      if (input.value === "" && (shape.kind !== "string" || shape.min_length)) return undefined;
      if (shape.kind === "string") return input.value;
      if (shape.kind === "number") return Number(input.value);
      try { return JSON.parse(input.value); } catch (e) { return input.value; }
    };
    return { node: input, labelled: true, reset, update() {}, read };
  }

  function checkbox(id, label, initial) {
    const input = el("input", { id, type: "checkbox" });
    const reset = () => { input.checked = Boolean(initial); };
    reset();
    return { node: el("div", { class: "check" }, [input, el("label", { for: id, text: label })]), labelled: false,
             own: true, reset, update() {}, read: () => input.checked };
  }

  // The values a field may take, when they are few enough to show all (a seat's are the seats in play).
  function values(shape) {
    if (shape.kind === "seat") {
      return () => seats.filter((s) => s.playing).map((s) => ({ value: s.seat, label: Companion.seatName(s) }));
    }
    if (shape.kind === "choice") return () => shape.options;
    if (shape.kind === "integer" && shape.min !== undefined && shape.max !== undefined && shape.max - shape.min < FEW) {
      const list = [];
      for (let n = shape.min; n <= shape.max; n++) list.push({ value: n, label: String(n) });
      return () => list;
    }
    return null;
  }

  function control(id, label, shape) {
    const initial = shape.default;
    if (shape.kind === "boolean") return checkbox(id, label, initial);
    if (shape.kind === "object") {
      const inner = group(id, shape.fields);
      return Object.assign(inner, { node: el("fieldset", {}, [el("legend", { text: label }), ...inner.nodes]), own: true });
    }
    const few = values(shape);
    if (few && (shape.kind === "seat" || few().length <= FEW)) return choices(id, label, few, initial, false);
    if (few) return select(id, few, initial);
    const items = shape.kind === "array" && values(shape.items);
    if (items) return choices(id, label, items, initial || [], true);
    if (shape.kind === "integer") return stepper(id, label, shape, initial);
    return entry(id, shape, initial);
  }

  function field(prefix, f) {
    const id = `${prefix}-${f.key}`;
    const made = control(id, f.label, f.shape);
    const parts = made.own ? [made.node] : [
      made.labelled ? el("label", { for: id, text: f.label }) : el("span", { class: "label", text: f.label }),
      made.node];
    if (f.hint) parts.push(el("p", { class: "hint", text: f.hint }));
    return Object.assign({}, made, {
      node: el("div", { class: "field" }, parts),
      read() {
        const value = made.read();
        if (value !== undefined) return value;
        if (f.required && f.shape.nullable) return null;
        if (f.required && f.shape.default === undefined) throw new Unfit(t("choose_first", { field: f.label }));
        return undefined;
      },
    });
  }

  // An object's fields, each read into its key (a field left empty and not required is left out).
  function group(prefix, fields) {
    const made = fields.map((f) => field(prefix, f));
    const read = () => {
      const out = {};
      fields.forEach((f, index) => {
        const value = made[index].read();
        if (value !== undefined) out[f.key] = value;
      });
      return out;
    };
    return { nodes: made.map((m) => m.node), read, reset: () => made.forEach((m) => m.reset()),
             update: () => made.forEach((m) => m.update()) };
  }

  function commandForm(command) {
    const prefix = `command-${command.kind}`;
    const fields = group(prefix, command.form.kind === "object" ? command.form.fields : []);
    const send = el("button", { type: "submit", class: "primary send", text: command.label });
    // The page checks the fields itself (novalidate), to say what is wrong in the reader's language.
    // Send sits in a move bar (companion.css): in view while the rules wait on this seat, however long the form.
    const form = el("form", { class: "command", id: prefix, "data-kind": command.kind, novalidate: "" },
                    [...fields.nodes, el("div", { class: "move-bar" }, [send])]);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      let args;
      try {
        args = fields.read();
      } catch (unfit) {
        if (!(unfit instanceof Unfit)) throw unfit;
        Companion.show(unfit.message);
        return;
      }
      send.disabled = true;
      const answer = await Companion.command(command.kind, args);
      send.disabled = false;
      if (answer.ok) fields.reset();
    });
    return { node: form, update: fields.update };
  }

  // --- the renderers ---------------------------------------------------------------------------------
  const forms = new Map();

  const seat = {
    init() {
      const box = document.getElementById("command-forms");
      for (const command of (described && described.commands) || []) {
        const made = commandForm(command);
        forms.set(command.kind, made);
        box.append(made.node);
      }
    },
    render(root, payload) {
      seats = payload.seats || [];
      const legal = new Set(payload.legal || []);
      for (const [kind, made] of forms) {
        made.node.hidden = !legal.has(kind);
        made.update();
      }
      document.getElementById("nothing-to-do").hidden = !payload.title || payload.over || legal.size > 0;
      const mine = document.getElementById("private-view");
      const view = payload.private || {};
      if (Object.keys(view).length) renderView(mine, described && described.private, view);
      else mine.replaceChildren(el("p", { class: "hint", text: t("nothing_private") }));
      renderView(document.getElementById("public-view"), described && described.public, payload.public);
    },
  };

  const scoreboard = {
    render(root, view, payload) {
      seats = payload.seats || [];
      renderView(document.getElementById("public-view"), described && described.public, view);
    },
  };

  return { seat, scoreboard };
})();
