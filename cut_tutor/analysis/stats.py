"""The few statistics the analysis rests on: means, paired differences and Student's t intervals.

>>> round(t95(15), 3), round(t95(10**6), 3)
(2.131, 1.96)
>>> mean_interval([4.0, 6.0, 5.0, 5.0, 4.0, 6.0])
(5.0, 4.062, 5.938)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The two-sided 95% point of the normal distribution.
Z95 = 1.959963984540054
#: How closely, in points (95% half-width), an analysis aims to know each move's gap to the best.
PRECISION = 2.0
#: The fewest rollouts of a move before its gap counts as too close to call (the first round plays them all).
MIN_ROLLOUTS = 16


def t95(df: int) -> float:
    """Student's t two-sided 95% point for ``df`` degrees of freedom (Cornish–Fisher; within 0.2% from df = 5),
    so a short run's interval is as wide as its few rollouts warrant."""
    z, v = Z95, float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
    )


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error (0 for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, math.sqrt(var / n)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean with its 95% interval, rounded to 1/1000 of a point."""
    mean, se = mean_se(values)
    half = t95(len(values) - 1) * se if len(values) > 1 else math.inf
    return round(mean, 3), round(mean - half, 3), round(mean + half, 3)


def paired(values: Sequence[float], best: Sequence[float]) -> list[float]:
    """Per sample, how much worse a move did than the best on the same deal (common random numbers)."""
    return [x - y for x, y in zip(values, best, strict=False)]


def clearly_worse(diffs: Sequence[float], sds: float = 3.0) -> bool:
    """Is the mean difference at least ``sds`` joint standard errors above zero?"""
    mean, se = mean_se(diffs)
    return mean > 0 and mean >= sds * se
