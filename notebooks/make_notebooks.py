"""Write the learning-path notebooks from the cells below, so they are reviewed as code, not as JSON.

Run ``python notebooks/make_notebooks.py`` after changing a cell. It writes each notebook, executes it once, and
keeps outputs only on cells marked ``# NBVAL_CHECK_OUTPUT``: those outputs are what ``pytest --nbval-lax``
compares against, everything else is stored clean. ``--no-execute`` writes the cells without running them.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

import nbformat
from nbformat.notebooknode import NotebookNode

HERE = Path(__file__).resolve().parent
CHECK = "# NBVAL_CHECK_OUTPUT"
METADATA = {
    "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
}

#: Shared by the notebooks that build positions by hand: seat 0 to move. Needs ``State`` imported.
POSITION_HELPER = '''
EMPTY = ["", "", "", ""]


def position(hand, pile="", stacks=None, others=("K K Q Q J J 9 9 8 8",), phase="play", exposed=(), **rules):
    """Seat 0 to move with ``hand`` on ``pile`` against ``others``; stack cards in [brackets] are face down."""
    seats = [{"hand": hand, "stacks": list(stacks or EMPTY)}]
    seats += [{"hand": other, "stacks": EMPTY} for other in others]
    return State.from_position({"rules": {"players": len(seats)} | rules, "turn": 0, "pile": pile,
                                "seats": seats, "phase": phase, "exposed": list(exposed)})
'''


def setup(imports: str, after: str = "") -> tuple[str, str]:
    """A notebook's first code cell: its imports, the position helper, then anything else."""
    return code(textwrap.dedent(imports).strip() + "\n" + POSITION_HELPER + textwrap.dedent(after))


def md(text: str) -> tuple[str, str]:
    return ("markdown", textwrap.dedent(text).strip())


def code(text: str) -> tuple[str, str]:
    return ("code", textwrap.dedent(text).strip())


NOTEBOOKS: dict[str, list[tuple[str, str]]] = {}

NOTEBOOKS["01_your_first_game"] = [
    md("""
    # 1 · Your first game

    **Goal:** deal a hand of *Clear, Under or Take*, read the position, ask the coach for a play, and play the
    hand out. About five minutes. The rules are summed up in the player's guide (*Welcome* and *How to play*).
    """),
    code("""
    from cut_tutor import Rules, State, view
    from cut_tutor.coach import AIPlayer, advise
    from cut_tutor.engine.words import SEAT_NAMES, drawn_status
    from cut_tutor.review.words import position_title

    rules = Rules()  # the USA preset, four players
    state = State.deal(rules, seed=2024, dealer=0)
    state
    """),
    md("""
    Every seat has a **hand**, four face-up **Board** cards, and under each of them a face-down **Risk** card.
    The seats have the names the tutor's table gives them: You, then Ann, Ben and Cleo. You deal, so Ann — on the
    dealer's left — leads onto an empty pile (R6).

    The deal code names this exact shuffle: paste it into the dashboard to deal the same cards.
    """),
    code(f"""
    {CHECK}
    me = state.turn
    print("deal code:", state.deal_code)
    print(position_title(view(state, me), SEAT_NAMES))
    print("hand:", " ".join(view(state, me)["hand"]))
    """),
    md("""
    On an empty pile anything goes. Which play is best? Ask the coach. `advise` reads only what this seat can see
    (its `view`), names a move and explains it; `Madonna` is the balanced coach, and `Average` is the Level
    that sees the most hints. Its `labels` are the legal moves as the table's buttons read.
    """),
    code("""
    advice = advise(view(state, me), coach="Madonna", level="Average")
    print("legal moves:", ", ".join(advice.labels[m] for m in state.legal_moves()))
    print(advice.label)
    print(advice.text)
    """),
    md("Behind the sentence is a score for every legal move, split into parts (see *The coach* in the guide):"),
    code("advice.to_frame(labels=True)"),
    md("""
    Take the advice, then let AI seats play the rest of the hand: Experienced players, Balanced style, each with
    its own seeded random source so the hand plays the same every time.
    """),
    code("""
    state.play(advice.move)
    seats = [AIPlayer("Experienced", "Balanced", seed=s) for s in range(rules.players)]
    while not state.over:
        state.play(seats[state.turn].choose_view(view(state, state.turn)))
    print(drawn_status(state.turns, state.turn, SEAT_NAMES, state.winner, state.stalemate), "after", state.turns,
          "turns")
    print("points:", dict(zip(SEAT_NAMES, state.scores())))
    """),
    md("""
    Lowest points are best: the winner scores nothing and everyone else scores what they were left holding.

    ## Play it yourself

    The tutor app is the same engine with a table, a coaching panel and the Scores. Press **Deal & play**.
    (It keeps its save in a temporary folder here, so this notebook never touches your real games.)
    """),
    code("""
    import tempfile

    try:
        from cut_tutor.widgets import GameApp
    except ImportError:  # the widgets extra is not installed
        GameApp = None

    app = GameApp(home=tempfile.mkdtemp(prefix="cut-tutor-")) if GameApp else None
    app
    """),
]

