"""Comparing set and list predictions with observations.

Items are paired through an index of the live items (strings and names by key,
numbers sorted by value, tensors by shape, sequences by length), so that a
thousand typed items against a thousand live ones cost a few thousand
comparisons, not a million.  `item_matches` is the one rule of what matches;
the index only proposes candidates to it.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from typing import Any, overload

from ..base import dtypes
from ..base.obs import (
    Obs,
    as_live,
    class_path,
    is_none,
    items,
    key,
    number_dtype,
    otype,
    single_number,
    tensor_dtype,
    tensor_leaves,
    tensor_shape,
)  # fmt: skip
from ..base.parts import Item, Live, Part, Said
from ..base.text import NONE_WORDS
from ..base.verdict import Outcome, Status, Tolerance, correct, incorrect, partial
from ..reading.grammar import number_in
from ..reading.numbers import NumLit
from ..reading.predictions import (
    BoolP,
    NoneP,
    NumP,
    Pred,
    SeqP,
    ShapeP,
    TensorP,
    TextP,
    pred_text,
)  # fmt: skip
from ..reading.tensors import seq_as_tensor
from ..reading.words import exception_name, text_key
from .names import name_matches
from .numbers import EXACT_STEPS, typed_gap
from .values import compare_tensor, leaf_matches, live_shape

MATCH_BUDGET = 5_000  # costly comparisons (tensors, nested lists) for one answer
MISSES_PER_ITEM = 32  # candidates tried for one typed item before giving up on it


def item_matches(p: Pred, obs: Obs, tol: Tolerance | None) -> bool:
    """Is the typed item `p` the live item `obs`?"""
    if isinstance(p, NoneP):
        return is_none(obs)
    if isinstance(p, TextP):
        return name_matches(p.token, obs, forms=False)
    if isinstance(p, NumP):
        if otype(obs) == "str":  # a child named '0' typed as 0
            return isinstance(p.lit, NumLit) and p.lit.text == obs.get("value")
        v = single_number(obs)
        return v is not None and leaf_matches(p.lit, v, number_dtype(obs), tol)
    if isinstance(p, BoolP):
        return otype(obs) == "bool" and bool(obs.get("value")) == p.value
    if isinstance(p, TensorP):
        return not _differs(p, obs, tol) and compare_tensor(p, obs, tol).status is Status.CORRECT
    if isinstance(p, ShapeP):
        return otype(obs) in ("size", "list", "tuple") and live_shape(obs) == p.dims
    if isinstance(p, SeqP):
        t = otype(obs)
        if t == "tensor":
            tensor = seq_as_tensor(p)
            return tensor is not None and item_matches(tensor, obs, tol)
        if t == "size":
            dims = [x.lit.value for x in p.items if isinstance(x, NumP)
                    and isinstance(x.lit, NumLit) and isinstance(x.lit.value, int)]
            return len(dims) == len(p.items) and tuple(dims) == live_shape(obs)
        its = items(obs)
        return (its is not None and len(its) == len(p.items)
                and all(item_matches(a, b, tol) for a, b in zip(p.items, its, strict=False)))
    return False


def _differs(p: TensorP, obs: Obs, tol: Tolerance | None) -> bool:
    """A quick look for a difference between a typed tensor and a live one: the
    shape, then the values up to the first that differs.  False means "maybe
    equal": `compare_tensor` decides."""
    if otype(obs) != "tensor":
        return False
    shape = tensor_shape(obs)
    if p.shape is not None and p.shape != shape:
        return True
    leaves = tensor_leaves(obs)
    if leaves is None or p.uniform:
        return False
    dtype = tensor_dtype(obs)
    return any(not leaf_matches(a, b, dtype, tol) for a, b in zip(p.leaves, leaves, strict=False))


def dedupe_key(obs: Obs) -> object:
    """What makes two live items the same item (quick for plain values)."""
    t = otype(obs)
    if t in ("int", "float", "str", "bool", "none"):
        return (t, repr(obs.get("value")))  # repr: -0.0 is not 0.0, as in the kernel's JSON
    return key(obs)


