// The move buttons: Play (or one button per seat for a PUSH), every legal move, Undo, Next and Automate.

/** The same cards, in any order? @param {string[]} a @param {string[]} b */
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/** Next, Continue or Next hand: what moves play on. @param {Ui} ui @param {Table} t */
function nextButton(ui, t) {
  const b = h("button", "cut-next", t.step);
  b.onclick = () => ui.send({ type: "next" });
  return b;
}

/** Every action the current selection names: one, or a PUSH's one per seat. With nothing selected the coach's
 * highlighted pick is the selection, so Play plays it as *Coach: Play* does; any card selected takes over.
 * @param {Ui} ui @param {Table} t */
function chosen(ui, t) {
  const { selected } = ui;
  if (!selected.length && t.highlight) return t.actions.filter((a) => a.move === t.highlight.move);
  if (!selected.length) return [];
  return t.actions.filter((a) => sameCards(a.cards, selected));
}

/** The move buttons under your hand. @param {Ui} ui @param {Table} t */
function moveButtons(ui, t) {
  const { send } = ui;
  const bar = h("div", "cut-actions");
  if (t.actions.length) {
    const picks = chosen(ui, t);
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
  if (t.step && !t.hand_over) bar.appendChild(nextButton(ui, t));
  if (t.mode === "play") {
    const on = !!t.automated[t.seat];
    const b = h("button", "cut-automate" + (on ? " cut-on" : ""), on ? "🤖 Automate Player on (Esc to stop)" : "🤖 Automate Player");
    b.setAttribute("aria-pressed", String(on));
    b.onclick = () => send({ type: "automate", on: !on });
    bar.appendChild(b);
  }
  return bar;
}
