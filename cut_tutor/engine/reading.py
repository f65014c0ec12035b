"""The limits every JSON read from outside keeps (positions, records, rules files, saves), checked in one place.

Past them Python's own reading fails with no word on what was wrong: nesting deep enough exhausts the parser's
recursion (and a message's ``repr``), and a whole number of thousands of digits breaks the int conversion limit.
:func:`load_json` refuses both with a :class:`JSONLimitError` that names the field; each reader turns it into its
own error (a :class:`~cut_tutor.engine.deals.PositionError`, a ``RulesError``, a ``SaveError``).

>>> load_json('{"dealer": 1}', "position")
{'dealer': 1}
>>> load_json({"seats": [{"busts": 10**70}]}, "position")
Traceback (most recent call last):
...
cut_tutor.engine.reading.JSONLimitError: position.seats[0].busts: a whole number of more than 64 digits
"""

from __future__ import annotations

import json
from typing import Any

#: How deeply a document may nest its arrays and objects: a position nests four deep, a save five.
MAX_DEPTH = 8
#: The most digits a whole number may have: every count, seat and seed fits (as long as the longest text a save keeps).
MAX_DIGITS = 64
_LIMIT = 10**MAX_DIGITS


class JSONLimitError(ValueError):
    """JSON that is not valid, nests too deeply or holds too long a number; the message names where."""


class _TooLong:
    """A whole number the parser met with too many digits, kept unconverted until its place is known."""


_TOO_LONG = _TooLong()


def json_depth(text: str) -> int:
    """How deeply a JSON text nests its arrays and objects, counted without parsing it (a deep one would exhaust
    the parser's recursion).

    >>> json_depth('{"a": [1, "[["]}')
    2
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _whole(digits: str) -> int | _TooLong:
    return _TOO_LONG if len(digits.lstrip("-")) > MAX_DIGITS else int(digits)


def load_json(data: Any, where: str) -> Any:
    """``data`` (JSON text, or the objects it stands for) within the limits, parsed if it is text; a
    :class:`JSONLimitError` says what is wrong and where (``where`` names the document, like ``position``)."""
    if isinstance(data, str):
        if json_depth(data) > MAX_DEPTH:
            raise JSONLimitError(f"{where}: nested deeper than {MAX_DEPTH}")
        try:
            data = json.loads(data, parse_int=_whole)
        except json.JSONDecodeError as exc:
            raise JSONLimitError(f"{where}: not valid JSON ({exc})") from None
    # walked with a list, not recursion: objects handed in need not have come from the parser
    todo: list[tuple[Any, str, int]] = [(data, where, 0)]
    while todo:
        value, at, depth = todo.pop()
        if isinstance(value, dict | list):
            if depth == MAX_DEPTH:
                raise JSONLimitError(f"{at}: nested deeper than {MAX_DEPTH}")
            if isinstance(value, dict):
                if not all(isinstance(key, str) for key in value):
                    raise JSONLimitError(f"{at}: an object's keys are text")
                todo.extend((item, f"{at}.{key}", depth + 1) for key, item in value.items())
            else:
                todo.extend((item, f"{at}[{index}]", depth + 1) for index, item in enumerate(value))
        elif value is _TOO_LONG or (isinstance(value, int) and not -_LIMIT < value < _LIMIT):
            raise JSONLimitError(f"{at}: a whole number of more than {MAX_DIGITS} digits")
    return data
