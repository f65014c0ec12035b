// Focus kept across redraws: the table is drawn whole each time, so the control that had focus is found again by
// a key that survives the redraw.

/** Draw the table whole; the control that had focus has it again afterwards (found by its key).
 * @param {HTMLElement} root @param {() => void} paint */
function redrawKeepingFocus(root, paint) {
  const active = document.activeElement;
  const key = active && active !== root && root.contains(active) ? keyOf(/** @type {HTMLElement} */ (active)) : null;
  const hadFocus = key !== null || active === root;
  paint();
  if (hadFocus) refocus(root, key);
}

/** A control's key: stable across redraws (a card's place, a button's kind and move). @param {HTMLElement} node */
function keyOf(node) {
  if (node.dataset.key) return node.dataset.key;
  const kind = [...node.classList].find((c) => c.startsWith("cut-")) || node.tagName;
  return kind + (node.dataset.move ? ":" + node.dataset.move : "") + (node.getAttribute("name") || "");
}

/** Focus the control with this key, else the nearest card of your hand, else the table itself.
 * @param {HTMLElement} root @param {string|null} key */
function refocus(root, key) {
  /** @type {HTMLElement[]} */
  const controls = [...root.querySelectorAll("button, input, [role=button]")];
  const usable = controls.filter((c) => !(/** @type {HTMLButtonElement} */ (c).disabled));
  const same = key === null ? undefined : usable.find((c) => keyOf(c) === key);
  const hand = usable.filter((c) => (c.dataset.key || "").startsWith("card:h"));
  const at = key && key.startsWith("card:h") ? Number(key.slice(6)) : 0;
  const target = same || hand[Math.min(at, hand.length - 1)] || root;
  target.focus({ preventScroll: true });
}
