"""Comparing set and list predictions with observations."""

from __future__ import annotations

from . import dtypes
from .compare_values import compare_tensor, leaf_matches
from .compare_words import text_matches
from .display import display, display_item
from .obs import (
    Obs,
    is_none,
    items,
    key,
    otype,
    single_number,
    tensor_dtype,
    tensor_leaves,
    tensor_shape,
    token,
)
from .outcome import Outcome, correct, incorrect, partial
from .parse_tensor import seq_as_tensor
from .parse_words import text_key
from .predictions import BoolP, NoneP, NumP, Pred, SeqP, TensorP, TextP, pred_text
from .verdict import Status, Tolerance

MATCH_BUDGET = 50_000  # item comparisons for out-of-order matching


def item_matches(p: Pred, obs: Obs, tol: Tolerance | None) -> bool:
    if isinstance(p, NoneP):
        return is_none(obs)
    if isinstance(p, TextP):
        return token(obs) is not None and text_matches(p.token, obs)
    if isinstance(p, NumP):
        v = single_number(obs)
        return v is not None and leaf_matches(p.lit, v, tol)
    if isinstance(p, BoolP):
        return otype(obs) == "bool" and bool(obs.get("value")) == p.value
    if isinstance(p, TensorP):
        return compare_tensor(p, obs, tol).status is Status.CORRECT
    if isinstance(p, SeqP):
        if otype(obs) == "tensor":
            t = seq_as_tensor(p)
            return t is not None and compare_tensor(t, obs, tol).status is Status.CORRECT
        its = items(obs)
        return (
            its is not None
            and len(its) == len(p.items)
            and all(item_matches(a, b, tol) for a, b in zip(p.items, its, strict=False))
        )
    return False


def _tensor_items(live: Obs) -> list[Obs] | None:
    if otype(live) != "tensor" or len(tensor_shape(live)) != 1:
        return None
    leaves = tensor_leaves(live)
    if leaves is None:
        return None
    kind = {"bool": "bool", "int": "int"}.get(dtypes.dtype_class(tensor_dtype(live)), "float")
    return [{"type": kind, "value": v} for v in leaves if not isinstance(v, complex)]


def _match(preds: list[Pred], lives: list[Obs], tol: Tolerance | None) -> dict[int, int]:
    """Greedy matching pred index -> live index: same positions first, then
    names through an index, then everything else within a comparison budget."""
    pairs: dict[int, int] = {}
    taken: set[int] = set()
    for i, p in enumerate(preds[: len(lives)]):
        if item_matches(p, lives[i], tol):
            pairs[i] = i
            taken.add(i)
    by_key: dict[str, list[int]] = {}
    strs: list[int] = []
    others: list[int] = []
    for j, obs in enumerate(lives):
        if otype(obs) == "str":
            by_key.setdefault(text_key(str(obs.get("value", ""))), []).append(j)
            strs.append(j)
        else:
            others.append(j)
    budget = MATCH_BUDGET
    for i, p in enumerate(preds):
        if i in pairs:
            continue
        candidates = others
        if isinstance(p, TextP):
            free = [j for j in by_key.get(text_key(p.token), []) if j not in taken]
            if free:
                pairs[i] = free[0]
                taken.add(free[0])
                continue
            if dtypes.canonical(p.token) is not None:  # 'float32' names str 'torch.float32'
                candidates = others + strs
        for j in candidates:
            if j in taken:
                continue
            budget -= 1
            if budget < 0:
                return pairs
            if item_matches(p, lives[j], tol):
                pairs[i] = j
                taken.add(j)
                break
    return pairs


def _names(objs: list[str]) -> str:
    shown = ", ".join(objs[:8])
    return shown + (f", \u2026 ({len(objs)} in all)" if len(objs) > 8 else "")


def compare_items(p: SeqP, live: Obs, kind: str, tol: Tolerance | None) -> Outcome:
    exp = display(live, kind)
    lives = items(live)
    if lives is None:
        lives = _tensor_items(live)
    if lives is None:
        return incorrect(f"The live value is {exp}, not a collection of items.")
    preds = list(p.items)
    one = preds[0] if len(preds) == 1 else None
    if isinstance(one, TensorP) and len(one.shape) == 1:
        if not (len(lives) == 1 and item_matches(one, lives[0], tol)):
            # `tensor([0., 2.])` written for the values [0.0, 2.0]: its elements
            preds = [BoolP(b) if isinstance(b, bool) else NumP(b) for b in one.leaves]
    if kind == "set":
        preds = list({pred_text(x): x for x in preds}.values())
        lives = list({key(x): x for x in lives}.values())
    pairs = _match(preds, lives, tol)
    n, right = len(lives), len(pairs)
    missing = [display_item(o) for j, o in enumerate(lives) if j not in pairs.values()]
    extra = [pred_text(x) for i, x in enumerate(preds) if i not in pairs]
    in_order = all(i == j for i, j in pairs.items())
    if not missing and not extra:
        if kind == "set" or in_order:
            if n == 0:
                return correct("Right: it is empty.")
            what = "the one item" if n == 1 else f"all {n} items"
            order = "" if kind == "set" or n < 2 else ", in order"
            return correct(f"Right: {what}{order}.")
        return partial("Right items, wrong order.", f"The live order is {exp}.")
    parts = []
    if missing:
        parts.append(f"missing: {_names(missing)}")
    if extra:
        parts.append(f"not in the live value: {_names(extra)}")
    if not preds:
        return incorrect(f"The live value has {n} item{'' if n == 1 else 's'}: {exp}.")
    if not lives:
        return incorrect(f"The live value is empty: {exp}.")
    if right == 0:
        return incorrect(f"None of those is in the live value: {exp}.")
    if not missing:
        verb = "is" if len(extra) == 1 else "are"
        return partial(f"All {n} live items are there, but also {_names(extra)}, which {verb} not.")
    text = f"{right} of {n} right; {'; '.join(parts)}"
    return partial(text if text.endswith(".") else text + ".")