def _name_keys(obs: Obs) -> list[str]:
    """The keys a live item can be named by (a superset: `item_matches` decides)."""
    t = otype(obs)
    if t == "str":
        value = str(obs.get("value", ""))
        out = [value.casefold()]
        canon = dtypes.canonical(value)
        return out + [canon] if canon else out
    if t == "none":
        return ["none"]
    if t == "grad_fn":
        return [str(obs.get("name", "")).casefold()]
    if t == "dtype":
        return [str(obs.get("value", ""))]
    if t == "device":
        value = str(obs.get("value", "")).casefold()
        return [value, value.split(":")[0]]
    if t == "exception":
        return [exception_name(str(obs.get("name", "")))]
    path = class_path(obs)
    if path is not None:
        return [path.rsplit(".", 1)[-1].casefold()]
    if t in ("module", "object"):
        return [str(obs.get("class", "")).casefold(), text_key(str(obs.get("repr", "")))]
    if t == "bool":
        return [str(bool(obs.get("value"))).casefold()]
    return []


def _typed_keys(token: str, index: _Index) -> set[str]:
    """The keys a typed name may be found by (only those the live items have)."""
    low = token.casefold()
    keys = {low, low.removesuffix("()"), low.rsplit(".", 1)[-1].removesuffix("()")}
    if "<" in token or "`" in token or token != token.strip():
        keys.add(text_key(token))
    if index.kinds & {"dtype", "str"}:
        canon = dtypes.canonical(token)
        if canon:
            keys.add(canon)
    if "exception" in index.kinds:
        keys.add(exception_name(low))
    if low in NONE_WORDS:
        keys.add("none")
    if "device" in index.kinds and low.startswith(("device(", "torch.device(")):
        keys.add(low.split("'")[1] if "'" in low else low)
    return keys


def _coarsest(lives_dtypes: set[str]) -> str:
    """Of the live numbers' dtypes, the one with the coarsest resolution."""
    floats = [d for d in lives_dtypes if d in dtypes.MANTISSA_BITS]
    return min(floats, key=dtypes.MANTISSA_BITS.__getitem__) if floats else "int64"


def _window(lit: NumLit, coarsest: str, tol: Tolerance | None) -> float:
    """How far from the typed value a matching live number can be (a bound for
    the search; the number rule itself decides)."""
    t = float(lit.value)
    if not math.isfinite(t):
        return 0.0
    res = dtypes.spacing(abs(t) * 1.1 + 1e-300, coarsest)
    if tol is not None:
        return math.inf if tol.rtol >= 0.5 else (tol.atol + tol.rtol * abs(t)) * 2 + 2 * res
    if lit.exact:
        return max(EXACT_STEPS * res, 2 * dtypes.spacing(t * 1.1, "float32")) * 2 \
            + 1e-12 * abs(t) + 1e-300
    return max(typed_gap(lit), res) * 1.01 + 4 * math.ulp(t)


