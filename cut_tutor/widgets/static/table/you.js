// Your area: your name plate, your Board and your hand, the cards you press to select, what a landed blind card
// could take along, and the move buttons under them.

/** Select one of your Board's top cards, or unselect it: the hand's selection goes (Automate stops).
 * @param {Ui} ui @param {string} ref */
function toggleStack(ui, ref) {
  const { model, send } = ui;
  if (model.get("table").automated[model.get("table").seat]) send({ type: "automate", on: false });
  ui.selectedHand = [];
  ui.selected = ui.selected.length === 1 && ui.selected[0] === ref ? [] : [ref];
  ui.draw();
}

/** Add the hand's card at place ``i`` to the selection, or take it out: a Board card selected goes (Automate stops).
 * @param {Ui} ui @param {number} i */
function toggleHand(ui, i) {
  const t = ui.model.get("table");
  if (t.automated[t.seat]) ui.send({ type: "automate", on: false });
  ui.selected = ui.selected.filter((r) => r.startsWith("h:"));
  const at = ui.selectedHand.indexOf(i);
  if (at >= 0) ui.selectedHand.splice(at, 1);
  else ui.selectedHand.push(i);
  ui.selected = ui.selectedHand.map((j) => "h:" + t.view.hand[j]);
  ui.draw();
}

/** A card you press to select it: a toggle button, found again after a redraw by its key.
 * @param {HTMLElement} node @param {string} key @param {boolean} pressed @param {() => void} act */
function clickable(node, key, pressed, act) {
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
}

/** Your seat: name plate, Board, hand, the adding list and the move buttons. @param {Ui} ui @param {Table} t
 * @param {View} v */
function yourArea(ui, t, v) {
  const { selected, selectedHand } = ui;
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
        clickable(node, "card:" + ref, on, () => toggleStack(ui, ref));
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
    if (t.actions.length) clickable(node, "card:h" + i, on, () => toggleHand(ui, i));
    hand.appendChild(node);
  });
  if (!v.hand.length) hand.appendChild(h("span", "cut-note", "no cards in hand"));
  area.appendChild(hand);
  if (t.adding) area.appendChild(addingList(t, t.adding));
  area.appendChild(moveButtons(ui, t));
  return area;
}

/** R13: the card a blind play landed is card 1; under it, numbered, the cards that could go with it, the hand's
 * apart from the piles'. Each number wears the colour of the buttons whose last card it is.
 * @param {Table} t @param {Adding} adding */
function addingList(t, adding) {
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
}
