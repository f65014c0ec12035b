// The legend under the table: what each mark means, an entry opening its section of the player's guide.

/** The legend, in the game's words. @param {Table} t */
function legend(t) {
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
}
