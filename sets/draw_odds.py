"""The chance that a card is among ``k`` drawn from a sheet one by one by weight, without repeats: the figures
a booster audit expects of a plain sheet, worked out from the weights alone (never from the drawing code)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from functools import cache


def plain_inclusion(weights: Sequence[int], count: int, duplicates: bool = False) -> list[float]:
    """Expected copies of each card among ``count`` drawn from a sheet (no repeats unless ``duplicates``)."""
    n, total = len(weights), sum(weights)
    if duplicates or count == 1:
        return [count * w / total for w in weights]
    if count >= n:
        return [1.0] * n
    if len(set(weights)) == 1:
        return [count / n] * n
    p = [w / total for w in weights]
    if count == 2:  # first draw, or second after any other card j: p_i / (1 - p_j)
        second = sum(pj / (1 - pj) for pj in p)
        return [pi + pi * (second - pi / (1 - pi)) for pi in p]
    classes = tuple(sorted(Counter(weights).items()))
    by_weight = {w: _successive_inclusion(classes, w, count) for w in set(weights)}
    return [by_weight[w] for w in weights]


@cache
def _successive_inclusion(classes: tuple[tuple[int, int], ...], weight: int, count: int) -> float:
    """Chance that a card of ``weight`` is among ``count`` drawn one by one by weight without repeats.

    Drawing that way orders the cards by ``E / w`` (E exponential): the card is drawn when fewer than
    ``count`` others come before it.  With ``v`` the chance that its own key is below ``t``, that is
    ``integral over v in [0, 1] of P(fewer than count others below t)``, where another card of weight
    ``u`` is below with chance ``1 - (1 - v) ** (u / weight)``; cards of one weight count as a binomial.
    ``classes`` holds (weight, cards of that weight) for the whole sheet.
    """
    others = Counter(dict(classes))
    others[weight] -= 1
    total = 0.0
    for v, node_weight in _nodes():
        below = [1.0] + [0.0] * (count - 1)  # P(k others below), k < count
        for u, cards in others.items():
            if not cards:
                continue
            q = 1 - (1 - v) ** (u / weight)
            pmf = [math.comb(cards, k) * q**k * (1 - q) ** (cards - k) for k in range(min(cards, count - 1) + 1)]
            below = [sum(below[k - j] * pmf[j] for j in range(min(k, len(pmf) - 1) + 1)) for k in range(count)]
        total += node_weight * sum(below)
    return total


@cache
def _nodes() -> tuple[tuple[float, float], ...]:
    """Quadrature on [0, 1]: 16-point Gauss-Legendre on intervals halving toward both ends, where integrands bend."""
    points, weights = _gauss_legendre(16)
    edges = sorted({0.0, 1.0, *(2.0**-k for k in range(1, 41)), *(1 - 2.0**-k for k in range(2, 41))})
    return tuple(
        (low + (high - low) * (x + 1) / 2, (high - low) / 2 * w)
        for low, high in itertools.pairwise(edges)
        for x, w in zip(points, weights, strict=True)
    )


def _gauss_legendre(n: int) -> tuple[list[float], list[float]]:
    """Nodes and weights of n-point Gauss-Legendre quadrature on [-1, 1] (Newton on Legendre polynomials)."""
    points, weights = [], []
    for i in range(1, n + 1):
        x = math.cos(math.pi * (i - 0.25) / (n + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for k in range(2, n + 1):
                p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
            derivative = n * (x * p1 - p0) / (x * x - 1)
            step = p1 / derivative
            x -= step
            if abs(step) < 1e-15:
                break
        points.append(x)
        weights.append(2 / ((1 - x * x) * derivative * derivative))
    return points, weights
