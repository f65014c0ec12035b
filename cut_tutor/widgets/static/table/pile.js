// The pile: the cards under the top run, the top run fanned, the count; or, while step pacing pauses, what a clear
// swept or a bust took.

/** The pile: the older cards (the last ten, and how many more), the top run fanned, and its count.
 * @param {Table} t @param {View} v */
function pile(t, v) {
  const area = h("div", "cut-pile");
  area.setAttribute("role", "group");
  area.setAttribute("aria-label", "the pile");
  const cards = v.pile;
  const c4 = isClear4(v);
  // the fan holds the top run, as Python's game module counts it (in Clear 4, JOKERs counted as the value they
  // took); JOKERs alone have no value and no run (R22), and the fan then holds them all
  const run = v.top_run || cards.length;
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
}

/** Step pacing's pause: the cards a clear swept, marked S, shown before the pile clears; or the pile a bust
 * took. *Continue* plays on. @param {Table} t */
function pausedPile(t) {
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
}