NOTEBOOKS["02_rules_step_by_step"] = [
    md("""
    # 2 · The rules, step by step

    **Goal:** see each rule of a turn on a small position built by hand, and the legal moves it allows. Every
    section cites the rule number from the guide's *How to play* page.

    The legal moves print as the tutor's buttons read them (`Play 2× 9`, `Play 2× clear`, `Take (show K)`,
    `Flip pile 3`), seats by the names the table gives them (You, Ann) and turns as the rules count them. In code
    a move is written short: `2×9` is two 9s, `clear 10+JK` a 10 and a Joker, `take K` showing a King to take the
    pile, `flip 3` a blind play of stack 3, and `s4` a stack card joining a play.
    """),
    setup(
        """
        from cut_tutor import Move, State, view
        from cut_tutor.coach import advise
        from cut_tutor.engine.words import SEAT_NAMES, drawn_status
        """,
        '''

def moves(state):
    """The legal moves of the seat to move, as the table's buttons read."""
    labels = advise(view(state, state.turn)).labels
    return [labels[m] for m in state.legal_moves()]


def pile(state):
    """The pile's cards, bottom first, or (empty)."""
    return " ".join(entry["card"] for entry in view(state, state.turn)["pile"]) or "(empty)"


def status(state):
    """Whose turn it is, or who went out, in the table's words."""
    return drawn_status(state.turns, state.turn, SEAT_NAMES, state.winner, state.stalemate)
''',
    ),
    md("""
    ## Equal or lower (R8)

    A 9 is on top. You may play 9s or anything lower; a King is too high — but you may show it to take the pile.
    """),
    code(f"""
    {CHECK}
    state = position("9 9 5 K", pile="9@1")
    print(moves(state))
    """),
    code("""print(state.why_illegal(Move.parse("1×K")))"""),
    md("On an empty pile any rank goes, so a pair of 5s and a King are all playable."),
    code(f"""
    {CHECK}
    print(moves(position("K 5 5")))
    """),
    md("""
    ## Clearing with a 10 or a Joker (R9)

    Clear cards play on any pile, alone or together. The pile leaves the game and **the same seat plays again**.
    """),
    code(f"""
    {CHECK}
    state = position("8 10 JK 3", pile="Q@1 Q@1")
    print(moves(state))
    state.play("clear 10")
    print("pile:", pile(state), "|", status(state))
    """),
    md("""
    ## The natural clear: four of a kind (R10)

    Two 7s are on the pile. Laying two more makes four: the pile clears without spending a clear card.
    """),
    code(f"""
    {CHECK}
    state = position("7 7 2", pile="7@1 7@1")
    print(moves(state))
    state.play("2×7")
    print("pile:", pile(state), "|", status(state))
    """),
    md("""
    ## USA cap versus Canada (R10, 4+ Card Clears)

    With three 7s in hand on two 7s, USA rules stop at the fourth card: *Play 3× 7* (`3×7`) is not allowed.
    Canada's *4+ Card Clears* lets all five clear together.
    """),
    code(f"""
    {CHECK}
    usa = position("7 7 7 2", pile="7@1 7@1")
    canada = position("7 7 7 2", pile="7@1 7@1", four_plus_clears=True)
    print("USA:   ", moves(usa))
    print("Canada:", moves(canada))
    """),
    code("""print(usa.why_illegal(Move.parse("3×7")))"""),
    md("""
    ## Only Jokers clear (R2)

    Set the clear rank to none and a 10 becomes an ordinary card between 9 and J.
    """),
    code(f"""
    {CHECK}
    print("10s clear:   ", moves(position("10 8 K", pile="Q@1")))
    print("only Jokers: ", moves(position("10 8 K", pile="Q@1", clear_rank=None)))
    """),
    md("""
    ## Taking the pile (R11)

    With nothing that fits you must take — bare, or showing a higher card (here the K). With a higher card you
    may also take on purpose while a play is open, showing it. The cards you take stay *known*: everyone saw
    them.
    """),
    code(f"""
    {CHECK}
    forced = position("K", pile="Q@1")
    print("forced:    ", moves(forced))
    forced.play("take")
    seat0 = forced.to_position()["seats"][0]
    print("hand now:  ", seat0["hand"], "| known to all:", seat0["known"], "| busts:", seat0["busts"])
    print("next:      ", status(forced), "on", pile(forced))
    """),
    md("""
    ## Hand first; Board cards join a play that empties the hand (R7)

    One 9 in hand and a face-up 9 on stack 4: *Play 2× 9 (pile 4)* plays both, because it empties the hand.
    """),
    code(f"""
    {CHECK}
    print(moves(position("9", pile="9@1", stacks=["[3] Q", "[4] 2", "[6] 7", "[JK] 9"])))
    """),
    md("With the hand empty, face-up Board cards play like hand cards — each one names its pile:"),
    code(f"""
    {CHECK}
    print(moves(position("", pile="9@1", stacks=["[3] Q", "[4] 2", "[6] 7", "[JK] A"])))
    """),
    md("""
    ## Blind plays (R12)

    Hand and Board gone, only face-down Risk cards remain: choose a stack and turn its card. We built this
    position, so we know what is under each: a 3 fits on a 9, a King does not and takes the pile.
    """),
    code(f"""
    {CHECK}
    blind = position("", pile="9@1", stacks=["[3]", "[K]", "[5]", "[JK]"])
    print(moves(blind))
    lands = blind.copy()
    lands.play("flip 1")
    print("Flip pile 1:", pile(lands))
    busts = blind.copy()
    busts.play("flip 2")
    print("Flip pile 2: bust, hand now", busts.to_position()["seats"][0]["hand"])
    """),
    md("""
    ## Going out (R14)

    One card left, face down. If it fits, the hand ends at once: you win and the others score what they hold.
    """),
    code(f"""
    {CHECK}
    last = position("", pile="6@1", stacks=["", "", "", "[4]"])
    print(moves(last))
    last.play("flip 4")
    print(status(last), "| scores:", dict(zip(SEAT_NAMES, last.scores())))
    """),
]