class _Index:
    """The live items, by what they can be found by."""

    def __init__(self, lives: Sequence[Obs]) -> None:
        self.lives = lives
        self.taken = [False] * len(lives)
        self.names: dict[str, list[int]] = {}
        self.strs: dict[str, list[int]] = {}
        self.by_type: dict[str, list[int]] = {}
        self.shapes: dict[tuple[int, ...], list[int]] = {}
        self.lengths: dict[int, list[int]] = {}
        self.complex: list[int] = []
        numbers: list[tuple[float, int]] = []
        self.dtypes: set[str] = set()
        self.coarsest: str | None = None  # of self.dtypes, once known
        self.kinds: set[str] = set()
        self.cache: dict[str, list[int]] = {}
        if isinstance(lives, _Elements):  # a tensor's elements: numbers, quickly
            self.kinds.add(lives.kind)
            self.by_type[lives.kind] = list(range(len(lives)))
            self.dtypes.add(lives.dtype)
            numbers = [(float(v), j) for j, v in enumerate(lives.values) if v == v]
            self.complex = [j for j, v in enumerate(lives.values) if v != v]
        for j, obs in enumerate(lives if not isinstance(lives, _Elements) else ()):
            t = otype(obs)
            self.kinds.add(t)
            self.by_type.setdefault(t, []).append(j)
            if t in ("int", "float"):  # the common case, kept quick: a plain number
                try:
                    number = float(as_live(obs.get("value")))
                except (TypeError, OverflowError):
                    continue
                if number == number:
                    numbers.append((number, j))
                    self.dtypes.add("float64" if t == "float" else "int64")
                else:
                    self.complex.append(j)  # nan: checked one by one
                continue
            for k in _name_keys(obs):
                self.names.setdefault(k, []).append(j)
            if t == "str":
                self.strs.setdefault(str(obs.get("value", "")), []).append(j)
            if t == "tensor":
                self.shapes.setdefault(tensor_shape(obs), []).append(j)
            if t == "size":
                self.lengths.setdefault(len(obs.get("value", ())), []).append(j)
            its = items(obs)
            if its is not None:
                self.lengths.setdefault(len(its), []).append(j)
            try:
                v = single_number(obs)
            except (TypeError, ValueError):
                v = None
            if isinstance(v, complex):
                self.complex.append(j)
            elif v is not None and not (isinstance(v, float) and math.isnan(v)):
                numbers.append((float(v), j))
                self.dtypes.add(number_dtype(obs))
            elif v is not None:
                self.complex.append(j)  # nan: checked one by one
        numbers.sort()
        self.values = [v for v, _ in numbers]
        self.order = [j for _, j in numbers]
        self.next_free = list(range(len(numbers) + 1))  # union-find: next untaken position

    def _free(self, pos: int) -> int:
        root = pos
        while self.next_free[root] != root:
            root = self.next_free[root]
        while self.next_free[pos] != root:  # path compression
            self.next_free[pos], pos = root, self.next_free[pos]
        return root

    def take(self, j: int) -> None:
        self.taken[j] = True

    def _numbers_near(self, lit: NumLit, tol: Tolerance | None) -> Iterator[int]:
        t = float(lit.value)
        if self.coarsest is None:
            self.coarsest = _coarsest(self.dtypes)
        w = _window(lit, self.coarsest, tol)
        lo, hi = bisect_left(self.values, t - w), bisect_right(self.values, t + w)
        pos = self._free(lo)
        while pos < hi:
            j = self.order[pos]
            if self.taken[j]:
                self.next_free[pos] = pos + 1  # skipped for good by every later search
            else:
                yield j
            pos = self._free(pos + 1)

    def _named(self, token: str) -> list[int]:
        """Live items a typed name may be (cached: answers repeat names)."""
        found = self.cache.get(token)
        if found is None:
            found = sorted({j for k in _typed_keys(token, self) for j in self.names.get(k, ())})
            self.cache[token] = found
        return found

    def candidates(self, p: Pred, tol: Tolerance | None) -> Iterator[int]:
        """Live items `p` may be (a superset, in a sensible order)."""
        if isinstance(p, NoneP):
            yield from self.by_type.get("none", [])
        elif isinstance(p, TextP):
            yield from self._named(p.token)
            num = _number_of(p.token) if self.values else None
            if num is not None:
                yield from self._numbers_near(num, tol)
        elif isinstance(p, NumP):
            if isinstance(p.lit, NumLit):
                yield from self.strs.get(p.lit.text, [])
                yield from self._numbers_near(p.lit, tol)
            else:
                yield from self._numbers_near(p.lit.real, tol)
            yield from self.complex
        elif isinstance(p, BoolP):
            yield from self.by_type.get("bool", [])
        elif isinstance(p, TensorP):
            if p.shape is None:
                yield from self.by_type.get("tensor", [])
            else:
                yield from self.shapes.get(p.shape, [])
            if len(p.leaves) == 1 and not p.uniform:
                leaf = p.leaves[0]
                if isinstance(leaf, NumLit):
                    yield from self._numbers_near(leaf, tol)
        elif isinstance(p, ShapeP):
            yield from self.lengths.get(len(p.dims), [])
        elif isinstance(p, SeqP):
            yield from self.lengths.get(len(p.items), [])
            tensor = seq_as_tensor(p)
            if tensor is not None:
                yield from self.shapes.get(tensor.shape or (), [])


def _number_of(token: str) -> NumLit | None:
    """A quoted number ('1.5') may name a live number."""
    if not token or len(token) > 60 or not (token[0].isdigit() or token[0] in "+-."):
        return None
    num = number_in(token)
    return num.lit if num is not None else None


_COSTLY = (TensorP, SeqP)


def _match(preds: list[Pred], texts: list[str], lives: Sequence[Obs],
           tol: Tolerance | None) -> dict[int, int]:
    """Pairs typed index -> live index: same positions first, then through the index.

    Typed items that read the same share one stream of candidates: a live item
    one of them was compared with (and did not match) is never tried again."""
    index = _Index(lives)
    pairs: dict[int, int] = {}
    budget = MATCH_BUDGET
    for i, p in enumerate(preds[: len(lives)]):
        if isinstance(p, _COSTLY):
            budget -= 1
            if budget < 0:
                break
        if item_matches(p, lives[i], tol):
            pairs[i] = i
            index.take(i)
    streams: dict[tuple[type, str], Iterator[int]] = {}
    for i, p in enumerate(preds):
        if i in pairs:
            continue
        same = (type(p), texts[i])
        stream = streams.get(same)
        if stream is None:
            stream = streams[same] = index.candidates(p, tol)
        misses = 0
        for j in stream:
            if index.taken[j]:
                continue
            if isinstance(p, _COSTLY):
                budget -= 1
                if budget < 0:
                    return pairs
            if item_matches(p, lives[j], tol):
                pairs[i] = j
                index.take(j)
                break
            misses += 1
            if misses >= MISSES_PER_ITEM:
                break
    return pairs


