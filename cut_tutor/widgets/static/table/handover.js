// The round-over panel between hands.

/** The round-over panel: who went out, every seat's cards left with the Risk cards face up, the hand's points
 * with the bust add-on on its own line, the running totals, and Next hand.
 * @param {Ui} ui @param {Table} t @param {HandOver} o */
function handOver(ui, t, o) {
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
  if (t.step) panel.appendChild(nextButton(ui, t));
  return panel;
}
