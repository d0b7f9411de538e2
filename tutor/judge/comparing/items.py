"""Comparing set and list predictions with observations.

Items are paired through an index of the live items (index.py), so that a
thousand typed items against a thousand live ones cost a few thousand
comparisons, not a million; `matching.item_matches` is the one rule of what
matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from tutor import i18n

from ..base.obs import Obs, items, otype
from ..base.parts import Fill, Item, Live, Msg, Part, Said
from ..base.verdict import Outcome, Tolerance, correct, incorrect, partial
from ..reading.predictions import BoolP, NumP, Pred, SeqP, TensorP, TextP, pred_text
from .index import Elements, match, tensor_elements
from .index import clear_cache as clear_index_cache
from .matching import dedupe_key, item_matches

# live values whose every position means something (a stride tuple, a torch.Size,
# the gradients autograd.grad returns): another order is wrong, not partly right
_POSITIONAL = frozenset({"tuple", "size"})


class _Missing(Sequence[Part]):
    """The live items nothing was paired with (only the first few are shown)."""

    def __init__(self, lives: Sequence[Obs], taken: set[int]) -> None:
        self.lives, self.taken = lives, taken
        self.size = len(lives) - len(taken)

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, k: int) -> Part: ...
    @overload
    def __getitem__(self, k: slice) -> list[Part]: ...
    def __getitem__(self, k: int | slice) -> Part | list[Part]:
        stop = k.stop if isinstance(k, slice) and k.stop is not None else \
            (k + 1 if isinstance(k, int) else self.size)
        found: list[Part] = []
        for j in range(len(self.lives)):
            if len(found) >= stop:
                break
            if j not in self.taken:
                found.append(Item(self.lives[j]))
        return found[k]


def _listed(parts: Sequence[Part], n: int) -> tuple[Part, ...]:
    out: list[Part] = []
    for k, part in enumerate(parts[:8]):
        out += [", "] if k else []
        out.append(part)
    if n > 8:
        out += [", ", Fill(i18n._("\u2026 ({n} in all)").format(n=n))]
    return tuple(out)


def _all_of(n: int, ordered: bool) -> Msg:
    """What a right answer named: 'Both items, in order.'"""
    if n == 0:
        return ("It is empty.",)
    if n == 1:
        return ("Exactly that, and nothing more.",)
    if n == 2:
        return ("Both items, in order.",) if ordered else ("Both items.",)
    return (("All ", Fill(str(n)), " items, in order.") if ordered
            else ("All ", Fill(str(n)), " items."))


def compare_items(p: SeqP, live: Obs, tol: Tolerance | None, *, ordered: bool) -> Outcome:
    lives = _items_of(live)
    if lives is None:
        return incorrect("The live value is ", Live(live), ", not a collection of items.")
    preds = list(p.items)
    one = preds[0] if len(preds) == 1 else None
    if isinstance(one, TensorP) and one.shape is not None and len(one.shape) == 1 \
            and not one.uniform:
        if not (len(lives) == 1 and item_matches(one, lives[0], tol)):
            # `tensor([0., 2.])` written for the values [0.0, 2.0]: its elements
            preds = [BoolP(b) if isinstance(b, bool) else NumP(b) for b in one.leaves]
    preds = _names_of_pairs(preds, lives)
    texts = [pred_text(x) for x in preds]
    if not ordered:
        unique = dict(zip(texts, preds, strict=True))
        texts, preds = list(unique), list(unique.values())
        lives = _unique(live, lives)
    pairs = match(preds, texts, lives, tol)
    n, right = len(lives), len(pairs)
    taken = set(pairs.values())
    missing = _Missing(lives, taken)
    extra: list[Part] = [Said(texts[i], 40) for i in range(len(preds)) if i not in pairs]
    in_order = all(i == j for i, j in pairs.items())
    if not missing and not extra:
        if not ordered or in_order:
            return correct(*_all_of(n, ordered))
        details = (("The live order is ", Live(live), "."),)
        if otype(live) in _POSITIONAL:  # strides, sizes, a tuple of gradients: order is the answer
            return incorrect("Right items, but in the wrong order: here the order is the answer.",
                             details=details)
        return partial("Right items, wrong order.", details=details)
    if not preds:
        if n == 1:
            return incorrect("The live value has 1 item: ", Live(live), ".")
        return incorrect("The live value has ", Fill(str(n)), " items: ", Live(live), ".")
    if not lives:
        return incorrect("The live value is empty: ", Live(live), ".")
    if right == 0:
        if len(preds) == 1:
            return incorrect(Said(texts[0], 40), " is not in the live value: ", Live(live), ".")
        return incorrect("None of those is in the live value: ", Live(live), ".")
    repeats = _repeats(preds, texts, pairs, lives, tol)
    if repeats:  # a typed item that is live, typed more often than it is there
        extra = [Said(texts[i], 40) for i in range(len(preds))
                 if i not in pairs and texts[i] not in repeats]
        told = [i18n._("{item} appears {live} in the live value, not {said}").format(
                    item=t, live=_times(live_n), said=_times(typed_n))
                for t, (typed_n, live_n) in repeats.items()]
        parts_r: list[Part] = [Fill("; ".join(told))]
        if missing:
            parts_r += ["; missing: ", *_listed(missing, len(missing))]
        if extra:
            parts_r += ["; not in the live value: ", *_listed(extra, len(extra))]
        return partial(*parts_r, ".")
    if not missing:
        end = ", which is not in it." if len(extra) == 1 else ", which are not in it."
        if n in (1, 2):
            there = ("The live item is there, but you also listed " if n == 1
                     else "Both live items are there, but you also listed ")
            return partial(there, *_listed(extra, len(extra)), end)
        return partial("All ", Fill(str(n)), " live items are there, but you also listed ",
                       *_listed(extra, len(extra)), end)
    parts: list[Part] = [Fill(str(right)), " of ", Fill(str(n)), " right; missing: ",
                         *_listed(missing, len(missing))]
    if extra:
        parts += ["; not in the live value: ", *_listed(extra, len(extra))]
    return partial(*parts, ".")


_LAST_UNIQUE: list[tuple[Obs, Sequence[Obs]]] = []  # the last live value's unique items
_LAST_ITEMS: list[tuple[Obs, Sequence[Obs] | None]] = []  # and its items


def _items_of(live: Obs) -> Sequence[Obs] | None:
    """The live items (a collection's, or a tensor's elements), the same sequence
    for the same live value judged again (its index is then built once)."""
    if _LAST_ITEMS and _LAST_ITEMS[0][0] is live:
        return _LAST_ITEMS[0][1]
    lives: Sequence[Obs] | None = items(live)
    if lives is None:
        lives = tensor_elements(live)
    _LAST_ITEMS[:] = [(live, lives)]
    return lives


def _unique(live: Obs, lives: Sequence[Obs]) -> Sequence[Obs]:
    """The live items without repeats, kept for the last live value judged: the
    examples under an answer entry are judged against the same live value one after
    another (a 1,000-item value deduplicated once, not ten times)."""
    if _LAST_UNIQUE and _LAST_UNIQUE[0][0] is live:
        return _LAST_UNIQUE[0][1]
    out = lives.unique() if isinstance(lives, Elements) else \
        list({dedupe_key(x): x for x in lives}.values())
    _LAST_UNIQUE[:] = [(live, out)]
    return out


def clear_cache() -> None:
    _LAST_UNIQUE.clear()
    _LAST_ITEMS.clear()
    clear_index_cache()


def _names_of_pairs(preds: list[Pred], lives: Sequence[Obs]) -> list[Pred]:
    """Pasted `named_children()` / `named_parameters()` pairs, `('fc', Linear(...))`,
    typed where the live items are the names: each pair stands for its name."""
    if not preds or not lives or isinstance(lives, Elements) \
            or not all(otype(x) == "str" for x in lives):
        return preds
    names: list[Pred] = []
    for x in preds:
        if not (isinstance(x, SeqP) and len(x.items) == 2 and isinstance(x.items[0], TextP)):
            return preds
        names.append(x.items[0])
    return names


def shares_an_item(p: SeqP, live: Obs, tol: Tolerance | None) -> bool:
    """Does some typed item match a live item?  (An example shown under the entry
    must not: `['w', 'v']` would hand over the `w` of the answer `['w']`.)"""
    lives = _items_of(live)
    if not lives or not p.items:
        return False
    preds = list(p.items)
    return bool(match(preds, [pred_text(x) for x in preds], lives, tol))


def _times(k: int) -> str:
    if k in (1, 2):
        return i18n._("once") if k == 1 else i18n._("twice")
    return i18n._("{n} times").format(n=k)


def _repeats(preds: list[Pred], texts: list[str], pairs: dict[int, int], lives: Sequence[Obs],
             tol: Tolerance | None) -> dict[str, tuple[int, int]]:
    """Unpaired typed items that match a live item: text -> (times typed, times live)."""
    out: dict[str, tuple[int, int]] = {}
    if len(preds) - len(pairs) > 8 or len(lives) > 256:  # a short answer's slip, kept cheap
        return out
    for i, pred in enumerate(preds):
        if i in pairs or texts[i] in out:
            continue
        live_n = sum(1 for x in lives if item_matches(pred, x, tol))
        if live_n:
            out[texts[i]] = (texts.count(texts[i]), live_n)
    return out