NOTEBOOKS["03_three_coaches"] = [
    md("""
    # 3 · Three coaches, one position

    **Goal:** watch Daryl (safe), Madonna (balanced) and Marty (risky) argue the same positions, and read the
    move-value tables that explain each choice.
    """),
    setup(
        """
        import pandas as pd

        from cut_tutor import State, view
        from cut_tutor.coach import COACHES, advise, compare
        """,
        """
pd.set_option("display.max_colwidth", 120)
for name, description in COACHES.items():
    print(f"{name}: {description}\\n")
""",
    ),
    md("""
    ## A pair of Kings on the pile

    Twelve cards in hand, including a Joker. Three coaches, two plays: Daryl and Madonna both take the solid pair
    of 7s, while Marty sheds the J and keeps the 7s for the line that follows.
    """),
    code("""
    kings = position("JK J 8 7 7 6 5 3 2 2 2 A", pile="K@1 K@1",
                     others=("K Q Q J 9 9 8 6 5 4 3", "Q J J 9 8 7 6 4 4 3 A"))
    kings
    """),
    code("compare(view(kings, 0), labels=True)"),
    code("""
    # the claim above, checked: Marty alone plays the J
    picks = {coach: advise(view(kings, 0), coach).label for coach in COACHES}
    assert picks == {"Daryl": "Play 2× 7", "Madonna": "Play 2× 7", "Marty": "Play 1× J"}, picks
    picks
    """),
    md("""
    Each coach scores every legal move by the same parts; only the weights differ. Here two parts decide: the 7s
    shed more, and the J's line (what it sets up for the turns after) is worth more, by the same amount to every
    coach. Daryl and Madonna weigh the shed enough to take the 7s; Marty weighs it least, so the J's line and its
    assets carry his choice. The spare clear that Marty likes to spend, the Joker, is not his pick here: no coach
    ranks it in their top four.
    """),
    code("""
    for coach in ("Daryl", "Madonna", "Marty"):
        print(coach)
        display(advise(view(kings, 0), coach).to_frame(labels=True).head(4))
    """),
    code("""
    # the paragraph above, checked: the 7s against the J, part by part, for each coach (positive: the 7s gain)
    parts = {coach: advise(view(kings, 0), coach).to_frame(labels=True).set_index("move") for coach in COACHES}
    edge = pd.DataFrame({coach: frame.loc["Play 2× 7", ["shed", "assets", "line", "total"]]
                         - frame.loc["Play 1× J", ["shed", "assets", "line", "total"]]
                         for coach, frame in parts.items()}).T.astype(float).round(2)
    assert (edge["shed"] > 0).all() and (edge["line"] < 0).all() and edge["line"].nunique() == 1, edge
    assert edge.loc["Daryl", "total"] > 0 and edge.loc["Madonna", "total"] > 0 > edge.loc["Marty", "total"], edge
    assert edge["shed"].idxmin() == "Marty", edge
    assert all("Play 1× clear" not in frame.index[:4] for frame in parts.values()), parts
    print("The 7s less the J, part by part (positive: the 7s gain)")
    edge
    """),
    md("""
    ## Late in the hand

    Five cards left on a pair of 9s; one opponent is down to two cards.
    """),
    code("""
    late = position("Q 9 4 4 A", pile="9@2 9@2", others=("K J 9 9 4 4 2 A", "8 3"))
    compare(view(late, 0), labels=True)
    """),
    md("""
    ## Where they agree

    An empty pile and a pair of Queens: every coach leads high. Agreement is information too — when all three
    say the same, the position is not arguable.
    """),
    code("""
    lead = position("10 Q Q 6 3", others=("K J 9 8 7 7 5",))
    compare(view(lead, 0), labels=True)
    """),
    md("""
    ## Side by side

    One table of every move and each coach's total, sorted by Madonna's: her pick and Daryl's head the table, while
    Marty's highest total is the J one row down. Each coach recommends the move with the highest total in their
    own column.
    """),
    code("""
    totals = pd.DataFrame({coach: advise(view(kings, 0), coach).to_frame(labels=True).set_index("move")["total"]
                           for coach in ("Daryl", "Madonna", "Marty")}).sort_values("Madonna", ascending=False)
    assert {coach: totals[coach].idxmax() for coach in totals} == picks  # each column's top is that coach's pick
    totals
    """),
    md("""
    ## Who is right? Ask the analysis

    The coaches' totals are a heuristic. `analyse` measures instead: every legal move is played out to the end of
    the hand by Expert seats on deals re-dealt from seat 0's view (never the real hidden cards), and each move gets
    its expected points for the hand with a 95% interval, and its gap to the best on the same deals. A short
    analysis of the late position first: 300 rollouts leave wide intervals, and the caption says how many gaps are
    known to ±2 points.
    """),
    code("""
    from cut_tutor.analysis import analyse

    check = analyse(view(late, 0), seconds=None, seed=3, max_rollouts=300, aim="gaps")
    check
    """),
    md("""
    ## Analyse longer

    `resume=` continues the same analysis on the deals after its own, as the coach panel's *Analyse longer* button
    does, and every figure is then of all the rollouts. Here that settles the position: every gap is known to ±2
    points or too close to call, and the best is the 9 that Daryl and Marty play; the two 4s that Madonna plays
    lose more than 5 points.
    """),
    code("""
    longer = analyse(view(late, 0), seconds=None, max_rollouts=1200, resume=check, aim="gaps")
    assert longer.stopped == "apart" and longer.settled == len(longer.moves) - 1, longer.status
    late_picks = {coach: advise(view(late, 0), coach).label for coach in COACHES}
    gaps = {coach: next(m.gap for m in longer.moves if m.label == move) for coach, move in late_picks.items()}
    assert longer.best.label == late_picks["Daryl"] == late_picks["Marty"] == "Play 1× 9", late_picks
    assert late_picks["Madonna"] == "Play 2× 4", late_picks
    assert gaps["Madonna"] > 5, gaps
    display(longer)
    gaps
    """),
]

NOTEBOOKS["04_playing_the_line"] = [
    md("""
    # 4 · Playing the line

    **Goal:** see when the coach chooses a smaller play now for a better next few turns (C5), how the Level
    changes that, and when a sure thing overrules it.
    """),
    setup(
        """
        from cut_tutor import State, view
        from cut_tutor.coach import AIPlayer, advise
        """
    ),
    md("""
    A Queen is on top. You hold J 7 7 5 5. The biggest shed is a pair — but which leaves a hand that finishes
    sooner?
    """),
    code("""
    line = position("J 7 7 5 5", pile="Q@1", others=("K K Q Q 9",))
    for level in ("Average", "Experienced", "Expert"):
        print(f"{level:12}", advise(view(line, 0), coach="Madonna", level=level).text)
    """),
    md("""
    Average weighs this turn only; Experienced looks one turn ahead and Expert two. The `line` column is what
    lookahead adds; `turn_value` is the move's worth for this turn alone.
    """),
    code("""
    expert = advise(view(line, 0), coach="Madonna", level="Expert")
    table = expert.to_frame(labels=True)
    table["this turn"] = [c.turn_value for c in expert.candidates]
    table
    """),
    md("The plan behind the recommendation is a list of plays the coach expects to make next:"),
    code("""
    print(expert.plan)
    """),
    md("""
    ## Checking the plan

    The line assumes the pile comes back at a middling rank. Play the J, let the opponent take, and see
    whether the plan holds.
    """),
    code("""
    state = line.copy()
    state.play(expert.move)
    opponent = AIPlayer("Expert", "Balanced", seed=4)
    reply = opponent.choose_view(view(state, 1))
    print("opponent:", advise(view(state, 1)).labels[reply])
    state.play(reply)
    while state.turn == 0 and not state.over:
        step = advise(view(state, 0), coach="Madonna", level="Expert")
        print("you:", step.label, "—", step.text)
        state.play(step.move)
    print("after our turn:", view(state, 0)["hand"])
    """),
    md("""
    ## A sure thing keeps its own advice

    When a play goes out or completes a clear, lookahead never argues with it (C5). Here two 9s on the pile and
    two in hand: completing four clears the pile, and the coach says so.
    """),
    code("""
    sure = position("9 9 K 4 4", pile="9@1 9@1")
    print(advise(view(sure, 0), level="Expert").text)
    """),
]

