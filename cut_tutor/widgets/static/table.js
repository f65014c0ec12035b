// The CUT table: draws the JSON view Python sends and sends back intents. No game logic lives here:
// every intent is checked in Python, which answers with a new view or an error. The game's words (card
// faces, counts, the legend) come from Python too, in ``table.words``.
// ``h`` and ``hostIsDark`` come from ``host.js``, which Python puts ahead of this file (``cut_tutor.page``).

/**
 * @typedef {{card: string, by: number, as?: string|null}} PileCard
 * @typedef {{move: string, label: string, cards: string[], to?: number, stack?: number, then?: string}} Action
 * @typedef {{seat: number, hand_count: number, known: string[], above?: string|null, stacks: (string|null)[][],
 *            cards_left: number, busts: number, hand?: string[], down?: boolean[][]}} SeatView
 * @typedef {{seat: number, players: number, dealer: number, turn: number, phase: string, hand: string[],
 *            seats: SeatView[], pile: PileCard[], pile_points: number,
 *            rules: {clear_rank: string|null, game?: string}, exposed: number[], pile_value?: string|null,
 *            winner: number|null, stalemate: boolean}} View
 * @typedef {{faces: Record<string, string>, left: string[], busts: string[], stacks: string[][], pile: string,
 *            legend: string[][]}} Words
 * @typedef {{mode: string, seat: number, view: View, names: string[], colours: string[],
 *            automated: boolean[], actions: Action[], highlight: Action|null, undo: boolean,
 *            selected?: Action|null, review?: boolean,
 *            pile_counts: boolean, status: string, last: string, step: string, dim?: boolean,
 *            legend?: Record<string, string>, words: Words, pause?: Pause|null, hand_over?: HandOver|null,
 *            history?: string[], links?: Record<string, string>, playable?: string[], adding?: Adding|null}} Table
 * @typedef {{kind: string, seat: number, cards: string[], by: number[], text: string}} Pause
 * @typedef {{number: number, card: string, stack?: number, where?: string}} AddCard
 * @typedef {{first: AddCard & {note: string}, groups: {title: string, note: string, cards: AddCard[]}[]}} Adding
 * @typedef {{name: string, colour: string, hand: string[], stacks: {card: string, risk: boolean}[][],
 *            points: number, busts: string, addon: string, score: number, total: number}} SeatResult
 * @typedef {{title: string, seats: SeatResult[], game_over: string, next: string}} HandOver
 */

/** The learner this browser belongs to: an id made once and kept, so each learner's games stay their own. */
const LEARNER_KEY = "cut_tutor.learner";
function learner() {
  try {
    let id = localStorage.getItem(LEARNER_KEY);
    if (!id) {
      id = window.crypto && crypto.randomUUID ? crypto.randomUUID() : Date.now().toString(36) + Math.random().toString(36).slice(2);
      localStorage.setItem(LEARNER_KEY, id);
    }
    return id;
  } catch (_) {
    return null; // no storage (a private window): the tutor home itself holds the games
  }
}

/** This browser tab: an id kept for the tab's life, reloads included, so a reload offers its game back as its own. */
const TAB_KEY = "cut_tutor.tab";
function browserTab() {
  try {
    let id = sessionStorage.getItem(TAB_KEY);
    if (!id) {
      id = Date.now().toString(36) + Math.random().toString(36).slice(2);
      sessionStorage.setItem(TAB_KEY, id);
    }
    return id;
  } catch (_) {
    return null; // no storage: every reload is a tab of its own
  }
}

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

/** One colour per pile number: its badge and the buttons that play its cards share it. */
const STACK_COLOURS = ["#e8590c", "#1c7ed6", "#37b24d", "#ae3ec9", "#f59f00", "#0ca678"];

/** R13: the colour of each numbered card a landed blind card can take along, card 1 (the landed card) first; the
 * piles' cards keep their pile's colour. Light enough for black numbers in either theme. */
const ADD_COLOURS = ["#adb5bd", "#ff8787", "#9775fa", "#3bc9db", "#a9e34b", "#ffa94d", "#f783ac", "#74c0fc"];

/** Black or white, whichever reads better on ``colour`` (``#rrggbb``): a badge's number keeps its contrast.
 * @param {string} colour */
function inkOn(colour) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(colour.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const light = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) ? "#000" : "#fff";
}

/** Width one opponent's seat needs on the table arc, in pixels (the CSS min-width plus the gap). */
const SEAT_WIDTH = 176;

/** A small mark with a spoken name (a count, a dealer's D): its text is what the eye reads, its name what a
 * screen reader says. @param {string} cls @param {string} text @param {string} name */
