// The bars at the top of the table: the Title Bar (title, Turn Status, the tools) and the Play Bar (latest action,
// History, the layout in use).

/** The Title Bar: title, the Guide and Scores links, View settings, theme and New game, each once.
 * @param {Ui} ui @param {Table} t */
function titleBar(ui, t) {
  const { model, send } = ui;
  const bar = h("div", "cut-title");
  const c4 = t.view && isClear4(t.view);
  bar.appendChild(h("span", "cut-name", c4 ? "Clear 4" : "Clear, Under or Take"));
  // a study's title is its own: the app's Turn Status stays the one ``.cut-status`` on the page
  const status = h("span", t.mode === "study" ? "cut-study-status" : "cut-status", t.status || "");
  status.setAttribute("aria-live", "polite");
  bar.appendChild(status);
  if (t.mode === "study") return bar; // a past position: the main table's tools are the main table's
  const tools = h("span", "cut-tools");
  const links = t.links || {};
  if (links.guide) tools.appendChild(guideLink("cut-guide-link", "Guide", links.guide));
  const scores = h("button", "cut-scores-link", "Scores");
  scores.onclick = () => openScores(ui.el);
  tools.appendChild(scores);
  const sizes = h("button", "cut-view-settings", "View settings");
  sizes.setAttribute("aria-expanded", String(ui.viewOpen));
  sizes.onclick = () => {
    ui.viewOpen = !ui.viewOpen;
    ui.draw();
  };
  tools.appendChild(sizes);
  const theme = h("button", "cut-theme", model.get("theme") === "dark" ? "☀ Light" : "☾ Dark");
  theme.onclick = () => send({ type: "theme", theme: model.get("theme") === "dark" ? "light" : "dark" });
  tools.appendChild(theme);
  if (t.view) {
    const fresh = h("button", "cut-new-game", "New game");
    fresh.onclick = () => send({ type: "new_game" });
    tools.appendChild(fresh);
  }
  bar.appendChild(tools);
  return bar;
}

/** The Play Bar: one fixed-height line with the latest action, the hand's history to open (the first hand's
 * cut for dealer at its head), and the layout in use, which Auto picks and re-picks as the width changes.
 * @param {Ui} ui @param {Table} t @param {string} wanted the View chosen @param {string} used the layout drawn */
function playBar(ui, t, wanted, used) {
  const bar = h("div", "cut-playbar");
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "Play Bar");
  const history = t.history || [];
  const latest = h("span", "cut-last", t.last || history[0] || "");
  latest.setAttribute("aria-live", "polite");
  bar.appendChild(latest);
  if (history.length) {
    const more = h("details", "cut-history");
    more.open = ui.historyOpen;
    more.ontoggle = () => {
      ui.historyOpen = more.open;
    };
    more.appendChild(h("summary", "", "History"));
    const list = h("ol", "cut-history-list");
    for (const line of history) list.appendChild(h("li", "", line));
    more.appendChild(list);
    bar.appendChild(more);
  }
  if (t.mode === "study") return bar; // a past position: no View to choose
  const shown = h("span", "cut-layout-name");
  if (wanted === "auto") shown.appendChild(h("span", "cut-layout-auto", layoutName("auto") + " · "));
  shown.appendChild(document.createTextNode(layoutName(used)));
  shown.title = "Layout in use: " + layoutName(used) + " (View settings change it)";
  bar.appendChild(shown);
  return bar;
}

/** A link into the player's guide, opened beside the game. @param {string} cls @param {string} text
 * @param {string} path */
function guideLink(cls, text, path) {
  const a = /** @type {HTMLAnchorElement} */ (h("a", cls, text));
  a.setAttribute("data-base-relative", path);
  a.href = baseUrl() + path;
  a.target = GUIDE_WINDOW;
  return a;
}

/** The Scores link opens the app's Scores panel and brings it into view. @param {HTMLElement} el */
function openScores(el) {
  const app = el.closest(".cut-app") || document;
  const panels = [...app.querySelectorAll(".widget-accordion, .jupyter-widget-Accordion, .lm-Accordion")];
  const panel = /** @type {HTMLElement|undefined} */ (panels.find((p) => (p.textContent || "").includes("Scores")));
  if (!panel) return;
  const head = /** @type {HTMLElement|null} */ (panel.querySelector(".lm-AccordionPanel-title, .p-Collapse-header, .jupyter-widget-Collapse-header"));
  const open = panel.querySelector(".lm-mod-expanded, .p-Collapse-open, .jupyter-widget-Collapse-open");
  if (head && !open) head.click();
  panel.scrollIntoView({ block: "start" });
}
