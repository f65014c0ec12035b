"""Where each app help topic lives in the player's guide, so every setting can link to its explanation.

URLs are relative to the built guide site (shipped in the package, served at ``{base_url}cut-tutor/guide/``),
which uses plain file URLs (``use_directory_urls: false``) so the site also works opened straight from disk.

>>> guide_url("Risk Play")
'glossary.html#risk-play'
>>> guide_url("four_plus_clears")
'glossary.html#four-plus-card-clears'
>>> guide_url("rules", base="https://example.org/guide/")
'https://example.org/guide/rules.html'
"""

from __future__ import annotations

#: Each setting the app offers, as the glossary heading names it, with its anchor in ``glossary.html``.
SETTINGS: dict[str, str] = {
    "Players": "players",
    "Level": "level",
    "Style": "style",
    "Coach style": "coach-style",
    "Decks": "decks",
    "Cards Dealt": "cards-dealt",
    "Clear Card value": "clear-card-value",
    "Card scoring": "card-scoring",
    "Bust penalty": "bust-penalty",
    "Pile Counts": "pile-counts",
    "Clear card rank": "clear-card-rank",
    "End condition": "end-condition",
    "Game End Total": "game-end-total",
    "Rounds": "rounds",
    "Global Setting Set (preset)": "global-setting-set",
    "4+ Card Clears": "four-plus-card-clears",
    "Piles Face Down": "piles-face-down",
    "Pile Card Flip": "pile-card-flip",
    "Risk Play": "risk-play",
    "Pause between Players": "pause-between-players",
    "Dim non-playable Cards": "dim-non-playable-cards",
    "View": "view",
    "View settings": "view-settings",
    "Seed": "seed",
    "Automate Player": "automate-player",
    "Coaching": "coaching",
}

#: Each field of :class:`cut_tutor.engine.rules.Rules` that a player can set, by its glossary heading.
RULES_FIELDS: dict[str, str] = {
    "players": "Players",
    "decks": "Decks",
    "cards_dealt": "Cards Dealt",
    "clear_rank": "Clear card rank",
    "clear_value": "Clear Card value",
    "card_scoring": "Card scoring",
    "bust_penalty": "Bust penalty",
    "four_plus_clears": "4+ Card Clears",
    "piles_face_down": "Piles Face Down",
    "pile_card_flip": "Pile Card Flip",
    "risk_play": "Risk Play",
    "end_condition": "End condition",
    "game_end_total": "Game End Total",
    "rounds": "Rounds",
}

#: Every help topic the app may link to: the settings plus the guide's main pages.
GUIDE_LINKS: dict[str, str] = {
    **{name: f"glossary.html#{anchor}" for name, anchor in SETTINGS.items()},
    "guide": "index.html",
    "rules": "rules.html",
    "coach": "coach.html",
    "scores": "scoring.html#scores",
    "saving": "saving.html",
    # the table's legend: busts and known cards come from taking the pile, stack numbers from where cards play
    "bust": "rules.html#take",
    "known": "rules.html#take",
    "dealer": "rules.html#the-deal",
    "stacks": "rules.html#sources",
    "clear": "rules.html#clear-play",
}

_LOOKUP: dict[str, str] = {key.lower(): url for key, url in GUIDE_LINKS.items()} | {
    field: GUIDE_LINKS[name] for field, name in RULES_FIELDS.items()
}


def guide_url(topic: str, base: str = "") -> str:
    """The guide page (and anchor) explaining ``topic``: a setting name, a ``Rules`` field or a main topic.

    ``base`` is prefixed as given, so pass the site root with its trailing slash.
    """
    key = topic.strip()
    url = _LOOKUP.get(key) or _LOOKUP.get(key.lower())
    if url is None:
        raise KeyError(f"guide: no page for {topic!r}; topics are {', '.join(GUIDE_LINKS)}")
    return base + url