function badge(cls, text, name) {
  const node = h("span", cls, text);
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", name);
  return node;
}

/** Clear 4's special cards (R22): the style of each (its face comes from Python). */
const SPECIAL = {
  P: "cut-push",
  "J*": "cut-joker",
  CL: "cut-clear4",
};

/** Is this view a game of Clear 4 (R22)? @param {View} view */
function isClear4(view) {
  return view.rules.game === "Clear 4";
}

/** A card name as the table shows it, in this game's words. @param {string} card @param {Table} t */
function faceText(card, t) {
  return t.words.faces[card] || card;
}

/** @param {string[]} a @param {string[]} b */
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/** @param {string|null} card @param {View} view */
function isClear(card, view) {
  if (isClear4(view)) return false; // Clear 4's CLEAR card has its own style
  return card === "JK" || (card !== null && card === view.rules.clear_rank);
}

/**
 * One card face (or back when ``card`` is null).
 * @param {string|null} card @param {Table} t @param {string} [extra]
 */
function cardNode(card, t, extra) {
  const view = t.view;
  const node = h("span", "cut-card" + (extra ? " " + extra : ""));
  // a picture with a name until ``clickable`` makes it a button: a screen reader reads every card
  node.setAttribute("role", "img");
  if (card === null) {
    node.classList.add("cut-back");
    node.setAttribute("aria-label", "face-down card");
  } else {
    const face = faceText(card, t);
    node.textContent = face;
    node.setAttribute("aria-label", face);
    node.dataset.card = card;
    if (isClear(card, view)) node.classList.add("cut-clear");
    if (isClear4(view) && card in SPECIAL) node.classList.add("cut-special", SPECIAL[card]);
  }
  return node;
}

/** The Jupyter server's base URL (``/``; ``/user/<name>/`` on JupyterHub and Binder), from the page's config. */
function baseUrl() {
  const config = document.getElementById("jupyter-config-data");
  try {
    return JSON.parse((config && config.textContent) || "{}").baseUrl || "/";
  } catch (_) {
    return "/";
  }
}

/** The window the guide opens in, beside the game: every guide link reuses it. The game's own window is named
 * too, so the guide's *Back to the game* (guide/docs/js/game.js) finds it again rather than opening another. */
const GUIDE_WINDOW = "cut-tutor-guide";
const GAME_WINDOW = "cut-tutor-game";

/** Links Python marks ``data-base-relative`` (the guide's) point below the base URL, wherever the app is served:
 * standalone Voilà, Voilà or JupyterLab under a JupyterHub or Binder prefix; each opens in the guide's window
 * (the guide is the app's own page, so no ``noopener``: that would open a new window every time).
 * @param {ParentNode} node */
function resolveLinks(node) {
  const base = baseUrl();
  node.querySelectorAll("a[data-base-relative]").forEach((a) => {
    const path = a.getAttribute("data-base-relative") || "";
    if (a.getAttribute("href") !== base + path) a.setAttribute("href", base + path);
    if (a.getAttribute("target") !== GUIDE_WINDOW) a.setAttribute("target", GUIDE_WINDOW);
    if (a.hasAttribute("rel")) a.removeAttribute("rel");
  });
}

/** The host's theme is followed once per page: after that the table's Light/Dark choice rules. */
let hostThemeTaken = false;
/** A board link (``?board=12-0``) opens its Card Clear deal once per page, not on every redraw of the table. */
let boardLinkSent = false;

/** A slider's handle (ipywidgets draws it as a bare ``role=slider``) takes its widget's label as its name.
 * @param {ParentNode} node */
function nameSliders(node) {
  node.querySelectorAll(".cut-app .widget-slider .noUi-handle:not([aria-label])").forEach((handle) => {
    const label = handle.closest(".widget-slider")?.querySelector(".widget-label");
    if (label && label.textContent) handle.setAttribute("aria-label", label.textContent);
  });
}

/** Are the analysis tables' parts rows shown? One choice for the page, kept while the tables redraw. */
let partsOpen = false;

/** Every analysis table shows its parts rows or not, as the page's choice says; its button says which, in the
 * words Python gave it.
 * @param {ParentNode} node */
function showParts(node) {
  node.querySelectorAll(".cut-mt").forEach((box) => {
    box.classList.toggle("cut-mt-open", partsOpen);
    const button = box.querySelector(".cut-mt-toggle");
    if (button && button.getAttribute("aria-expanded") !== String(partsOpen)) {
      button.setAttribute("aria-expanded", String(partsOpen));
      button.textContent = button.getAttribute(partsOpen ? "data-hide" : "data-show") || button.textContent;
    }
  });
}