class _Elements(Sequence[Obs]):
    """The elements of a 1-d tensor as items, made into observations only when
    looked at (a tensor may have 10,000 of them)."""

    def __init__(self, values: list[Any], dtype: str) -> None:
        self.values = values
        self.dtype = dtype
        self.kind = {"bool": "bool", "int": "int"}.get(dtypes.dtype_class(dtype), "float")

    def __len__(self) -> int:
        return len(self.values)

    @overload
    def __getitem__(self, j: int) -> Obs: ...
    @overload
    def __getitem__(self, j: slice) -> list[Obs]: ...
    def __getitem__(self, j: int | slice) -> Obs | list[Obs]:
        if isinstance(j, slice):
            return [self[k] for k in range(*j.indices(len(self)))]
        return {"type": self.kind, "value": self.values[j], "dtype": self.dtype}

    def unique(self) -> _Elements:
        return _Elements(list(dict.fromkeys(self.values)), self.dtype)


def _tensor_items(live: Obs) -> _Elements | None:
    if otype(live) != "tensor" or len(tensor_shape(live)) != 1:
        return None
    leaves = tensor_leaves(live)
    if leaves is None:
        return None
    return _Elements([v for v in leaves if not isinstance(v, complex)], tensor_dtype(live))


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
        out.append(f", \u2026 ({n} in all)")
    return tuple(out)


def compare_items(p: SeqP, live: Obs, tol: Tolerance | None, *, ordered: bool) -> Outcome:
    lives: Sequence[Obs] | None = items(live)
    if lives is None:
        lives = _tensor_items(live)
    if lives is None:
        return incorrect("The live value is ", Live(live), ", not a collection of items.")
    preds = list(p.items)
    one = preds[0] if len(preds) == 1 else None
    if isinstance(one, TensorP) and one.shape is not None and len(one.shape) == 1 \
            and not one.uniform:
        if not (len(lives) == 1 and item_matches(one, lives[0], tol)):
            # `tensor([0., 2.])` written for the values [0.0, 2.0]: its elements
            preds = [BoolP(b) if isinstance(b, bool) else NumP(b) for b in one.leaves]
    texts = [pred_text(x) for x in preds]
    if not ordered:
        unique = dict(zip(texts, preds, strict=True))
        texts, preds = list(unique), list(unique.values())
        lives = lives.unique() if isinstance(lives, _Elements) else \
            list({dedupe_key(x): x for x in lives}.values())
    pairs = _match(preds, texts, lives, tol)
    n, right = len(lives), len(pairs)
    taken = set(pairs.values())
    missing = _Missing(lives, taken)
    extra: list[Part] = [Said(texts[i], 40) for i in range(len(preds)) if i not in pairs]
    in_order = all(i == j for i, j in pairs.items())
    if not missing and not extra:
        if not ordered or in_order:
            if n == 0:
                return correct("Right: it is empty.")
            what = "the one item" if n == 1 else f"all {n} items"
            order = ", in order" if ordered and n >= 2 else ""
            return correct(f"Right: {what}{order}.")
        return partial("Right items, wrong order.", details=(("The live order is ", Live(live),
                                                               "."),))
    if not preds:
        return incorrect(f"The live value has {n} item{'' if n == 1 else 's'}: ", Live(live), ".")
    if not lives:
        return incorrect("The live value is empty: ", Live(live), ".")
    if right == 0:
        return incorrect("None of those is in the live value: ", Live(live), ".")
    if not missing:
        verb = "is" if len(extra) == 1 else "are"
        return partial(f"All {n} live items are there, but also ",
                       *_listed(extra, len(extra)), f", which {verb} not.")
    parts: list[Part] = [f"{right} of {n} right; missing: ", *_listed(missing, len(missing))]
    if extra:
        parts += ["; not in the live value: ", *_listed(extra, len(extra))]
    return partial(*parts, ".")
