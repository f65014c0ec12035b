// The table's entry point, joined last: ``render`` keeps the table's state, lays its areas out in order and redraws
// them whole whenever Python sends a change.

/** The host's theme is followed once per page: after that the table's Light/Dark choice rules. */
let hostThemeTaken = false;
/** A board link (``?board=12-0``) opens its Card Clear deal once per page, not on every redraw of the table. */
let boardLinkSent = false;

/** @param {{ model: any, el: HTMLElement }} ctx */
function render({ model, el }) {
  watchPage();
  const root = h("div", "cut-table");
  /** @type {Ui} */
  const ui = {
    model,
    el,
    root,
    send: (msg) => model.send(msg),
    draw: () => redrawKeepingFocus(root, paint),
    selected: [],
    selectedHand: [],
    viewOpen: false,
    historyOpen: false,
    view: keptView(),
  };
  const { send, draw } = ui;
  root.tabIndex = 0;
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "card table");
  el.appendChild(root);

  /** Every area in its place, top to bottom. */
  const paint = () => {
    /** @type {Table} */
    const t = model.get("table") || {};
    root.className = "cut-table cut-" + themeOf(t) + (t.review ? " cut-review" : "") + (t.mode === "study" ? " cut-study" : "");
    root.setAttribute("aria-label", t.mode === "study" ? "the position" : "card table");
    root.replaceChildren();
    applyView(ui, t);
    root.appendChild(titleBar(ui, t));
    if (ui.viewOpen) root.appendChild(viewPanel(ui));
    const wanted = model.get("table_layout") || "auto";
    const fits = t.view ? tableFits(root, t.view.players - 1) : true;
    const arc = wanted === "table" || (wanted === "auto" && fits);
    if (t.view) root.appendChild(playBar(ui, t, wanted, arc ? "table" : "stacked"));
    const error = model.get("error");
    if (error) {
      const box = h("div", "cut-error", error);
      box.setAttribute("role", "alert");
      root.appendChild(box);
    }
    if (!t.view) return;
    const v = t.view;
    const band = opponents(t, v);
    band.classList.add(arc ? "cut-arc" : "cut-stacked");
    if (!arc) {  // the stacked list scrolls: a keyboard reaches it too
      band.tabIndex = 0;
      band.setAttribute("role", "region");
      band.setAttribute("aria-label", "opponents");
    }
    root.dataset.layout = arc ? "table" : "stacked";
    if (arc) {
      const seats = [...band.children];
      seats.forEach((box, i) => {
        const angle = (Math.PI * (i + 0.5)) / seats.length;
        /** @type {HTMLElement} */ (box).style.setProperty("--lift", (Math.sin(angle) * 28).toFixed(1) + "px");
      });
    }
    if (wanted === "table" && !fits) {
      const note = h("div", "cut-layout-note", "The table view does not fit this width. ");
      const swap = h("button", "cut-to-stacked", "Switch to Stacked");
      swap.onclick = () => send({ type: "layout", layout: "stacked" });
      note.appendChild(swap);
      root.appendChild(note);
    }
    root.appendChild(band);
    root.appendChild(t.pause ? pausedPile(t) : pile(t, v));
    if (t.hand_over) root.appendChild(handOver(ui, t, t.hand_over));
    root.appendChild(yourArea(ui, t, v));
    root.appendChild(legend(t));
  };

  /** A study table (a past position in the review or the drills) wears the app's theme, which it follows; every
   * other table its own. @param {Table} t */
  const themeOf = (t) => {
    const app = el.closest(".cut-app");
    if (t.mode === "study" && !app) requestAnimationFrame(() => el.closest(".cut-app") && draw()); // not placed yet
    if (t.mode !== "study" || !app) return model.get("theme") || "light";
    if (!followingApp) {
      followingApp = true;
      new MutationObserver(draw).observe(app, { attributes: true, attributeFilter: ["class"] });
    }
    return app.classList.contains("cut-app-dark") ? "dark" : "light";
  };
  let followingApp = false;

  listenToPage(ui);

  model.on("change:table", () => {
    // a play the kernel selected (from the analysis table) picks its cards, the hand's by their places
    const s = (model.get("table") || {}).selected;
    ui.selected = s ? [...s.cards] : [];
    const hand = s ? [...model.get("table").view.hand] : [];
    ui.selectedHand = [];
    for (const ref of ui.selected.filter((r) => r.startsWith("h:"))) {
      const i = hand.findIndex((c, j) => "h:" + c === ref && !ui.selectedHand.includes(j));
      if (i >= 0) ui.selectedHand.push(i);
    }
    draw();
  });
  model.on("change:error", draw);
  model.on("change:table_layout", () => {
    keepLayout(model.get("table_layout") || "auto");  // chosen here, on the setup screen or by Switch to Stacked
    draw();
  });
  // Auto re-resolves whenever the width changes: narrow the window and the table becomes a list.
  let lastFit = null;
  new ResizeObserver(() => {
    const t = model.get("table") || {};
    if (!t.view) return;
    const fit = tableFits(root, t.view.players - 1);
    if (fit !== lastFit) {
      lastFit = fit;
      draw();
    }
  }).observe(root);
  model.on("change:theme", draw);
  draw();
  // A learner the server names is never the page's to choose.
  const id = model.get("learner") ? null : learner(), tab = browserTab();
  send({ type: "ready", ...(id ? { learner: id } : {}), ...(tab ? { tab } : {}) });
  const board = new URLSearchParams(location.search).get("board");
  if (board && !boardLinkSent) {
    boardLinkSent = true;
    send({ type: "board", code: board });
  }
  const kept = keptLayout();
  if (kept && kept !== (model.get("table_layout") || "auto")) send({ type: "layout", layout: kept });
  if (!hostThemeTaken) {
    hostThemeTaken = true;
    if (hostIsDark() && model.get("theme") !== "dark") send({ type: "theme", theme: "dark" });
  }
}

export default { render };