NOTEBOOKS["05_risk"] = [
    md("""
    # 5 · Risk: blind cards and what a pile costs

    **Goal:** work out the odds that a blind card fits, price a pile, and see when each coach gambles.
    """),
    setup(
        """
        import pandas as pd

        from cut_tutor import State, view
        from cut_tutor.coach import advise
        from cut_tutor.engine import unseen
        from cut_tutor.engine.cards import JOKER
        from cut_tutor.engine.words import cards_text, pts
        """
    ),
    md("""
    ## The odds that a blind card fits

    A blind card comes from the cards your seat cannot see. It fits if it is a clear card or at or below the top
    of the pile (R12). `unseen(view)` counts those cards by rank, from your seat's view only (C2).
    """),
    code("""
    def fit_chance(state, seat=0):
        v = view(state, seat)
        pool = unseen(v)
        top = state.top
        clear = state.rules.is_clear
        fits = sum(n for rank, n in enumerate(pool) if clear[rank] or (0 < rank <= top and rank != JOKER))
        return fits / sum(pool)
    """),
    code(f"""
    {CHECK}
    for top in ("A", "3", "5", "7", "9", "J", "K"):
        chance = fit_chance(position("", pile=f"{{top}}@1", stacks=["[5]", "", "", ""]))
        print(f"pile top {{top:>2}}: a blind card fits {{chance:.0%}}")
    """),
    md("""
    Early in a hand almost nothing has been seen, so the odds are close to the deck's own: a blind card on a
    King nearly always fits, on an Ace it fits only if it is an Ace or a clear card.

    ## What a pile costs

    A blind card that misses gives you the pile. Its price is the card points in it (R3):
    """),
    code(f"""
    {CHECK}
    for pile in ("9@1", "9@1 7@1 7@1", "K@1 Q@1 J@1 9@1 9@1 5@1"):
        state = position("", pile=pile, stacks=["[5]", "", "", ""])
        miss = 1 - fit_chance(state)
        cost = state.pile_points()
        words = cards_text(state.pile)
        print(f"a pile of {{words:11}} costs {{pts(cost):>6}}; a blind card's expected cost {{miss * cost:4.1f}}")
    """),
    md("""
    ## When each coach gambles

    Risk Play is on and you have just played a Board card: its Risk card is exposed. Gamble it, or stop
    (**Done**)? The answer depends on the pile and on the coach.
    """),
    code("""
    piles = {"one 3": "3@1", "pair of 6s": "6@1 6@1", "three 9s": "9@1 9@1 9@1",
             "high and costly": "Q@1 Q@1 J@1 J@1 9@1"}
    gambles = []
    for label, pile in piles.items():
        state = position("", pile=pile, stacks=["[K]", "8", "Q", "J"], phase="gamble", exposed=[1], risk_play=True)
        row = {"pile": label, "costs": state.pile_points(), "fits": f"{fit_chance(state):.0%}"}
        for coach in ("Daryl", "Madonna", "Marty"):
            row[coach] = advise(view(state, 0), coach).label
        gambles.append(row)
    pd.DataFrame(gambles)
    """),
    md("""
    Daryl flips only into an empty pile; Marty gambles on a high pile, where the card is likely to fit. The
    `risk` column of the analysis is the chance of a miss times the pile's cost:
    """),
    code("""
    high = position("", pile="9@1 9@1 9@1", stacks=["[K]", "8", "Q", "J"], phase="gamble", exposed=[1],
                    risk_play=True)
    advise(view(high, 0), "Marty").to_frame(labels=True)
    """),
    md("""
    ## Turn it up first? (Pile Card Flip)

    With Pile Card Flip on you may spend the turn turning a face-down card up instead of gambling it. On an
    expensive pile that can be the cheaper choice.
    """),
    code("""
    rows = []
    for label, pile in {"cheap": "7@1", "costly": "Q@1 Q@1 J@1 9@1 8@1 8@1"}.items():
        state = position("", pile=pile, stacks=["[K] [4]", "[9] [Q]", "", ""], piles_face_down=True,
                         pile_card_flip=True)
        rows.append({"pile": label, "costs": state.pile_points(),
                     **{coach: advise(view(state, 0), coach).label for coach in ("Daryl", "Madonna", "Marty")}})
    pd.DataFrame(rows)
    """),
]

NOTEBOOKS["06_variants"] = [
    md("""
    # 6 · Variants

    **Goal:** compare the optional rules by simulation: USA against Canada, only Jokers clear, Piles Face Down
    and Pile Card Flip. Four Expert Balanced seats play the same shuffles under each ruleset.
    """),
    code("""
    import pandas as pd

    from cut_tutor import Rules
    from cut_tutor.sim import simulate

    HANDS = 60
    seats = ["Expert:Balanced"] * 4
    variants = {
        "USA": Rules(),
        "Canada": Rules.from_preset("Canada"),
        "only Jokers clear": Rules(clear_rank=None),
        "Piles Face Down": Rules(piles_face_down=True),
        "Face Down + Pile Card Flip": Rules(piles_face_down=True, pile_card_flip=True),
        "Risk Play": Rules(risk_play=True),
    }
    """),
    md("A preset fills four settings; changing any of them makes the rules *Custom* (R21):"),
    code(f"""
    {CHECK}
    for name, rules in variants.items():
        print(f"{{name:28}} preset={{rules.preset:7}} dealt={{rules.cards_dealt}} clear value={{rules.clear_value}}")
    """),
    code("""
    rows = []
    for name, rules in variants.items():
        frame = simulate(seats, rules, hands=HANDS, seed=6)
        per_hand = frame.groupby("hand").agg(turns=("turns", "first"), stalemate=("stalemate", "first"))
        rows.append({
            "variant": name,
            "points per seat": frame["points"].mean(),
            "busts per seat": frame["busts"].mean(),
            "clears per seat": frame["clears"].mean(),
            "blind plays per seat": frame["blind_plays"].mean(),
            "turns per hand": per_hand["turns"].mean(),
            "stalemates": int(per_hand["stalemate"].sum()),
        })
    results = pd.DataFrame(rows).set_index("variant").round(2)
    results
    """),
    md("""
    Things to look for:

    - **Canada** deals one card fewer and doubles the Clear Card value: leftover clear cards hurt more.
    - **Only Jokers clear** removes most clear cards, so piles grow longer and busts grow more common.
    - **Piles Face Down** makes every table card blind; **Pile Card Flip** trades turns for certainty.

    Sixty hands is a small sample: rerun with more `HANDS` (or in the simulation lab) before drawing a
    conclusion.
    """),
    md("""
    ## Clear 4: another game on the same engine

    Clear 4 (R22) is its own card game, played as a rules preset: a 120-card deck (1–10 ten times each, 7 PUSH,
    7 JOKER, 6 CLEAR), four stacks of three cards (a blind final card, a face-down middle card that turns up when
    the card above is played, and a face-up top) and a hand of 8. A JOKER takes the value of the cards it joins,
    a PUSH sends the pile to a seat you choose, the fourth card of a value clears the pile, and you may pass
    (take the pile) whenever it is not empty. It is played over rounds, each card left counting one point.
    """),
    code(f"""
    {CHECK}
    from cut_tutor import State, view
    from cut_tutor.coach import advise
    from cut_tutor.engine.words import SEAT_NAMES
    from cut_tutor.review.words import position_title

    clear4 = Rules.from_preset("Clear 4", players=4)
    print(clear4.preset, "·", clear4.players, "players ·", len(clear4.deck()), "cards ·", clear4.rounds, "rounds")
    print("stack depth", clear4.stack_depth, "· hand", clear4.hand_size)
    try:
        Rules.from_preset("Clear 4", risk_play=True)
    except ValueError as error:
        print(error)
    """),
    md("""
    A dealt hand, as the first seat to play sees it: the final and middle cards are hidden (`None`), even from
    their owner, and only the top card of each stack shows. The view's card names are the engine's: `A` is Clear
    4's 1 (the table shows it as 1), `P` a PUSH, `J*` a JOKER and `CL` a CLEAR; the moves print as the buttons
    read, with the table's faces.
    """),
    code(f"""
    {CHECK}
    hand = State.deal(clear4, seed=4)
    seen = view(hand, hand.turn)
    print(position_title(seen, SEAT_NAMES))
    print("hand:", " ".join(seen["hand"]))
    print("stacks:", seen["seats"][hand.turn]["stacks"])
    labels = advise(seen).labels
    print("legal moves:", len(seen["legal"]), "· for example", ", ".join(labels[m] for m in hand.legal_moves()[:4]))
    """),
    code("""
    hand  # the position draws itself
    """),
    md("""
    ### CUT against Clear 4 by simulation

    The same four Experienced Balanced seats play each game; then one Expert seat plays three Random seats in
    every seat rotation (`duplicate=True`). Hand length is in turns; *went out from* counts where the winner sat,
    as seats after the dealer (1 plays first).
    """),
    code("""
    GAMES_HANDS = 40
    games = {"CUT (USA)": Rules(players=4), "Clear 4": clear4}
    rows, out_from = [], {}
    for name, rules in games.items():
        frame = simulate(["Experienced:Balanced"] * 4, rules, hands=GAMES_HANDS, seed=22)
        per_hand = frame.groupby("hand").agg(turns=("turns", "first"), stalemate=("stalemate", "first"))
        rows.append({
            "game": name,
            "turns per hand": per_hand["turns"].mean(),
            "median turns": per_hand["turns"].median(),
            "longest hand": per_hand["turns"].max(),
            "takes per seat": frame["busts"].mean(),
            "clears per seat": frame["clears"].mean(),
            "stalemates": int(per_hand["stalemate"].sum()),
        })
        winners = frame[frame["went_out"]]
        after_dealer = (winners["seat"] - winners["hand"]) % 4
        out_from[name] = after_dealer.replace(0, 4).value_counts().sort_index()
    pd.DataFrame(rows).set_index("game").round(1)
    """),
    code("""
    pd.DataFrame(out_from).fillna(0).astype(int).rename_axis("went out from seat after the dealer")
    """),
    code("""
    rows = []
    for name, rules in games.items():
        frame = simulate(["Expert:Balanced", "Random", "Random", "Random"], rules, hands=GAMES_HANDS // 2,
                         seed=23, duplicate=True)
        for level, part in frame.groupby("level"):
            rows.append({"game": name, "seat": level, "go-out rate": part["went_out"].mean(),
                         "points per hand": part["points"].mean()})
    pd.DataFrame(rows).set_index(["game", "seat"]).round(2)
    """),
    md("""
    Things to look for:

    - **Points are not comparable across the games**: CUT scores card values (a clear card 25), Clear 4 one point
      per card. Compare go-out rates and hand lengths instead.
    - **The Expert seat against Random** shows how much skill each game rewards: if luck decided everything,
      each of the four seats would go out in about a quarter of the hands.
    - Forty hands is a small sample: raise `GAMES_HANDS` for firmer numbers.
    """),
]

