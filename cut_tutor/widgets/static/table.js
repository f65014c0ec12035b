// The CUT table: draws the JSON view Python sends and sends back intents. No game logic lives here:
// every intent is checked in Python, which answers with a new view or an error.

/**
 * @typedef {{card: string, by: number}} PileCard
 * @typedef {{move: string, label: string, cards: string[]}} Action
 * @typedef {{seat: number, hand_count: number, known: string[], stacks: (string|null)[][],
 *            cards_left: number, busts: number, hand?: string[], down?: boolean[][]}} SeatView
 * @typedef {{seat: number, players: number, dealer: number, turn: number, phase: string, hand: string[],
 *            seats: SeatView[], pile: PileCard[], pile_points: number, rules: {clear_rank: string|null},
 *            winner: number|null, stalemate: boolean}} View
 * @typedef {{mode: string, seat: number, view: View, names: string[], colours: string[],
 *            automated: boolean[], actions: Action[], highlight: Action|null, undo: boolean,
 *            pile_counts: boolean, status: string, last: string, step: string}} Table
 */

/** Width one opponent's seat needs on the table arc, in pixels (the CSS min-width plus the gap). */
const SEAT_WIDTH = 176;

const LEGEND = [
  ["💥", "Bust: took the pile"],
  ["🃏", "Known card: came from the pile"],
  ["🤖", "Automated: the coach plays this seat"],
  ["D", "Dealer"],
  ["S", "Stack number (Board card over Risk card)"],
];

/** @param {string} tag @param {string} [cls] @param {string} [text] */
function h(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
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
  return card === "JK" || (card !== null && card === view.rules.clear_rank);
}

/**
 * One card face (or back when ``card`` is null).
 * @param {string|null} card @param {View} view @param {string} [extra]
 */
function cardNode(card, view, extra) {
  const node = h("span", "cut-card" + (extra ? " " + extra : ""));
  if (card === null) {
    node.classList.add("cut-back");
    node.setAttribute("aria-label", "face-down card");
  } else {
    node.textContent = card;
    node.setAttribute("aria-label", "card " + card);
    if (isClear(card, view)) node.classList.add("cut-clear");
  }
  return node;
}

