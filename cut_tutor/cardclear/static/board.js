// The Card Clear board: draws the JSON view Python sends and sends back intents. No game logic lives here:
// which swaps are legal, the tags, the bounce reason and the Hint all come from Python in ``board``.
// ``h`` and ``hostIsDark`` come from ``host.js``, which Python puts ahead of this file (``cut_tutor.page``).

/**
 * @typedef {{goal: string, have: number, need: number, met: boolean}} Goal
 * @typedef {{swap: string, cells: number[][], hands: string[], tag: string}} Legal
 * @typedef {{hand: string, short: string, points: number, example: string[]}} Hand
 * @typedef {{code: string, level: number, ranks: string, hands: Hand[], board: string[][], next: string[],
 *            moves_left: number, score: number, goals: Goal[], star_lines: number[], stars: number, over: boolean,
 *            passed: boolean, legal: Legal[], result: any}} View
 * @typedef {{swap: string, hands: string[], base: number, combo: number, points: number, extra_moves: number,
 *            goal: number, lookahead: number, finish: number, total: number, sure: boolean, best: boolean,
 *            top: boolean}} Row
 * @typedef {{view: View, selected: string|null, tags: Record<string, string>, message: string, bounce: string,
 *            combo: number, levels: number[], stars: Record<string, number>, link: boolean, deal: number,
 *            board: string, lit: number,
 *            pointer: {swap: string, text: string}|null,
 *            hint: {rows: Row[], text: string, preference: string}|null}} Board
 */

const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

/** A card's face (``10♥``) and its spoken name (``10 of hearts``). @param {string} name */
function face(name) {
  const rank = name.slice(0, -1), suit = name.slice(-1);
  return { text: rank + (SUIT_SIGNS[suit] || suit), spoken: `${rank} of ${SUIT_WORDS[suit] || suit}`, red: suit === "H" || suit === "D" };
}

/** The address of this page opening the deal ``code`` (the dashboard reads ``?board=``): nothing else of the
 * address goes with it, a server's token least of all. @param {string} code */
function boardLink(code) {
  return location.origin + location.pathname + "?board=" + encodeURIComponent(code);
}

/** The deal each board (by its id) last opened with: a board drawn again (the picker back on Card Clear) does not
 * fall again. @type {Map<string, number>} */
const shownDeals = new Map();
/** The opening (K18), in milliseconds: each row starts falling this long after the one above, falls for FALL; the
 * banner stays BANNER from the deal, then folds into the goal bar in FOLD. */
const ROW_DELAY = 70, FALL = 320, BANNER = 2400, FOLD = 450;