NOTEBOOKS["07_simulation_lab"] = [
    md("""
    # 7 · The simulation lab

    **Goal:** run style and level tournaments, read the tables, plot the spread of scores, and run the same
    simulation on a Dask cluster. The guide's claims about the styles (C8) are things you can test here.
    """),
    code("""
    import pandas as pd

    from cut_tutor import Rules
    from cut_tutor.sim import simulate, summary

    HANDS = 80  # small so this notebook runs in seconds; raise it for firmer numbers
    """),
    md("""
    ## Style tournament

    Three Expert seats, one per Style. `duplicate=True` plays every shuffle once per seating rotation, so the
    luck of the deal cancels out.
    """),
    code("""
    styles = simulate(["Expert:Rock", "Expert:Balanced", "Expert:Gambler"], Rules(players=3),
                      hands=HANDS, seed=7, duplicate=True)
    summary(styles).round(2)
    """),
    md("""
    The coaches' descriptions say Rock goes out about as often as the others but pays more on the hands it loses,
    and Gambler has the widest spread of hand scores. Over 20,000 hands under the USA rules neither holds (the
    guide's *Simulation honesty* gives the figures). A few dozen hands cannot tell differences of a point or two
    apart, so read the table below as a start and raise `HANDS` to test the claims yourself. Points on the hands
    each style lost, and the spread:
    """),
    code("""
    lost = styles[~styles["went_out"]]
    pd.DataFrame({
        "go-out rate": styles.groupby("style")["went_out"].mean(),
        "points when not out": lost.groupby("style")["points"].mean(),
        "spread (sd)": styles.groupby("style")["points"].std(),
    }).round(2)
    """),
    code("""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
        print("matplotlib is not installed (it comes with the sim extra): skipping the plot")

    if plt:
        fig, ax = plt.subplots(figsize=(6, 3))
        order = ["Rock", "Balanced", "Gambler"]
        ax.boxplot([styles.loc[styles["style"] == s, "points"] for s in order])
        ax.set_xticks(range(1, 4), order)
        ax.set_ylabel("points per hand (lower is better)")
        ax.set_title("Hand scores by Style, Expert level")
        plt.show()
    """),
    md("""
    ## Level tournament

    Same style, three Levels. Higher Levels should score better by a clear margin (C4); the `ci95` column is a
    95% confidence interval on the mean.
    """),
    code("""
    levels = simulate(["Expert:Balanced", "Experienced:Balanced", "Average:Balanced"], Rules(players=3),
                      hands=HANDS, seed=7, duplicate=True)
    summary(levels).round(2)
    """),
    md("""
    ## The analysis seat

    An analysis seat plays each decision by the Monte-Carlo analysis of its own view (the guide's *Playing by the
    analysis*). `Analysis:40:open` analyses only open endgames, once it has seen every card the others hold, with 40
    rollouts, and plays the Expert's move elsewhere. Seat it as player 0, then an Expert in its place with the same
    seed and the same other seats: `same_chair` pairs the two runs hand by hand, the reader's points per hand minus the
    Expert's in the same chair on the same deals (negative: fewer, better), with a 95% interval. Each reader hand costs
    about a second of analysis, so this run is short and its interval wide; the guide's figure, over 100 deals × 4
    chairs, is 7.4 points per hand fewer (95% interval 5.1 to 9.8).
    """),
    code("""
    from cut_tutor.sim import same_chair

    READ_HANDS = 3  # deals; each is played once per chair
    others = ["Expert:Balanced"] * 3
    reader = simulate(["Analysis:40:open", *others], Rules(), hands=READ_HANDS, seed=7, duplicate=True)
    expert = simulate(["Expert:Balanced", *others], Rules(), hands=READ_HANDS, seed=7, duplicate=True)
    same_chair(reader, expert)
    """),
    md("""
    ## The same on Dask

    `simulate` takes any executor with `submit`: a `concurrent.futures` pool or a Dask `distributed.Client`.
    Results do not depend on the executor, so the cluster run equals the one above. A threaded, in-process
    client keeps this quick; on a real cluster use `Client("scheduler-address:8786")` and more hands.
    """),
    code("""
    try:
        from distributed import Client
    except ImportError:
        Client = None
        print("dask.distributed is not installed (the sim extra)")

    if Client:
        with Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as client:
            on_dask = simulate(["Expert:Balanced", "Experienced:Balanced", "Average:Balanced"], Rules(players=3),
                               hands=HANDS, seed=7, duplicate=True, executor=client, chunk=20)
        print("same as the serial run:", on_dask.equals(levels))
    """),
]

