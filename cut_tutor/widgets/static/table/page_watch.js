// What the table does to the page around it: the guide's links resolved, sliders named, the analysis tables'
// parts rows shown or hidden, however often the app's widgets redraw.

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

