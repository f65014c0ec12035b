// The keys and clicks the table hears from the whole page: Esc, the replayer's arrows, a row of the analysis table.

/** Listen to the page for this table, until the table leaves it. @param {Ui} ui */
function listenToPage(ui) {
  const { model, el, root, send } = ui;

  /** Esc and the replayer's arrow keys work wherever focus is in the app (or on the page itself), not only on
   * the table; a field keeps its own keys. @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (!el.isConnected) {
      document.removeEventListener("keydown", onKey);
      return;
    }
    const target = /** @type {HTMLElement} */ (e.target);
    const app = el.closest(".cut-app") || root;
    if (target !== document.body && !app.contains(target)) return;
    if (target.closest("input, select, textarea, .widget-slider")) return;
    const t = model.get("table") || {};
    if (e.key === "Escape") {
      ui.selected = [];
      ui.selectedHand = [];
      // sent whatever this page last drew: Automate pressed a moment ago may not have reached it yet
      if (t.mode === "play" && t.view) send({ type: "automate", on: false });
      ui.draw();
    } else if (t.mode === "replay" && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) {
      e.preventDefault();
      send({ type: "key", key: e.key });
    }
  };
  document.addEventListener("keydown", onKey);

  /** A click on a row of the analysis table (drawn beside the table) selects that play here. @param {MouseEvent} e */
  const onPick = (e) => {
    if (!el.isConnected) return document.removeEventListener("click", onPick);
    const row = /** @type {HTMLElement} */ (e.target).closest(".cut-mt tr[data-move]");
    const app = el.closest(".cut-app");
    const t = model.get("table") || {};
    if (row && app && app.contains(row) && t.mode === "play") send({ type: "select", move: row.dataset.move });
  };
  document.addEventListener("click", onPick);
}
