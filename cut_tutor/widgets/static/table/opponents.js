// The opponents: each seat's name plate, hand and Board, on an arc when they fit the width, else stacked.

/** Width one opponent's seat needs on the table arc, in pixels (the CSS min-width plus the gap). */
const SEAT_WIDTH = 176;

/** Can the opponents sit side by side on an arc at this width? @param {HTMLElement} root @param {number} count */
function tableFits(root, count) {
  return root.clientWidth >= count * SEAT_WIDTH + 24;
}

/** Every other seat, seat by seat after yours: its plate, its hand (a count and the cards known, or every card
 * in a review) and its Board's top cards. @param {Table} t @param {View} v */
function opponents(t, v) {
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
}