NOTEBOOKS["08_review_your_game"] = [
    md("""
    # 8 · Review your game

    **Goal:** record a hand, step back through it, and compare each of your moves with the coach's.
    """),
    code("""
    import pandas as pd

    from cut_tutor import Move, Rules, State, record_of, replay, view
    from cut_tutor.coach import AIPlayer, advise
    from cut_tutor.engine.words import SEAT_NAMES, drawn_status
    from cut_tutor.review.words import turn_number

    rules = Rules(players=3)
    state = State.deal(rules, seed=88, dealer=2)
    # Seat 0 is "You" (then Ann and Ben, as the table names them): an Average Gambler, so there are mistakes to find.
    players = [AIPlayer("Average", "Gambler", seed=1), AIPlayer("Expert", "Balanced", seed=2),
               AIPlayer("Expert", "Rock", seed=3)]
    while not state.over:
        state.play(players[state.turn].choose_view(view(state, state.turn)))
    record = record_of(state)
    print("deal", record["deal"], "|", len(record["moves"]), "moves |",
          drawn_status(state.turns, state.turn, SEAT_NAMES, state.winner, state.stalemate))
    """),
    md("""
    A hand record is the rules, the deal code and the moves: plain JSON that replays the hand exactly.
    `replay(record, upto=k)` gives the position after `k` moves.
    """),
    code(f"""
    {CHECK}
    print(replay(record).to_position() == state.to_position())
    """),
    md("""
    ## Your moves against the coach

    At every move you made (seat 0 in the code), ask the coach (Madonna, Expert) what it would have played from
    the same view, and by how much it valued its move over yours.
    """),
    code("""
    rows, steps = [], []  # steps: where each decision is in the record, for replay(record, upto=step)
    for step, made in enumerate(record["moves"]):
        before = replay(record, upto=step)
        if before.turn != 0 or len(before.legal_moves()) < 2:
            continue
        seen = view(before, 0)
        advice = advise(seen, coach="Madonna", level="Expert", names=SEAT_NAMES)
        totals = {c.move: c.total for c in advice.candidates}
        played = Move.parse(made)
        steps.append(step)
        rows.append({"turn": turn_number(seen), "pile top": seen["pile"][-1]["card"] if seen["pile"] else "-",
                     "you": advice.labels[played], "coach": advice.label,
                     "cost": round(totals[advice.move] - totals[played], 1)})
    review = pd.DataFrame(rows)
    review["agrees"] = review["you"] == review["coach"]
    print(f"you agreed with the coach on {review['agrees'].mean():.0%} of {len(review)} decisions")
    review.sort_values("cost", ascending=False).head(8).set_index("turn")
    """),
    md("Step to the costliest decision and look at the table there:"),
    code("""
    worst = steps[review.sort_values("cost", ascending=False).index[0]]
    position = replay(record, upto=worst)
    display(position)
    advise(view(position, 0), coach="Madonna", level="Expert").to_frame(labels=True)
    """),
    md("""
    ## The replayer

    With the widgets installed, the Replayer steps through the same record with buttons and a slider, and
    marks the moves where the coach would have played differently.
    """),
    code("""
    try:
        from cut_tutor.widgets import Replayer
    except ImportError:
        Replayer = None
        print("the widgets extra is not installed: use replay(record, upto=k) as above")

    if Replayer:
        replayer = Replayer(record, coach="Madonna", level="Expert")
        replayer.go(worst)
        display(replayer)
    """),
    md("""
    ## The hand review

    The coach's totals are a heuristic. The hand review asks the Monte-Carlo analysis instead, from what you
    could see at each decision: the loss of each move in expected points with its interval, a grade where the
    loss is clear of noise (?! inaccuracy, ? mistake, ?? blunder), the coaches whose advice you followed (at your
    Level, Average here), the accuracy, and the luck the deal and the other seats' plays brought (the guide's
    *Hand review* page). A small budget keeps this notebook quick; the
    app spends more on each decision, part to choose the best and part to measure the loss on fresh deals.
    """),
    code("""
    from cut_tutor.review import review as review_hand

    hand = review_hand(record, 0, rollouts=24, deal_rollouts=8, level="Average")
    s = hand.summary
    print(f"{s.decisions} decisions, accuracy {s.accuracy}%, {s.lost_to_mistakes} points lost to mistakes,"
          f" luck {s.luck:+}")
    columns = ["turn", "label", "coaches", "best_label", "loss", "loss_low", "grade"]
    pd.DataFrame([d.to_dict() for d in hand.decisions])[columns].rename(
        columns={"label": "you played", "coaches": "you followed", "best_label": "best"})
    """),
    md("""
    The review panel shows the same table in the buttons' words. *Next mistake* steps to a graded move;
    *Find a better move* puts you back in that position with the answer hidden, and shows the analysis only once
    you have chosen.
    """),
    code("""
    if Replayer:
        from cut_tutor.widgets.review_panel import ReviewPanel

        panel = ReviewPanel(record, hand, names=SEAT_NAMES, rollouts=24)  # retries analysed as the review was
        panel.next_mistake()
        display(panel)
    """),
    md("""
    ## What you knew

    The belief panel shows, at the costliest decision, what you knew of the other seats, the cards you could
    not see, and the chance the next seat can play on a pile top, over deals consistent with your view.
    """),
    code("""
    if Replayer:
        from cut_tutor.widgets.belief_panel import BeliefPanel

        display(BeliefPanel(view(replay(record, upto=worst), 0), names=SEAT_NAMES, samples=200))
    """),
    md("""
    ## Drills from your mistakes

    Each graded move becomes a drill, scheduled by spaced repetition: answer the due ones, and watch accuracy and
    points lost hand after hand. (Here the deck lives in a scratch folder; the app keeps one per learner.)
    """),
    code("""
    import tempfile
    from pathlib import Path

    from cut_tutor.review import Drills, progress_frame

    deck = Drills(Path(tempfile.mkdtemp()) / "drills.sqlite")
    print(len(deck.add_mistakes(record, hand)), "drills from this hand")
    if Replayer:
        from cut_tutor.widgets.drills_panel import DrillsPanel

        display(DrillsPanel(deck, frame=progress_frame([({"game": 1, "hand": 1}, hand)])))
    """),
    md("""
    ## Your progress across games

    The app keeps every reviewed hand in the learner's drills file, with the kind of each graded move — took the
    pile when a play was better, spent a clear card, split a group, played higher than needed, and so on (the
    guide's *Hand review* page lists them) — and its *Progress* section plots accuracy and points lost hand after
    hand, lists the mistakes you make most, and offers the table as a CSV. The same hand reviewed twice is one
    row. Here a second hand joins the first.
    """),
    code("""
    from cut_tutor.review.words import MISTAKE_KINDS
    from cut_tutor.review import hand_kinds
    from cut_tutor.review.progress import kind_totals

    state = State.deal(rules, seed=89, dealer=0)
    while not state.over:
        state.play(players[state.turn].choose_view(view(state, state.turn)))
    second = record_of(state)
    second_hand = review_hand(second, 0, rollouts=24, deal_rollouts=8)
    for number, kept, graded in [(1, record, hand), (2, second, second_hand), (1, record, hand)]:
        deck.keep_review(kept, graded, hand_kinds(kept, graded), "notebook", number)
    progress = progress_frame(deck.reviewed())
    print(len(progress), "hands kept;", {MISTAKE_KINDS[k]: n for k, n in kind_totals(progress).items() if n})
    progress[["game", "hand", "accuracy", "lost", "lost_to_mistakes", "blunder"]]
    """),
    code("""
    if Replayer:
        from cut_tutor.widgets.drills_panel import ProgressPanel

        progress_panel = ProgressPanel("you")
        progress_panel.show(deck.reviewed())
        display(progress_panel)
    """),
]