/** Does the learner ask for less motion? Then nothing falls or folds: the board and the banner simply appear. */
function stillness() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {{ model: any, el: HTMLElement }} ctx */
function render({ model, el }) {
  const root = h("div", "cc-board");
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "Card Clear board");
  el.appendChild(root);
  /** The focus cursor: the cell arrow keys move, kept across redraws. */
  let cursor = [0, 0];
  let copied = "";
  /** The Hands chart stays open across redraws once opened. */
  let handsOpen = false;
  /** @type {string|null} */
  let dragFrom = null;
  /** The opening's clock: when the deal fell in, when the fall ends, when the banner folds and is gone. */
  let dealtAt = 0, fallUntil = 0, bannerUntil = 0, foldUntil = 0;
  /** @type {number[]} */
  let timers = [];

  /** A new deal falls in row by row under its banner; each phase's end redraws the board.
   * @param {string} board @param {number} deal */
  const open = (board, deal) => {
    if (shownDeals.get(board) === deal) return;
    shownDeals.set(board, deal);
    const still = stillness();
    dealtAt = performance.now();
    fallUntil = still ? dealtAt : dealtAt + 5 * ROW_DELAY + FALL;
    bannerUntil = dealtAt + BANNER;
    foldUntil = bannerUntil + (still ? 0 : FOLD);
    schedule();
  };

  /** Redraw at each end still ahead: the fall's, the banner's fold, the banner gone. */
  const schedule = () => {
    timers.forEach(clearTimeout);
    const now = performance.now();
    timers = [fallUntil, bannerUntil, foldUntil].filter((t) => t > now).map((t) => setTimeout(draw, t - now + 1));
  };

  /** Tap the board (or the banner) to skip: the cards are in place, and the banner folds away now. */
  const skip = () => {
    const now = performance.now();
    fallUntil = Math.min(fallUntil, now);
    if (bannerUntil > now) {
      bannerUntil = now;
      foldUntil = now + (stillness() ? 0 : FOLD);
    }
    schedule();
    draw();
  };
  /** @param {Record<string, unknown>} msg */
  const send = (msg) => model.send(msg);

  const draw = () => {
    const active = document.activeElement;
    const key = active && root.contains(active) ? /** @type {HTMLElement} */ (active).dataset.key || null : null;
    paint();
    if (key) {
      const again = /** @type {HTMLElement|null} */ (root.querySelector(`[data-key="${key}"]`));
      (again || /** @type {HTMLElement|null} */ (root.querySelector(".cc-cell[tabindex='0']")) || root).focus({ preventScroll: true });
    }
  };

  const paint = () => {
    /** @type {Board} */
    const b = model.get("board") || {};
    const v = b.view;
    root.className = "cc-board cc-" + (model.get("theme") || "light");
    root.replaceChildren();
    if (!v) return;
    open(b.board, b.deal);
    const now = performance.now();
    const falling = now < fallUntil;
    if (falling) root.classList.add("cc-falling");

    // The title: level, code, level picker, theme.
    const title = h("div", "cc-title");
    title.appendChild(h("span", "cc-name", `Card Clear · Level ${v.level}`));
    title.appendChild(h("span", "cc-code", `${v.code} · ranks ${v.ranks}`));
    const pickLevel = h("select", "cc-level");
    pickLevel.setAttribute("aria-label", "Level");
    pickLevel.dataset.key = "level";
    for (const n of b.levels) {
      const won = (b.stars || {})[String(n)] || 0;  // the stars won on a level cleared
      const o = /** @type {HTMLOptionElement} */ (h("option", "", `Level ${n}` + (won ? " " + "★".repeat(won) : "")));
      o.value = String(n);
      o.selected = n === v.level;
      pickLevel.appendChild(o);
    }
    pickLevel.onchange = () => send({ type: "level", level: Number(/** @type {HTMLSelectElement} */ (pickLevel).value) });
    const tools = h("span", "cc-tools");
    tools.appendChild(pickLevel);
    const dark = model.get("theme") === "dark";
    const theme = button("cc-theme", dark ? "☀ Light" : "☾ Dark", dark ? "Light theme" : "Dark theme", () =>
      send({ type: "theme", theme: dark ? "light" : "dark" }));
    tools.appendChild(theme);
    title.appendChild(tools);
    root.appendChild(title);
    // The board on the left; the Hint table or the result card beside it on a wide screen, under it on a phone.
    const main = h("div", "cc-main");
    const side = h("div", "cc-side");
    const layout = h("div", "cc-layout");
    layout.append(main, side);
    root.appendChild(layout);

    // The Hands strip: what scores at this level; opened, a chart with an example of each.
    main.appendChild(handsStrip(v.hands));

    // The goal bar: goals with progress, moves left, and the three Next cards.
    const bar = h("div", "cc-goals");
    bar.setAttribute("aria-label", "Goals");
    for (const g of v.goals) {
      const goal = h("div", "cc-goal" + (g.met ? " cc-met" : ""));
      goal.appendChild(h("span", "", `${g.met ? "✓ " : ""}${g.goal}`));
      const meter = h("div", "cc-meter");
      meter.setAttribute("role", "progressbar");
      meter.setAttribute("aria-label", g.goal);
      meter.setAttribute("aria-valuemin", "0");
      meter.setAttribute("aria-valuemax", String(g.need));
      meter.setAttribute("aria-valuenow", String(Math.min(g.have, g.need)));
      const fill = h("div", "cc-fill");
      fill.style.width = `${Math.min(100, (100 * g.have) / g.need)}%`;
      meter.appendChild(fill);
      goal.appendChild(meter);
      goal.appendChild(h("span", "cc-count", `${g.have}/${g.need}`));
      bar.appendChild(goal);
    }
    const moves = h("div", "cc-moves", `Moves ${v.moves_left}`);
    moves.setAttribute("aria-label", `${v.moves_left} moves left`);
    bar.appendChild(moves);
    const next = h("div", "cc-next");
    next.setAttribute("aria-label", "Next cards: " + v.next.map((n) => face(n).spoken).join(", "));
    next.appendChild(h("span", "cc-next-word", "Next"));
    for (const n of v.next) next.appendChild(cardFace(n, "cc-mini"));
    bar.appendChild(next);
    main.appendChild(bar);

    // Score, the combo badge and the star bar.
    const score = h("div", "cc-scoreline");
    score.appendChild(h("span", "cc-score", `Score ${v.score}`));
    if (b.combo > 1) score.appendChild(h("span", "cc-combo", `Combo ×${b.combo}`));
    const [two, three] = v.star_lines;
    const stars = h("div", "cc-stars");
    stars.setAttribute("role", "progressbar");
    stars.setAttribute("aria-label", `Star bar: 2 stars at ${two}, 3 stars at ${three}`);
    stars.setAttribute("aria-valuemin", "0");
    stars.setAttribute("aria-valuemax", String(three));
    stars.setAttribute("aria-valuenow", String(Math.min(v.score, three)));
    const sfill = h("div", "cc-fill");
    sfill.style.width = `${Math.min(100, (100 * v.score) / three)}%`;
    stars.appendChild(sfill);
    const tick = h("span", "cc-star-tick");
    tick.style.left = `${(100 * two) / three}%`;
    stars.appendChild(tick);
    score.appendChild(stars);
    // each line lights the moment the score crosses it (at the end, the final score: Python counts them)
    const lines = h("span", "cc-star-lines");
    [[two, "★★"], [three, "★★★"]].forEach(([at, mark], i) => {
      if (i) lines.appendChild(document.createTextNode(" · "));
      const line = h("span", "cc-star-line" + (i < b.lit ? " cc-lit" : ""), `${mark} ${at}`);
      lines.appendChild(line);
    });
    score.appendChild(lines);
    main.appendChild(score);

    // The board: a grid of buttons with one tab stop (the cursor); arrows move it, Enter or Space picks.
    const grid = h("div", "cc-grid");
    grid.setAttribute("role", "grid");
    grid.setAttribute("aria-label", "Board, 6 rows by 6 columns");
    // while the deal falls in, a tap on the board skips the fall rather than picking a card
    grid.addEventListener("click", (e) => {
      if (performance.now() >= fallUntil) return;
      e.stopPropagation();
      skip();
    }, true);
    const [from, to] = b.pointer ? b.pointer.swap.split("-") : ["", ""];
    // with the Hint open, its swap is marked on the board (★), and the swap scoring most now when it prefers another (▲)
    /** @type {Record<string, {cls: string, sign: string, words: string}[]>} */
    const marks = {};
    for (const row of b.hint && !v.over ? b.hint.rows : []) {
      if (!row.best && !row.top) continue;
      const [a, z] = row.swap.split("-");
      const [cls, sign, words] = row.best ? ["cc-hinted", "★", "the Hint's swap"] : ["cc-top", "▲", "the most points now"];
      (marks[a] = marks[a] || []).push({ cls, sign, words: `${words}: with ${z}` });
      (marks[z] = marks[z] || []).push({ cls, sign, words: `${words}: with ${a}` });
    }
    v.board.forEach((row, r) => {
      const line = h("div", "cc-row");
      line.setAttribute("role", "row");
      if (falling) line.style.animationDelay = `${Math.round(dealtAt + r * ROW_DELAY - now)}ms`;
      row.forEach((name, c) => {
        const cell = `r${r + 1}c${c + 1}`;
        const f = face(name);
        const node = cardFace(name, "cc-cell");
        node.setAttribute("role", "gridcell");
        node.dataset.key = "cell:" + cell;
        node.dataset.cell = cell;
        const picked = b.selected === cell;
        const tag = b.tags[cell];
        if (picked) node.classList.add("cc-picked");
        if (tag) {
          node.classList.add("cc-tagged");
          node.appendChild(h("span", "cc-tag", tag));
        }
        // the first game's pointing finger: on one card of a swap, pointing at the other
        const pointed = cell === from ? `, the finger's swap: with ${to}` : cell === to ? `, the finger's swap: with ${from}` : "";
        if (cell === from) {
          node.classList.add("cc-pointed");
          const right = Number(to[3]) > c + 1;
          const finger = h("span", "cc-finger " + (right ? "cc-finger-right" : "cc-finger-down"), right ? "👉" : "👇");
          finger.setAttribute("aria-hidden", "true");
          node.appendChild(finger);
        } else if (cell === to) node.classList.add("cc-pointed-to");
        const marked = marks[cell] || [];
        marked.forEach((mark, i) => {
          node.classList.add(mark.cls);
          const sign = h("span", `cc-mark cc-mark-${i ? "second" : "first"} ${mark.cls}-mark`, mark.sign);
          sign.setAttribute("aria-hidden", "true");
          node.appendChild(sign);
        });
        const said = marked.map((mark) => ", " + mark.words).join("");
        node.setAttribute("aria-label", `${cell}: ${f.spoken}${picked ? ", picked up" : ""}${tag ? ", swap makes " + tag : ""}${pointed}${said}`);
        node.setAttribute("aria-selected", picked ? "true" : "false");
        node.tabIndex = cursor[0] === r && cursor[1] === c ? 0 : -1;
        node.onclick = () => {
          cursor = [r, c];
          send({ type: "pick", cell });
        };
        node.onpointerdown = (e) => {
          dragFrom = cell;
          node.releasePointerCapture?.(e.pointerId);
        };
        node.onpointerup = () => {
          if (performance.now() < fallUntil) skip();  // a drag in the fall skips it, as a tap does
          else if (dragFrom && dragFrom !== cell) send({ type: "swap", swap: `${dragFrom}-${cell}` });
          dragFrom = null;
        };
        node.onkeydown = (e) => {
          const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
          const step = moves[/** @type {keyof typeof moves} */ (e.key)];
          if (step) {
            e.preventDefault();
            cursor = [Math.max(0, Math.min(5, r + step[0])), Math.max(0, Math.min(5, c + step[1]))];
            const to = /** @type {HTMLElement|null} */ (root.querySelector(`[data-cell="r${cursor[0] + 1}c${cursor[1] + 1}"]`));
            grid.querySelectorAll(".cc-cell").forEach((x) => (/** @type {HTMLElement} */ (x).tabIndex = -1));
            if (to) {
              to.tabIndex = 0;
              to.focus();
            }
          } else if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            node.click();
          }
        };
        line.appendChild(node);
      });
      grid.appendChild(line);
    });
    const stage = h("div", "cc-stage");
    stage.appendChild(grid);
    if (now < foldUntil) stage.appendChild(banner(v, now >= bannerUntil));
    main.appendChild(stage);

    // The last swap, the bounce reason, a page error.
    const status = h("div", "cc-status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    if (b.bounce) status.appendChild(h("div", "cc-bounce", "↩ " + b.bounce));
    else if (b.message) status.appendChild(h("div", "cc-message", b.message));
    else if (b.pointer) status.appendChild(h("div", "cc-message cc-pointer-text", b.pointer.text));
    if (model.get("error")) status.appendChild(h("div", "cc-error", model.get("error")));
    main.appendChild(status);

    // The Hint button and its table.
    if (!v.over) {
      const open = !!b.hint;
      const hintButton = button("cc-hint-button", open ? "Hide hint" : "Hint", open ? "Hide the Hint" : "Show the Hint: the value of every swap",
        () => send({ type: "hint", on: !open }));
      hintButton.setAttribute("aria-expanded", open ? "true" : "false");
      side.appendChild(hintButton);
    }
    if (b.hint && !v.over) side.appendChild(hintTable(b.hint));

    // The result card.
    if (v.over && v.result) side.appendChild(resultCard(v.result, !!b.link));
  };

  /** The deal's banner: the level, its goals and its move limit, over the board until it folds into the goal bar;
   * a tap folds it now. @param {View} v @param {boolean} folding */
  const banner = (v, folding) => {
    const box = h("div", "cc-banner" + (folding ? " cc-banner-fold" : ""));
    box.setAttribute("aria-hidden", "true"); // the goal bar says the same, to a screen reader once
    box.appendChild(h("div", "cc-banner-level", `Level ${v.level}`));
    const goals = h("ul", "cc-banner-goals");
    for (const g of v.goals) goals.appendChild(h("li", "", g.goal));
    box.appendChild(goals);
    box.appendChild(h("div", "cc-banner-moves", `${v.moves_left} moves`));
    box.onclick = skip;
    return box;
  };

  /** The live hands in one line; open, each with its points and an example. @param {Hand[]} hands */
  const handsStrip = (hands) => {
    const strip = /** @type {HTMLDetailsElement} */ (h("details", "cc-hands"));
    strip.open = handsOpen;
    strip.ontoggle = () => {
      handsOpen = strip.open;
    };
    const summary = h("summary", "", "Hands: " + hands.map((x) => `${x.short} ${x.points}`).join(" · "));
    summary.dataset.key = "hands";
    strip.appendChild(summary);
    const chart = h("table", "cc-hand-chart");
    for (const x of hands) {
      const row = h("tr");
      const name = h("th", "", x.hand);
      name.setAttribute("scope", "row");
      row.appendChild(name);
      const example = h("td", "cc-hand-example");
      example.setAttribute("aria-label", x.example.map((n) => face(n).spoken).join(", "));
      const cards = h("span", "cc-hand-cards");
      for (const n of x.example) cards.appendChild(cardFace(n, "cc-mini"));
      example.appendChild(cards);
      row.appendChild(example);
      row.appendChild(h("td", "cc-hand-points", `${x.points} points`));
      chart.appendChild(row);
    }
    strip.appendChild(chart);
    return strip;
  };

  /** @param {string} name @param {string} cls */
  const cardFace = (name, cls) => {
    const f = face(name);
    const node = h(cls === "cc-cell" ? "button" : "span", cls + " cc-card" + (f.red ? " cc-red" : ""));
    node.appendChild(h("span", "cc-face", f.text));
    if (cls !== "cc-cell") node.setAttribute("aria-hidden", "true");
    return node;
  };

  /** @param {string} cls @param {string} text @param {string} label @param {() => void} onclick */
  const button = (cls, text, label, onclick) => {
    const node = h("button", cls + " cc-button", text);
    node.setAttribute("aria-label", label);
    node.dataset.key = cls;
    node.onclick = onclick;
    return node;
  };

  /** @param {{rows: Row[], text: string, preference: string}} hint */
  const hintTable = (hint) => {
    const box = h("div", "cc-hint");
    box.setAttribute("aria-label", "Hint");
    box.appendChild(h("p", "cc-hint-text", "★ " + hint.text));
    if (hint.preference) box.appendChild(h("p", "cc-hint-text cc-hint-preference", "▲ " + hint.preference));
    box.appendChild(h("p", "cc-hint-key", hint.preference ? "On the board: ★ the Hint's swap, ▲ the most points now."
      : "On the board: ★ the Hint's swap."));
    const table = h("table", "cc-hint-table");
    const head = h("tr");
    for (const word of ["Swap", "Hands", "Points", "Combo", "Moves", "Goal", "Look", "Finish", "Total"]) {
      const th = h("th", "", word);
      th.setAttribute("scope", "col");
      head.appendChild(th);
    }
    table.appendChild(h("thead")).appendChild(head);
    const body = h("tbody");
    for (const row of hint.rows) {
      const tr = h("tr", row.best ? "cc-best" : row.top ? "cc-top" : "");
      tr.dataset.swap = row.swap;
      const cells = [(row.best ? "★ " : row.top ? "▲ " : "") + row.swap, row.hands.join(", "), (row.sure ? "" : "≥") + row.points,
        `×${row.combo}`, row.extra_moves ? `+${row.extra_moves}` : "", String(row.goal), String(row.lookahead),
        String(row.finish), String(row.total)];
      cells.forEach((text, i) => {
        const td = h(i === 0 ? "th" : "td", "", text);
        if (i === 0) td.setAttribute("scope", "row");
        tr.appendChild(td);
      });
      body.appendChild(tr);
    }
    table.appendChild(body);
    const scroll = h("div", "cc-hint-scroll");
    scroll.tabIndex = 0; // it scrolls sideways on a phone: the keyboard must reach it
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", "Hint table: every legal swap");
    scroll.dataset.key = "hint-table";
    scroll.appendChild(table);
    box.appendChild(scroll);
    return box;
  };

  /** @param {any} result @param {boolean} link copy a board link (the dashboard's), not the bare code */
  const resultCard = (result, link) => {
    const card = h("div", "cc-result" + (result.passed ? " cc-passed" : ""));
    card.setAttribute("role", "region");
    card.setAttribute("aria-label", "Result");
    card.appendChild(h("h3", "cc-result-title", result.passed ? `Level cleared ${"★".repeat(result.stars)}` : "Not this time"));
    card.appendChild(h("p", "", `Score ${result.score} + bonus ${result.bonus} = ${result.final}`));
    const list = h("ul", "cc-result-goals");
    for (const g of result.goals) list.appendChild(h("li", "", `${g.goal}: ${g.have}/${g.need}${g.short ? ` — ${g.short} short` : " ✓"}`));
    card.appendChild(list);
    const row = h("div", "cc-result-buttons");
    row.appendChild(button("cc-retry", "Try again", "Try again: the same deal", () => send({ type: "retry" })));
    row.appendChild(button("cc-new", "New deal", "New deal of this level", () => send({ type: "new" })));
    // in the dashboard a link opens this deal for a friend, at any level (K16); elsewhere the code does
    const what = link ? "board link" : "board code";
    const text = link ? boardLink(result.code) : result.code;
    row.appendChild(button("cc-copy", copied === text ? `Copied the ${what}` : `Copy ${what}`,
      `Copy the ${what} of deal ${result.code}`, () => {
        copied = text;
        navigator.clipboard?.writeText(text).catch(() => {});
        draw();
      }));
    card.appendChild(row);
    return card;
  };

  model.on("change:board", draw);
  model.on("change:error", draw);
  model.on("change:theme", draw);
  draw();
  if (hostIsDark() && model.get("theme") !== "dark") send({ type: "theme", theme: "dark" });
  return () => timers.forEach(clearTimeout); // the view is gone: no redraw is left waiting
}

export default { render };
