// What every area draws with: the pile colours, a badge, a card's face or back, a seat's name plate.

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

/** A seat's name plate with its badges. @param {Table} t @param {View} v @param {number} s */
function plate(t, v, s) {
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
}