NOTEBOOKS["09_teacher"] = [
    md("""
    # 9 · For teachers: a class set of deals

    **Goal:** choose a ruleset and a set of deal codes, have each learner play them, collect everyone's hand
    records, and see in one table how each learner's choices compare with the three coaches'.

    Here the learners are simulated (AI seats with different Levels and Styles); with a real class, collect the
    records the tutor exports instead.
    """),
    code("""
    import json
    import tempfile
    from pathlib import Path

    import pandas as pd

    from cut_tutor import Move, Rules, deal_code, record_of, replay, state_from_deal, view
    from cut_tutor.coach import AIPlayer, advise
    from cut_tutor.review.words import turn_number

    rules = Rules.from_preset("Canada", players=3)
    class_set = [deal_code(rules, seed, dealer=seed % 3) for seed in (11, 22, 33, 44)]
    learners = {"Ana": ("Average", "Gambler"), "Ben": ("Experienced", "Rock"), "Cleo": ("Expert", "Balanced")}
    """),
    code(f"""
    {CHECK}
    print("ruleset:", rules.preset, "| players", rules.players, "| cards dealt", rules.cards_dealt)
    print("class set:", class_set)
    """),
    md("""
    ## Playing the deals

    Every learner plays every deal from the first seat (the one the table calls *You*; seat 0 in a record) against
    the same two opponents, and each hand record is written to a folder as JSON — the way a class would hand in its
    work.
    """),
    code("""
    folder = Path(tempfile.mkdtemp(prefix="cut-class-"))
    opponents = [AIPlayer("Experienced", "Balanced", seed=5), AIPlayer("Experienced", "Balanced", seed=6)]
    for name, (level, style) in learners.items():
        for number, code in enumerate(class_set):
            state = state_from_deal(code, rules)
            seats = [AIPlayer(level, style, seed=number), *opponents]
            while not state.over:
                state.play(seats[state.turn].choose_view(view(state, state.turn)))
            record = record_of(state) | {"learner": name}
            (folder / f"{name}-{code}.json").write_text(json.dumps(record))
    print(len(list(folder.glob("*.json"))), "records handed in")
    """),
    md("""
    ## Collecting the records

    Read every record back, replay it, and at each decision the learner made (more than one legal move) ask the
    three coaches what they would have played. Turns are numbered as the review numbers them, and moves named as
    the table's buttons read.
    """),
    code("""
    COACHES = ("Daryl", "Madonna", "Marty")
    rows = []
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text())
        final = replay(record)
        for step, made in enumerate(record["moves"]):
            before = replay(record, upto=step)
            if before.turn != 0 or len(before.legal_moves()) < 2:
                continue
            seen = view(before, 0)
            advice = {coach: advise(seen, coach=coach, level="Expert") for coach in COACHES}
            row = {"learner": record["learner"], "deal": record["deal"], "turn": turn_number(seen),
                   "move": advice["Madonna"].labels[Move.parse(made)], "won": final.winner == 0,
                   "points": final.scores()[0]}
            rows.append(row | {coach: advice[coach].label for coach in COACHES})
    decisions = pd.DataFrame(rows)
    decisions.head()
    """),
    md("How often each learner chose what each coach would have chosen, with their results over the set:"),
    code("""
    agreement = pd.DataFrame({coach: (decisions["move"] == decisions[coach]) for coach in COACHES})
    agreement["learner"] = decisions["learner"]
    table = agreement.groupby("learner").mean().round(2)
    hands = decisions.drop_duplicates(["learner", "deal"]).groupby("learner")
    table["decisions"] = decisions.groupby("learner").size()
    table["hands won"] = hands["won"].sum()
    table["points"] = hands["points"].sum()
    table
    """),
    md("""
    Reading it: a learner close to Daryl plays safe, close to Marty takes the gambles. Agreement is not a grade —
    the coaches disagree with each other too — but a learner far from all three on the same deals is a good
    person to sit beside with the replayer (notebook 8).
    """),
    md("""
    ## Progress across the class

    Each learner's *Progress* section in the app offers their reviewed hands as a CSV,
    `cut-progress-<learner>.csv`: accuracy, points lost and the kinds of mistake, hand after hand. Collect the
    files in a folder and `gather_progress` puts them in one table: each learner's hands, mean accuracy, points
    lost per hand and most frequent mistake kinds. A file it cannot read is named in the notes and skipped, never
    changed.

    Here each simulated learner's first two handed-in hands are reviewed (with a small budget) and exported the
    way the app exports them, and one damaged file is put among them.
    """),
    code("""
    from cut_tutor.classroom import gather_progress
    from cut_tutor.review import hand_kinds, progress_csv, progress_frame, review

    exports = Path(tempfile.mkdtemp(prefix="cut-progress-"))
    for name in learners:
        kept = []
        for number, path in enumerate(sorted(folder.glob(f"{name}-*.json"))[:2], start=1):
            record = json.loads(path.read_text())
            hand = review(record, 0, rollouts=16, deal_rollouts=4)
            kept.append(({"game": "class set", "hand": number, "kinds": list(hand_kinds(record, hand).values())},
                         hand))
        progress_csv(progress_frame(kept), exports / f"cut-progress-{name}.csv")
    (exports / "cut-progress-dan.csv").write_text("half a file, cut off in the mid")
    class_progress, notes = gather_progress(exports)
    print(notes)
    class_progress
    """),
    md("""
    ## Your class at a glance

    When a class plays on one tutor server (or a JupyterHub), each learner's games live in a folder of their own
    under `learners/` in the tutor home. `class_summary` reads them all — games played, hands, average points per
    hand, busts, when each learner last finished a game, and how many games wait unfinished — without changing
    any learner's file. A history it cannot read now (damaged, or locked while a game is being recorded) is
    named in the notes and its learner skipped. From a terminal: `cut-tutor class HOME`, or `--csv` for a
    spreadsheet.

    Here a small class is simulated: three learners, two of them with finished games, one with a game left open.
    """),
    code("""
    from cut_tutor import Game
    from cut_tutor.classroom import class_summary
    from cut_tutor.storage import History, save_game
    from cut_tutor.storage.saves import save_path

    def play_out(game):
        seats = [AIPlayer("Experienced", "Balanced", seed=game.seed + seat) for seat in range(game.rules.players)]
        while not game.over:
            if game.state.over:
                game.next_hand()
            game.play(seats[game.state.turn].choose_view(view(game.state, game.state.turn)))
        return game

    tutor_home = Path(tempfile.mkdtemp(prefix="cut-home-"))
    two_hands = Rules.from_preset("Canada", players=3, end_condition="rounds", rounds=2)
    for name, seeds in {"ana": [1, 2], "ben": [3], "cleo": []}.items():
        folder = tutor_home / "learners" / name
        folder.mkdir(parents=True)
        for seed in seeds:
            History(folder / "history.sqlite").add(play_out(Game(two_hands, seed)))
    open_game = Game(two_hands, 4)
    save_game(open_game, save_path(tutor_home / "learners" / "cleo", open_game.uid))

    summary, notes = class_summary(tutor_home)
    print(notes or "every learner's files could be read")
    summary
    """),
]