/** @param {{ model: any, el: HTMLElement }} ctx */
function render({ model, el }) {
  /** @type {string[]} */
  let selected = [];
  /** @type {number[]} */
  let selectedHand = [];
  const root = h("div", "cut-table");
  root.tabIndex = 0;
  el.appendChild(root);

  /** @param {Record<string, unknown>} msg */
  const send = (msg) => model.send(msg);

  const draw = () => {
    /** @type {Table} */
    const t = model.get("table") || {};
    root.className = "cut-table cut-" + (model.get("theme") || "light");
    root.replaceChildren();
    root.appendChild(titleBar(t));
    const error = model.get("error");
    if (error) {
      const box = h("div", "cut-error", error);
      box.setAttribute("role", "alert");
      root.appendChild(box);
    }
    if (!t.view) return;
    const v = t.view;
    const band = opponents(t, v);
    const wanted = model.get("layout") || "auto";
    const fits = tableFits(v.players - 1);
    const arc = wanted === "table" || (wanted === "auto" && fits);
    band.classList.add(arc ? "cut-arc" : "cut-stacked");
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
    root.appendChild(pile(t, v));
    root.appendChild(yourArea(t, v));
    root.appendChild(legend());
  };

  /** Can the opponents sit side by side on an arc at this width? @param {number} count */
  const tableFits = (count) => root.clientWidth >= count * SEAT_WIDTH + 24;

  /** @param {Table} t */
  const titleBar = (t) => {
    const bar = h("div", "cut-title");
    bar.appendChild(h("span", "cut-name", "Clear, Under or Take"));
    const status = h("span", "cut-status", t.status || "");
    status.setAttribute("aria-live", "polite");
    bar.appendChild(status);
    if (t.last) bar.appendChild(h("span", "cut-last", t.last));
    const theme = h("button", "cut-theme", model.get("theme") === "dark" ? "☀ Light" : "☾ Dark");
    theme.onclick = () => send({ type: "theme", theme: model.get("theme") === "dark" ? "light" : "dark" });
    bar.appendChild(theme);
    return bar;
  };

  /** A seat's name plate with its badges. @param {Table} t @param {View} v @param {number} s */
  const plate = (t, v, s) => {
    const info = v.seats[s];
    const name = h("div", "cut-plate");
    name.appendChild(h("b", "", t.names[s] || "Seat " + s));
    if (v.dealer === s) name.appendChild(h("span", "cut-badge cut-dealer", "D"));
    if (t.automated[s]) name.appendChild(h("span", "cut-badge", "🤖"));
    if (info.busts) name.appendChild(h("span", "cut-badge", "💥".repeat(Math.min(info.busts, 5))));
    name.appendChild(h("span", "cut-count", info.cards_left + " cards"));
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
        for (const card of info.hand) hand.appendChild(cardNode(card, v, "cut-small"));
      } else {
        hand.appendChild(h("span", "cut-card cut-back cut-small", String(info.hand_count)));
        for (const card of info.known) hand.appendChild(cardNode(card, v, "cut-small cut-known"));
      }
      box.appendChild(hand);
      const stacks = h("div", "cut-row");
      info.stacks.forEach((stack, k) => {
        const top = stack.length ? stack[stack.length - 1] : undefined;
        const col = h("span", "cut-stack");
        const down = info.down && info.down[k][stack.length - 1];
        if (top !== undefined) col.appendChild(cardNode(top, v, "cut-small" + (down ? " cut-revealed" : "")));
        else col.appendChild(h("span", "cut-card cut-empty cut-small"));
        col.appendChild(h("span", "cut-stackno", String(k + 1) + (stack.length > 1 ? "·" + stack.length : "")));
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
    area.setAttribute("aria-label", "the pile");
    const cards = v.pile;
    let run = 0;
    if (cards.length) {
      const top = cards[cards.length - 1].card;
      while (run < cards.length && cards[cards.length - 1 - run].card === top) run++;
    }
    const under = cards.slice(0, cards.length - run);
    const older = h("div", "cut-pile-under");
    const shown = under.slice(-10);
    if (under.length > shown.length) older.appendChild(h("span", "cut-more", "+" + (under.length - shown.length)));
    for (const p of shown) {
      const c = cardNode(p.card, v, "cut-pilecard cut-under");
      c.style.setProperty("--by", t.colours[p.by]);
      c.title = (t.names[p.by] || "") + " played " + p.card;
      older.appendChild(c);
    }
    area.appendChild(older);
    const fan = h("div", "cut-fan");
    cards.slice(cards.length - run).forEach((p, i) => {
      const c = cardNode(p.card, v, "cut-pilecard");
      c.style.setProperty("--by", t.colours[p.by]);
      c.style.setProperty("--i", String(i));
      c.title = (t.names[p.by] || "") + " played " + p.card;
      fan.appendChild(c);
    });
    if (!cards.length) fan.appendChild(h("span", "cut-empty-pile", "empty pile"));
    area.appendChild(fan);
    if (t.pile_counts) area.appendChild(h("div", "cut-pilecount", cards.length + " cards · " + v.pile_points + " pts"));
    return area;
  };

  /** Which action the current selection names. @param {Table} t */
  const chosen = (t) => {
    const sel = selected.length ? selected : t.highlight ? t.highlight.cards : [];
    if (!sel.length) return null;
    return t.actions.find((a) => sameCards(a.cards, sel)) || null;
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

  /** @param {HTMLElement} node @param {() => void} act */
  const clickable = (node, act) => {
    node.tabIndex = 0;
    node.setAttribute("role", "button");
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
    const board = h("div", "cut-board");
    me.stacks.forEach((stack, k) => {
      const col = h("span", "cut-stack cut-mystack");
      if (!stack.length) col.appendChild(h("span", "cut-card cut-empty"));
      stack.forEach((card, j) => {
        const top = j === stack.length - 1;
        const down = me.down && me.down[k][j];
        const node = cardNode(card, v, (j === 0 && stack.length > 1 ? "cut-risk" : "cut-boardcard") + (down ? " cut-revealed" : ""));
        if (top && t.actions.length) {
          const ref = (card === null ? "d:" : "s:") + k;
          if (selected.includes(ref)) node.classList.add("cut-selected");
          const ci = coachCards.indexOf(ref);
          if (ci >= 0) {
            node.classList.add("cut-coach");
            coachCards.splice(ci, 1);
          }
          clickable(node, () => toggleStack(ref));
        }
        col.appendChild(node);
      });
      col.appendChild(h("span", "cut-stackno", String(k + 1)));
      board.appendChild(col);
    });
    area.appendChild(board);
    const hand = h("div", "cut-hand");
    const known = [...me.known];
    v.hand.forEach((card, i) => {
      const ki = known.indexOf(card);
      const node = cardNode(card, v, ki >= 0 ? "cut-known" : "");
      if (ki >= 0) known.splice(ki, 1);
      if (selectedHand.includes(i)) node.classList.add("cut-selected");
      const ci = coachCards.indexOf("h:" + card);
      if (ci >= 0) {
        node.classList.add("cut-coach");
        coachCards.splice(ci, 1);
      }
      if (t.actions.length) clickable(node, () => toggleHand(i));
      hand.appendChild(node);
    });
    if (!v.hand.length) hand.appendChild(h("span", "cut-note", "no cards in hand"));
    area.appendChild(hand);
    area.appendChild(actions(t));
    return area;
  };

  /** @param {Table} t */
  const actions = (t) => {
    const bar = h("div", "cut-actions");
    if (t.actions.length) {
      const pick = chosen(t);
      const play = h("button", "cut-play", pick ? pick.label : "Select cards to play");
      play.disabled = !pick;
      play.onclick = () => pick && send({ type: "move", move: pick.move });
      bar.appendChild(play);
      const all = h("div", "cut-moves");
      for (const a of t.actions) {
        const b = h("button", "cut-move", a.label);
        b.dataset.move = a.move;
        if (t.highlight && t.highlight.move === a.move) b.classList.add("cut-coach");
        b.onclick = () => send({ type: "move", move: a.move });
        all.appendChild(b);
      }
      bar.appendChild(all);
    }
    if (t.undo) {
      const b = h("button", "cut-undo", "Undo last play");
      b.onclick = () => send({ type: "undo" });
      bar.appendChild(b);
    }
    if (t.step) {
      const b = h("button", "cut-next", t.step);
      b.onclick = () => send({ type: "next" });
      bar.appendChild(b);
    }
    if (t.mode === "play") {
      const on = !!t.automated[t.seat];
      const b = h("button", "cut-automate" + (on ? " cut-on" : ""), on ? "🤖 Automated (Esc to stop)" : "🤖 Automate");
      b.setAttribute("aria-pressed", String(on));
      b.onclick = () => send({ type: "automate", on: !on });
      bar.appendChild(b);
    }
    return bar;
  };

  const legend = () => {
    const box = h("div", "cut-legend");
    for (const [icon, text] of LEGEND) {
      const item = h("span", "cut-legend-item");
      item.appendChild(h("b", "", icon));
      item.appendChild(document.createTextNode(" " + text));
      box.appendChild(item);
    }
    return box;
  };

  root.addEventListener("keydown", (e) => {
    const t = model.get("table") || {};
    if (e.key === "Escape") {
      selected = [];
      selectedHand = [];
      if (t.automated && t.automated[t.seat]) send({ type: "automate", on: false });
      draw();
    } else if (t.mode === "replay" && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) {
      e.preventDefault();
      send({ type: "key", key: e.key });
    }
  });

  model.on("change:table", () => {
    selected = [];
    selectedHand = [];
    draw();
  });
  model.on("change:error", draw);
  model.on("change:layout", draw);
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
  send({ type: "ready" });
}

export default { render };
