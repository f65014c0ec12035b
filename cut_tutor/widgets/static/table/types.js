// The CUT table: draws the JSON view Python sends and sends back intents. No game logic lives here:
// every intent is checked in Python, which answers with a new view or an error. The game's words (card
// faces, counts, the legend) come from Python too, in ``table.words``.
// The table is drawn by the files of ``widgets/static/table/``, which Python joins into one page module in a fixed
// order (``cut_tutor.widgets.table.TABLE_PARTS``), after ``host.js`` (``h`` and ``hostIsDark``): this file first,
// ``render.js`` last. Each file draws one area of the table or keeps one thing between redraws.

/**
 * @typedef {{card: string, by: number, as?: string|null}} PileCard
 * @typedef {{move: string, label: string, cards: string[], to?: number, stack?: number, then?: string}} Action
 * @typedef {{seat: number, hand_count: number, known: string[], above?: string|null, stacks: (string|null)[][],
 *            cards_left: number, busts: number, hand?: string[], down?: boolean[][]}} SeatView
 * @typedef {{seat: number, players: number, dealer: number, turn: number, phase: string, hand: string[],
 *            seats: SeatView[], pile: PileCard[], top_run: number, pile_points: number,
 *            rules: {clear_rank: string|null, game?: string}, exposed: number[], pile_value?: string|null,
 *            winner: number|null, stalemate: boolean}} View
 * @typedef {{faces: Record<string, string>, left: string[], busts: string[], stacks: string[][], pile: string,
 *            legend: string[][]}} Words
 * @typedef {{mode: string, seat: number, view: View, names: string[], colours: string[],
 *            automated: boolean[], actions: Action[], highlight: Action|null, undo: boolean,
 *            selected?: Action|null, review?: boolean,
 *            pile_counts: boolean, status: string, last: string, step: string, dim?: boolean,
 *            legend?: Record<string, string>, words: Words, pause?: Pause|null, hand_over?: HandOver|null,
 *            history?: string[], links?: Record<string, string>, playable?: string[], adding?: Adding|null}} Table
 * @typedef {{kind: string, seat: number, cards: string[], by: number[], text: string}} Pause
 * @typedef {{number: number, card: string, stack?: number, where?: string}} AddCard
 * @typedef {{first: AddCard & {note: string}, groups: {title: string, note: string, cards: AddCard[]}[]}} Adding
 * @typedef {{name: string, colour: string, hand: string[], stacks: {card: string, risk: boolean}[][],
 *            points: number, busts: string, addon: string, score: number, total: number}} SeatResult
 * @typedef {{title: string, seats: SeatResult[], game_over: string, next: string}} HandOver
 */

/**
 * What the table keeps between redraws, shared by the areas that draw it and the handlers that change it: the
 * cards selected (the hand's also by their places), whether View settings and the History are open, the sizes.
 * @typedef {{model: any, el: HTMLElement, root: HTMLElement, send: (msg: Record<string, unknown>) => void,
 *            draw: () => void, selected: string[], selectedHand: number[], viewOpen: boolean,
 *            historyOpen: boolean, view: Record<string, number>}} Ui
 */