let watchingPage = false;
/** Resolve the app's links, name its sliders and show the analysis tables' parts as chosen, now and whenever its
 * widgets redraw; the parts button (a plain button in the table Python draws) toggles them. */
function watchPage() {
  if (watchingPage) return;
  watchingPage = true;
  if (!window.name) window.name = GAME_WINDOW;
  const fix = () => {
    resolveLinks(document.body);
    nameSliders(document.body);
    showParts(document.body);
  };
  fix();
  new MutationObserver(fix).observe(document.body, { childList: true, subtree: true });
  document.addEventListener("click", (e) => {
    if (!(/** @type {HTMLElement} */ (e.target).closest(".cut-mt-toggle"))) return;
    partsOpen = !partsOpen;
    showParts(document.body);
  });
}

/** @param {{ model: any, el: HTMLElement }} ctx */
function render({ model, el }) {
  watchPage();
  /** @type {string[]} */
  let selected = [];
  /** @type {number[]} */
  let selectedHand = [];
  const root = h("div", "cut-table");
  let viewOpen = false;
  let historyOpen = false;
  /** @type {Record<string, number>} */
  let view = {};
  try {
    view = JSON.parse(localStorage.getItem(VIEW_KEY) || "{}") || {};
  } catch (_) {
    view = {};
  }
  root.tabIndex = 0;
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "card table");
  el.appendChild(root);

  /** @param {Record<string, unknown>} msg */
  const send = (msg) => model.send(msg);

  /** Draw the table whole; the control that had focus has it again afterwards (found by its key). */
  const draw = () => {
    const active = document.activeElement;
    const key = active && active !== root && root.contains(active) ? keyOf(/** @type {HTMLElement} */ (active)) : null;
    const hadFocus = key !== null || active === root;
    paint();
    if (hadFocus) refocus(key);
  };

  /** A control's key: stable across redraws (a card's place, a button's kind and move). @param {HTMLElement} node */
  const keyOf = (node) => {
    if (node.dataset.key) return node.dataset.key;
    const kind = [...node.classList].find((c) => c.startsWith("cut-")) || node.tagName;
    return kind + (node.dataset.move ? ":" + node.dataset.move : "") + (node.getAttribute("name") || "");
  };

  /** Focus the control with this key, else the nearest card of your hand, else the table itself.
   * @param {string|null} key */
  const refocus = (key) => {
    /** @type {HTMLElement[]} */
    const controls = [...root.querySelectorAll("button, input, [role=button]")];
    const usable = controls.filter((c) => !(/** @type {HTMLButtonElement} */ (c).disabled));
    const same = key === null ? undefined : usable.find((c) => keyOf(c) === key);
    const hand = usable.filter((c) => (c.dataset.key || "").startsWith("card:h"));
    const at = key && key.startsWith("card:h") ? Number(key.slice(6)) : 0;
    const target = same || hand[Math.min(at, hand.length - 1)] || root;
    target.focus({ preventScroll: true });
  };

  const paint = () => {
    /** @type {Table} */
    const t = model.get("table") || {};
    root.className = "cut-table cut-" + themeOf(t) + (t.review ? " cut-review" : "") + (t.mode === "study" ? " cut-study" : "");
    root.setAttribute("aria-label", t.mode === "study" ? "the position" : "card table");
    root.replaceChildren();
    applyView(t);
    root.appendChild(titleBar(t));
    if (viewOpen) root.appendChild(viewPanel());
    const wanted = model.get("table_layout") || "auto";
    const fits = t.view ? tableFits(t.view.players - 1) : true;
    const arc = wanted === "table" || (wanted === "auto" && fits);
    if (t.view) root.appendChild(playBar(t, wanted, arc ? "table" : "stacked"));
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
    if (t.hand_over) root.appendChild(handOver(t, t.hand_over));
    root.appendChild(yourArea(t, v));
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

  /** Can the opponents sit side by side on an arc at this width? @param {number} count */
  const tableFits = (count) => root.clientWidth >= count * SEAT_WIDTH + 24;

  /** The Title Bar: title, the Guide and Scores links, View settings, theme and New game, each once.
   * @param {Table} t */
  const titleBar = (t) => {
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
    scores.onclick = openScores;
    tools.appendChild(scores);
    const sizes = h("button", "cut-view-settings", "View settings");
    sizes.setAttribute("aria-expanded", String(viewOpen));
    sizes.onclick = () => {
      viewOpen = !viewOpen;
      draw();
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
  };

  /** The Play Bar: one fixed-height line with the latest action, the hand's history to open (the first hand's
   * cut for dealer at its head), and the layout in use, which Auto picks and re-picks as the width changes.
   * @param {Table} t @param {string} wanted the View chosen @param {string} used the layout drawn */
  const playBar = (t, wanted, used) => {
    const bar = h("div", "cut-playbar");
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "Play Bar");
    const history = t.history || [];
    const latest = h("span", "cut-last", t.last || history[0] || "");
    latest.setAttribute("aria-live", "polite");
    bar.appendChild(latest);
    if (history.length) {
      const more = h("details", "cut-history");
      more.open = historyOpen;
      more.ontoggle = () => {
        historyOpen = more.open;
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
  };

  /** A link into the player's guide, opened beside the game. @param {string} cls @param {string} text
   * @param {string} path */
  const guideLink = (cls, text, path) => {
    const a = /** @type {HTMLAnchorElement} */ (h("a", cls, text));
    a.setAttribute("data-base-relative", path);
    a.href = baseUrl() + path;
    a.target = GUIDE_WINDOW;
    return a;
  };

  /** The Scores link opens the app's Scores panel and brings it into view. */
  const openScores = () => {
    const app = el.closest(".cut-app") || document;
    const panels = [...app.querySelectorAll(".widget-accordion, .jupyter-widget-Accordion, .lm-Accordion")];
    const panel = /** @type {HTMLElement|undefined} */ (panels.find((p) => (p.textContent || "").includes("Scores")));
    if (!panel) return;
    const head = /** @type {HTMLElement|null} */ (panel.querySelector(".lm-AccordionPanel-title, .p-Collapse-header, .jupyter-widget-Collapse-header"));
    const open = panel.querySelector(".lm-mod-expanded, .p-Collapse-open, .jupyter-widget-Collapse-open");
    if (head && !open) head.click();
    panel.scrollIntoView({ block: "start" });
  };

  /** View settings: the View, and each control sizing one thing; each applies at once and is kept in this
   * browser. */
  const viewPanel = () => {
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
      input.value = view[key] === undefined ? "" : String(view[key]);
      input.onchange = () => {
        const value = Number(input.value);
        if (input.value === "" || !Number.isFinite(value)) delete view[key];
        else view[key] = Math.min(Number(input.max), Math.max(Number(input.min), value));
        saveView();
        draw();
      };
      field.appendChild(input);
      field.appendChild(document.createTextNode(" px"));
      panel.appendChild(field);
    }
    const reset = h("button", "cut-view-reset", "Back to defaults");
    reset.onclick = () => {
      view = {};
      saveView();
      send({ type: "layout", layout: "auto" });
      draw();
    };
    panel.appendChild(reset);
    return panel;
  };

  /** Apply the sizes to the table, and the window width to the whole app (the coach beside the table, the setup
   * form): the setup screen's width while no game is on the table, the play window's during one.
   * @param {Table} t */
  const applyView = (t) => {
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
  };

  const saveView = () => {
    try {
      localStorage.setItem(VIEW_KEY, JSON.stringify(view));
    } catch (_) {
      // storage may be off (private windows): the settings still apply until the page closes
    }
  };

  /** A seat's name plate with its badges. @param {Table} t @param {View} v @param {number} s */
  const plate = (t, v, s) => {
    const info = v.seats[s];
    const name = h("div", "cut-plate");
    name.appendChild(h("b", "", t.names[s] || "Seat " + s));
    if (v.dealer === s) name.appendChild(badge("cut-badge cut-dealer", "D", "dealer"));
    if (t.automated[s]) name.appendChild(badge("cut-badge", "🤖", "automated"));
    if (info.busts) {
      const busts = info.busts === 1 ? "1 bust" : info.busts + " busts";
      name.appendChild(badge("cut-badge cut-busts", t.words.busts[s], busts));
    }
    name.appendChild(h("span", "cut-count", t.words.left[s]));
    return name;
  };

  /** @param {Table} t @param {View} v */
  const opponents = (t, v) => {
    const band = h("div", "cut-opponents");
    for (let i = 1; i < v.players; i++) {
      const s = (t.seat + i) % v.players;
      const info = v.seats[s];
      const box = h("div", "cut-seat" + (v.turn === s && v.winner === null ? " cut-active" : ""));
      box.style.setProperty("--seat", t.colours[s]);
      box.dataset.seat = String(s);
      box.appendChild(plate(t, v, s));
      const hand = h("div", "cut-row");
      if (info.hand) {
        for (const card of info.hand) hand.appendChild(cardNode(card, t, "cut-small"));
      } else {
        const count = badge("cut-card cut-back cut-small", String(info.hand_count), info.hand_count + " cards in hand");
        hand.appendChild(count);
        for (const card of info.known) hand.appendChild(cardNode(card, t, "cut-small cut-known"));
      }
      box.appendChild(hand);
      const stacks = h("div", "cut-row");
      info.stacks.forEach((stack, k) => {
        const col = h("span", "cut-stack");
        // Clear 4: a stack down to its final card shows it across, as the rulebook lays it
        const final = isClear4(v) && stack.length === 1 ? " cut-final" : "";
        // the review of a finished hand turns up the Risk cards under the Board cards too
        stack.forEach((card, j) => {
          const down = info.down && info.down[k][j];
          const extra = "cut-small" + final + (down ? " cut-revealed" : "");
          if (t.review || j === stack.length - 1) col.appendChild(cardNode(card, t, extra));
        });
        if (!stack.length) col.appendChild(badge("cut-card cut-empty cut-small", "", t.words.stacks[s][k]));
        col.appendChild(badge("cut-stackno", String(k + 1), t.words.stacks[s][k]));
        stacks.appendChild(col);
      });
      box.appendChild(stacks);
      band.appendChild(box);
    }
    return band;
  };

  /** @param {Table} t @param {View} v */
  const pile = (t, v) => {
    const area = h("div", "cut-pile");
    area.setAttribute("role", "group");
    area.setAttribute("aria-label", "the pile");
    const cards = v.pile;
    const c4 = isClear4(v);
    // the fan holds the top run: in Clear 4 the cards of the top value, JOKERs counted as the value they took
    /** @param {PileCard} p */
    const key = (p) => (c4 ? (p.as === undefined ? p.card : p.as) : p.card);
    let run = 0;
    if (cards.length) {
      const top = key(cards[cards.length - 1]);
      while (run < cards.length && key(cards[cards.length - 1 - run]) === top) run++;
    }
    /** @param {PileCard} p @param {string} extra */
    const pileCard = (p, extra) => {
      const c = cardNode(p.card, t, extra);
      c.style.setProperty("--by", t.colours[p.by]);
      let title = (t.names[p.by] || "") + " played " + faceText(p.card, t);
      if (c4 && p.card === "J*") {
        const as = p.as ? faceText(p.as, t) : "any";
        c.appendChild(h("span", "cut-as", "= " + as));
        title += " (counts as " + as + ")";
      }
      c.title = title;
      return c;
    };
    const under = cards.slice(0, cards.length - run);
    const older = h("div", "cut-pile-under");
    const shown = under.slice(-10);
    if (under.length > shown.length) older.appendChild(h("span", "cut-more", "+" + (under.length - shown.length)));
    for (const p of shown) older.appendChild(pileCard(p, "cut-pilecard cut-under"));
    area.appendChild(older);
    const fan = h("div", "cut-fan");
    cards.slice(cards.length - run).forEach((p, i) => {
      const c = pileCard(p, "cut-pilecard");
      c.style.setProperty("--i", String(i));
      fan.appendChild(c);
    });
    if (!cards.length) fan.appendChild(h("span", "cut-empty-pile", "empty pile"));
    area.appendChild(fan);
    if (t.words.pile) {
      // Clear 4's value to play equal or lower to is a rule, not a counting aid: Python always words it (R22)
      const readout = h("div", "cut-pilecount", t.words.pile);
      if (c4) readout.dataset.value = v.pile_value ? faceText(v.pile_value, t) : "any";
      area.appendChild(readout);
    }
    return area;
  };

  /** Step pacing's pause: the cards a clear swept, marked S, shown before the pile clears; or the pile a bust
   * took. *Continue* plays on. @param {Table} t */
  const pausedPile = (t) => {
    const p = /** @type {Pause} */ (t.pause);
    const area = h("div", "cut-pile cut-paused cut-pause-" + p.kind);
    area.setAttribute("role", "group");
    area.setAttribute("aria-label", p.text);
    if (p.kind === "clear") area.appendChild(badge("cut-badge cut-clearmark", "S", "clear"));
    const fan = h("div", "cut-fan");
    p.cards.forEach((card, i) => {
      const c = h("span", "cut-card cut-pilecard", card);
      c.style.setProperty("--by", t.colours[p.by[i]]);
      c.style.setProperty("--i", String(i));
      fan.appendChild(c);
    });
    area.appendChild(fan);
    area.appendChild(h("span", "cut-pause-text", p.text));
    return area;
  };

  /** The round-over panel: who went out, every seat's cards left with the Risk cards face up, the hand's points
   * with the bust add-on on its own line, the running totals, and Next hand. @param {Table} t @param {HandOver} o */
  const handOver = (t, o) => {
    const panel = h("div", "cut-handover");
    panel.setAttribute("role", "region");
    panel.setAttribute("aria-label", "hand over");
    panel.appendChild(h("h3", "cut-handover-title", o.title));
    const table = h("table", "cut-handover-table");
    const head = h("tr");
    for (const text of ["Player", "Cards left", "This hand", "Total"]) head.appendChild(h("th", "", text));
    table.appendChild(head);
    for (const r of o.seats) {
      const row = h("tr");
      const name = h("th", "cut-handover-name", r.name);
      name.setAttribute("scope", "row");
      name.style.setProperty("--seat", r.colour);
      row.appendChild(name);
      const cards = h("td", "cut-handover-cards");
      for (const card of r.hand) cards.appendChild(h("span", "cut-card cut-small", card));
      for (const stack of r.stacks) {
        for (const c of stack) {
          const node = h("span", "cut-card cut-small" + (c.risk ? " cut-risk-up" : ""), c.card);
          if (c.risk) node.title = "Risk card, turned up";
          cards.appendChild(node);
        }
      }
      if (!cards.childNodes.length) cards.appendChild(h("span", "cut-note", "none"));
      row.appendChild(cards);
      const points = h("td", "cut-handover-points");
      points.appendChild(h("div", "", String(r.points)));
      if (r.addon) points.appendChild(h("div", "cut-addon", r.addon));
      else if (r.busts) points.appendChild(h("div", "cut-addon", r.busts));
      row.appendChild(points);
      row.appendChild(h("td", "cut-handover-total", String(r.total)));
      table.appendChild(row);
    }
    panel.appendChild(table);
    if (o.game_over) panel.appendChild(h("p", "cut-gameover", "Game over: " + o.game_over));
    if (t.step) panel.appendChild(nextButton(t));
    return panel;
  };

  /** Next, Continue or Next hand: what moves play on. @param {Table} t */
  const nextButton = (t) => {
    const b = h("button", "cut-next", t.step);
    b.onclick = () => send({ type: "next" });
    return b;
  };

  /** Every action the current selection names: one, or a PUSH's one per seat. With nothing selected the coach's
   * highlighted pick is the selection, so Play plays it as *Coach: Play* does; any card selected takes over.
   * @param {Table} t */
  const chosen = (t) => {
    if (!selected.length && t.highlight) return t.actions.filter((a) => a.move === t.highlight.move);
    if (!selected.length) return [];
    return t.actions.filter((a) => sameCards(a.cards, selected));
  };

  /** @param {string} ref */
  const toggleStack = (ref) => {
    if (model.get("table").automated[model.get("table").seat]) send({ type: "automate", on: false });
    selectedHand = [];
    selected = selected.length === 1 && selected[0] === ref ? [] : [ref];
    draw();
  };

  /** @param {number} i */
  const toggleHand = (i) => {
    const t = model.get("table");
    if (t.automated[t.seat]) send({ type: "automate", on: false });
    selected = selected.filter((r) => r.startsWith("h:"));
    const at = selectedHand.indexOf(i);
    if (at >= 0) selectedHand.splice(at, 1);
    else selectedHand.push(i);
    selected = selectedHand.map((j) => "h:" + t.view.hand[j]);
    draw();
  };

  /** A card you press to select it: a toggle button, found again after a redraw by its key.
   * @param {HTMLElement} node @param {string} key @param {boolean} pressed @param {() => void} act */
  const clickable = (node, key, pressed, act) => {
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    node.setAttribute("aria-pressed", String(pressed));
    node.dataset.key = key;
    node.onclick = act;
    node.onkeydown = (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        act();
      }
    };
  };

  /** @param {Table} t @param {View} v */
  const yourArea = (t, v) => {
    const me = v.seats[t.seat];
    const area = h("div", "cut-you" + (v.turn === t.seat && v.winner === null ? " cut-active" : ""));
    area.style.setProperty("--seat", t.colours[t.seat]);
    area.appendChild(plate(t, v, t.seat));
    const coachCards = !selected.length && t.highlight ? [...t.highlight.cards] : [];
    /** Cards some legal move uses (the rest are dimmed when the option is on), and piles on offer. */
    const usable = new Set(t.playable || []);
    const offered = new Set(t.actions.filter((a) => a.stack !== undefined).map((a) => a.stack));
    const board = h("div", "cut-board");
    const c4 = isClear4(v);
    const exposed = v.exposed || [];
    me.stacks.forEach((stack, k) => {
      const col = h("span", "cut-stack cut-mystack" + (c4 ? " cut-stack3" : ""));
      if (!stack.length) col.appendChild(badge("cut-card cut-empty", "", t.words.stacks[t.seat][k]));
      stack.forEach((card, j) => {
        const top = j === stack.length - 1;
        const down = me.down && me.down[k][j];
        // CUT: Risk card under the Board card. Clear 4: the final card across the bottom, the middle card
        // face-down above it, the top card face-up (R22).
        const place = c4
          ? j === 0 ? "cut-final" : top ? "cut-boardcard" : "cut-middle"
          : j === 0 && stack.length > 1 ? "cut-risk" : "cut-boardcard";
        const node = cardNode(card, t, place + (down ? " cut-revealed" : ""));
        if (top && exposed.includes(k + 1)) node.classList.add("cut-exposed");
        if (top && t.actions.length) {
          const ref = (card === null ? "d:" : "s:") + k;
          if (t.dim && !usable.has(ref)) node.classList.add("cut-dim");
          const on = selected.includes(ref);
          if (on) node.classList.add("cut-selected");
          const ci = coachCards.indexOf(ref);
          if (ci >= 0) {
            node.classList.add("cut-coach");
            coachCards.splice(ci, 1);
          }
          clickable(node, "card:" + ref, on, () => toggleStack(ref));
        }
        col.appendChild(node);
      });
      const number = badge("cut-stackno", String(k + 1), t.words.stacks[t.seat][k]);
      if (offered.has(k)) {  // a numbered badge in the colour of the buttons that use this pile (R13, R17)
        number.classList.add("cut-offered");
        number.style.setProperty("--pile", STACK_COLOURS[k % STACK_COLOURS.length]);
      }
      col.appendChild(number);
      board.appendChild(col);
    });
    area.appendChild(board);
    const hand = h("div", "cut-hand");
    const known = [...me.known];
    v.hand.forEach((card, i) => {
      const ki = known.indexOf(card);
      const node = cardNode(card, t, ki >= 0 ? "cut-known" : "");
      if (t.dim && t.actions.length && !usable.has("h:" + card)) node.classList.add("cut-dim");
      if (ki >= 0) known.splice(ki, 1);
      const on = selectedHand.includes(i);
      if (on) node.classList.add("cut-selected");
      const ci = coachCards.indexOf("h:" + card);
      if (ci >= 0) {
        node.classList.add("cut-coach");
        coachCards.splice(ci, 1);
      }
      if (t.actions.length) clickable(node, "card:h" + i, on, () => toggleHand(i));
      hand.appendChild(node);
    });
    if (!v.hand.length) hand.appendChild(h("span", "cut-note", "no cards in hand"));
    area.appendChild(hand);
    if (t.adding) area.appendChild(addingList(t, t.adding));
    area.appendChild(actions(t));
    return area;
  };

  /** R13: the card a blind play landed is card 1; under it, numbered, the cards that could go with it, the hand's
   * apart from the piles'. Each number wears the colour of the buttons whose last card it is.
   * @param {Table} t @param {Adding} adding */
  const addingList = (t, adding) => {
    const box = h("div", "cut-adding");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "cards you could send with the turned card");
    /** @param {{number: number, card: string, stack?: number, where?: string}} entry @param {string} [note] */
    const numbered = (entry, note) => {
      const item = h("span", "cut-addcard");
      const colour = entry.stack === undefined ? ADD_COLOURS[(entry.number - 1) % ADD_COLOURS.length]
        : STACK_COLOURS[entry.stack % STACK_COLOURS.length];
      const number = badge("cut-addno", String(entry.number), "card " + entry.number);
      number.style.setProperty("--pile", colour);
      number.style.color = inkOn(colour);
      item.appendChild(number);
      item.appendChild(cardNode(entry.card, t, "cut-addface"));
      if (entry.where || note) item.appendChild(h("span", "cut-addnote", entry.where || note));
      return item;
    };
    const first = h("div", "cut-addrow");
    first.appendChild(numbered(adding.first, adding.first.note));
    box.appendChild(first);
    for (const group of adding.groups) {
      const row = h("div", "cut-addrow");
      const title = h("span", "cut-addtitle", group.title);
      title.appendChild(h("span", "cut-addnote", " — " + group.note));
      row.appendChild(title);
      for (const entry of group.cards) row.appendChild(numbered(entry));
      box.appendChild(row);
    }
    return box;
  };

  /** @param {Table} t */
  const actions = (t) => {
    const bar = h("div", "cut-actions");
    if (t.actions.length) {
      const picks = chosen(t);
      if (picks.length > 1) {
        // a PUSH names its seat: one button per seat
        const seats = h("span", "cut-seatpicker");
        seats.setAttribute("role", "group");
        seats.setAttribute("aria-label", "push the pile to");
        for (const a of picks) {
          const b = h("button", "cut-play cut-pushto", a.label);
          b.dataset.move = a.move;
          if (a.to !== undefined) b.style.setProperty("--seat", t.colours[a.to]);
          b.onclick = () => send({ type: "move", move: a.move });
          seats.appendChild(b);
        }
        bar.appendChild(seats);
      } else {
        const pick = picks.length ? picks[0] : null;
        const play = h("button", "cut-play", pick ? pick.label : "Select cards to play");
        play.disabled = !pick;
        play.onclick = () => pick && send({ type: "move", move: pick.move });
        bar.appendChild(play);
      }
      const all = h("div", "cut-moves");
      for (const a of t.actions) {
        const b = h("button", "cut-move" + (a.to !== undefined ? " cut-pushto" : ""), a.label);
        b.dataset.move = a.move;
        if (a.to !== undefined) b.style.setProperty("--seat", t.colours[a.to]);
        if (a.stack !== undefined) {  // coloured like the pile badge of the last card it plays
          b.classList.add("cut-pilebutton");
          b.style.setProperty("--pile", STACK_COLOURS[a.stack % STACK_COLOURS.length]);
        } else if (t.adding && a.move.startsWith("add")) {  // R13: the colour of its last card, by its number
          b.classList.add("cut-pilebutton");
          b.style.setProperty("--pile", ADD_COLOURS[a.cards.length % ADD_COLOURS.length]);
        }
        if (t.highlight && t.highlight.move === a.move && !a.then) b.classList.add("cut-coach");
        b.onclick = () => send(a.then ? { type: "combo", move: a.move, then: a.then } : { type: "move", move: a.move });
        all.appendChild(b);
      }
      bar.appendChild(all);
    }
    if (t.undo) {
      const b = h("button", "cut-undo", "Undo last play");
      b.onclick = () => send({ type: "undo" });
      bar.appendChild(b);
    }
    if (t.step && !t.hand_over) bar.appendChild(nextButton(t));
    if (t.mode === "play") {
      const on = !!t.automated[t.seat];
      const b = h("button", "cut-automate" + (on ? " cut-on" : ""), on ? "🤖 Automate Player on (Esc to stop)" : "🤖 Automate Player");
      b.setAttribute("aria-pressed", String(on));
      b.onclick = () => send({ type: "automate", on: !on });
      bar.appendChild(b);
    }
    return bar;
  };

  /** @param {Table} t */
  const legend = (t) => {
    const box = h("div", "cut-legend");
    /** @type {Record<string, string>} */
    const links = t.legend || {};
    for (const [icon, text] of t.words.legend) {
      // each entry opens its section of the player's guide when the app knows where the guide is
      const item = /** @type {HTMLElement} */ (h(links[icon] ? "a" : "span", "cut-legend-item"));
      if (links[icon]) {
        item.setAttribute("data-base-relative", links[icon]);
        item.setAttribute("href", baseUrl() + links[icon]);
        item.setAttribute("target", GUIDE_WINDOW);
      }
      item.appendChild(h("b", "cut-icon", icon));
      item.appendChild(document.createTextNode(" " + text));
      box.appendChild(item);
    }
    return box;
  };

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
      selected = [];
      selectedHand = [];
      // sent whatever this page last drew: Automate pressed a moment ago may not have reached it yet
      if (t.mode === "play" && t.view) send({ type: "automate", on: false });
      draw();
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

  model.on("change:table", () => {
    // a play the kernel selected (from the analysis table) picks its cards, the hand's by their places
    const s = (model.get("table") || {}).selected;
    selected = s ? [...s.cards] : [];
    const hand = s ? [...model.get("table").view.hand] : [];
    selectedHand = [];
    for (const ref of selected.filter((r) => r.startsWith("h:"))) {
      const i = hand.findIndex((c, j) => "h:" + c === ref && !selectedHand.includes(j));
      if (i >= 0) selectedHand.push(i);
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
    const fit = tableFits(t.view.players - 1);
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