NOTEBOOKS["10_card_clear"] = [
    md("""
    # 10 · Card Clear: swaps, hands and the Hint

    **Goal:** play the 6×6 poker-hand puzzle from a board code, read what one swap scores, and see why the Hint
    picks the swap it does — knowing only what you can see: the board and the three Next cards.

    The rules are on the guide's *Card Clear* page (K1–K18), the Hint's parts there too (H1–H8).
    """),
    code("""
    from cut_tutor.cardclear import Puzzle, board_text, view
    from cut_tutor.cardclear.hint import hint, solve
    from cut_tutor.cardclear.state import SWAPS

    game = Puzzle.from_code("4-2")
    """),
    md("""
    ## A board from its code

    `4-2` is level 4, deal 2: the same board and the same refill order every time (K16). Level 4 deals Ace to 8
    and has two hands live: three of a kind and the suited run (K2, K6). The goal bar's **Next** row is the top
    three of the stock: the next cards to fall in (K9).
    """),
    code(f"""
    {CHECK}
    print(game.row.moves, "moves; goals:", ", ".join(str(goal) for goal in game.row.goals))
    print(board_text(game))
    """),
    md("""
    ## Swaps and bounces

    A swap must make a hand; one that makes none bounces back with the reason and costs no move (K3). The tags a
    picked card's neighbours show come from the same list of legal swaps:
    """),
    code(f"""
    {CHECK}
    legal = game.legal_swaps()
    print(len(legal), "legal swaps, for example", legal[0])
    print([tag["tag"] for tag in view(game)["legal"]][:4])
    print(game.why_illegal(next(swap for swap in SWAPS if swap not in legal)))
    """),
    md("""
    ## The Hint: every swap by its parts

    Points and combo (H2), extra moves (H3), goal progress (H4), the lookahead (H5) and the finish (H6) add up to
    each swap's total; the best is first and the sentence says why (H7). The Hint plays each swap out on the game
    *as you see it* (H8): a refill reaching past the Next cards draws unknown cards, which make no hand, so such a
    swap shows `sure = False` and its points are **at least** what it will score.
    """),
    code(f"""
    {CHECK}
    import pandas as pd

    advice = hint(game)
    table = pd.DataFrame(advice.rows()).set_index("swap")
    print(advice.text)
    print(table[["points", "combo", "goal", "lookahead", "total", "sure", "best"]].head(5).to_string())
    """),
    md("""
    The Hint cannot cheat: two games with the same board and the same Next cards get the same advice, whatever
    the rest of the stock holds.
    """),
    code(f"""
    {CHECK}
    other = game.copy()
    other.stock[3:] = other.stock[3:][::-1]
    print("same advice:", hint(other).rows() == advice.rows())
    """),
    md("""
    ## Playing the level out

    `solve` plays the Hint's pick every turn on the real game (it is the measuring tool: the stock is dealt as
    the rules make it, while the Hint still sees only the view) and the result card lists every goal (K15).
    """),
    code(f"""
    {CHECK}
    played = game.copy()
    turns = solve(played)
    result = played.result()
    print(len(turns), "swaps; score", result["score"], "+ bonus", result["bonus"], "=", result["final"],
          "| passed:", result["passed"], "| stars:", result["stars"])
    """),
    md("""
    ## On the board

    The board widget draws the same view: tap a card, then a neighbour (or drag) to swap; arrow keys move a
    cursor and Enter or Space picks. *Hint* opens the table above, and the result card offers *Try again*,
    *New deal* and *Copy board code*. Every control has a Python twin, so you can drive it from here too.
    """),
    code("""
    from cut_tutor.cardclear.widget import BoardApp

    board = BoardApp("4-2")
    board
    """),
    code(f"""
    {CHECK}
    board.swap(board.best_swap())
    print(board.data["message"])
    """),
]


def build(name: str, cells: list[tuple[str, str]]) -> NotebookNode:
    """A notebook with stable cell ids, so regenerating it changes nothing that did not change."""
    nb = nbformat.v4.new_notebook(metadata=METADATA)
    for i, (kind, source) in enumerate(cells):
        cell = nbformat.v4.new_markdown_cell(source) if kind == "markdown" else nbformat.v4.new_code_cell(source)
        cell["id"] = f"{name[:2]}-{i:02d}"
        nb.cells.append(cell)
    return nb


def execute(nb: NotebookNode) -> None:
    """Run the notebook once in a fresh kernel, from this folder, as nbval will."""
    from nbclient import NotebookClient

    NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()


def strip(nb: NotebookNode) -> None:
    """Keep outputs only where nbval checks them; everything else is stored clean."""
    nb.metadata = nbformat.from_dict(METADATA)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata = nbformat.from_dict({})
        if not cell.source.startswith(CHECK):
            cell.outputs = []
            cell.execution_count = None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebooks to write (default: all), e.g. 02_rules_step_by_step")
    parser.add_argument("--no-execute", action="store_true", help="write the cells without running them")
    args = parser.parse_args(argv)
    for name in args.names or NOTEBOOKS:
        nb = build(name, NOTEBOOKS[name])
        if not args.no_execute:
            execute(nb)
        strip(nb)
        path = HERE / f"{name}.ipynb"
        nbformat.write(nb, path)
        print("wrote", path.relative_to(HERE.parent), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
