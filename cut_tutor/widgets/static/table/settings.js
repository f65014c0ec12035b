// View settings: the View (how opponents are drawn) and the sizes, kept in this browser; their panel; how they apply.

/** View settings: one control, one thing (sizes in pixels); kept in the browser, not in the game. */
const VIEW_KEY = "cut_tutor.view";
const VIEW_CONTROLS = [
  ["opponent", "Card size"],
  ["pile", "Pile"],
  ["yours", "Your cards"],
  ["text", "Text"],
  ["setup", "Setup window"],
  ["width", "Play window"],
];
/** The two window widths: unset is auto, the app taking the whole screen (the other controls size cards and text). */
const WINDOWS = ["setup", "width"];
/** @type {Record<string, number>} */
const VIEW_DEFAULTS = { opponent: 12, pile: 14, yours: 14, text: 14 };
/** The View (how opponents are drawn) is a View setting too, kept in the browser beside the sizes. */
const LAYOUT_KEY = "cut_tutor.layout";
const LAYOUTS = [
  ["auto", "Auto"],
  ["table", "Table"],
  ["stacked", "Stacked"],
];

/** A View's name as the learner reads it. @param {string} key */
function layoutName(key) {
  return (LAYOUTS.find(([k]) => k === key) || [key, key])[1];
}

/** The View this browser keeps, if any. @returns {string|null} */
function keptLayout() {
  try {
    const kept = localStorage.getItem(LAYOUT_KEY);
    return LAYOUTS.some(([key]) => key === kept) ? kept : null;
  } catch (_) {
    return null;
  }
}

/** Keep the View in this browser (or forget it: back to Auto). @param {string} layout */
function keepLayout(layout) {
  try {
    if (layout === "auto") localStorage.removeItem(LAYOUT_KEY);
    else localStorage.setItem(LAYOUT_KEY, layout);
  } catch (_) {
    // storage may be off (private windows): the View still applies until the page closes
  }
}

/** The sizes this browser keeps. @returns {Record<string, number>} */
function keptView() {
  try {
    return JSON.parse(localStorage.getItem(VIEW_KEY) || "{}") || {};
  } catch (_) {
    return {};
  }
}

/** Keep the sizes in this browser. @param {Record<string, number>} view */
function saveView(view) {
  try {
    localStorage.setItem(VIEW_KEY, JSON.stringify(view));
  } catch (_) {
    // storage may be off (private windows): the settings still apply until the page closes
  }
}

/** View settings: the View, and each control sizing one thing; each applies at once and is kept in this
 * browser. @param {Ui} ui */
function viewPanel(ui) {
  const { model, send } = ui;
  const panel = h("div", "cut-view-panel");
  const layouts = h("div", "cut-view-layout");
  layouts.setAttribute("role", "group");
  layouts.setAttribute("aria-label", "View");
  layouts.appendChild(h("span", "", "View "));
  const wanted = model.get("table_layout") || "auto";
  for (const [key, label] of LAYOUTS) {
    const b = h("button", "cut-view-layout-pick" + (key === wanted ? " cut-on" : ""), label);
    b.dataset.key = "layout:" + key;
    b.setAttribute("aria-pressed", String(key === wanted));
    b.onclick = () => send({ type: "layout", layout: key });
    layouts.appendChild(b);
  }
  panel.appendChild(layouts);
  for (const [key, label] of VIEW_CONTROLS) {
    const field = h("label", "cut-view-field", label + " ");
    const input = /** @type {HTMLInputElement} */ (h("input"));
    input.type = "number";
    input.name = key;
    const wide = WINDOWS.includes(key);
    input.min = wide ? "320" : "8";
    input.max = wide ? "4000" : "64";
    input.placeholder = wide ? "auto" : String(VIEW_DEFAULTS[key]);
    input.value = ui.view[key] === undefined ? "" : String(ui.view[key]);
    input.onchange = () => {
      const value = Number(input.value);
      if (input.value === "" || !Number.isFinite(value)) delete ui.view[key];
      else ui.view[key] = Math.min(Number(input.max), Math.max(Number(input.min), value));
      saveView(ui.view);
      ui.draw();
    };
    field.appendChild(input);
    field.appendChild(document.createTextNode(" px"));
    panel.appendChild(field);
  }
  const reset = h("button", "cut-view-reset", "Back to defaults");
  reset.onclick = () => {
    ui.view = {};
    saveView(ui.view);
    send({ type: "layout", layout: "auto" });
    ui.draw();
  };
  panel.appendChild(reset);
  return panel;
}

/** Apply the sizes to the table, and the window width to the whole app (the coach beside the table, the setup
 * form): the setup screen's width while no game is on the table, the play window's during one.
 * @param {Ui} ui @param {Table} t */
function applyView(ui, t) {
  const { el, root, view } = ui;
  for (const [key] of VIEW_CONTROLS) {
    if (WINDOWS.includes(key)) continue;
    const css = "--view-" + key;
    if (view[key] === undefined) root.style.removeProperty(css);
    else root.style.setProperty(css, view[key] + "px");
  }
  if (t.mode === "replay" || t.mode === "study") return; // a table inside the app leaves its width to the main one
  const frame = /** @type {HTMLElement} */ (el.closest(".cut-app") || root);
  const width = view[t.view ? "width" : "setup"];
  frame.style.maxWidth = width === undefined ? "" : "min(100%, " + width + "px)";
}
