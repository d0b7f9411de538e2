"""An index of the live items of a collection, and the pairing of typed items
with them.

Strings and names are found by key, numbers by value (sorted, searched within
the reach of what was typed), tensors by shape, sequences by length; the index
only proposes candidates, `matching.item_matches` decides.  Typed items that
read the same share one stream of candidates, so a live item one of them was
compared with is never tried again.
"""

from __future__ import annotations

import copy
import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from typing import Any, overload

from ..base import dtypes
from ..base.obs import (
    Obs,
    as_live,
    class_path,
    items,
    number_dtype,
    otype,
    single_number,
    tensor_dtype,
    tensor_leaves,
    tensor_shape,
)  # fmt: skip
from ..base.text import NONE_WORDS
from ..base.verdict import Tolerance
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
)  # fmt: skip
from ..reading.tensors import seq_as_tensor
from ..reading.words import exception_name, text_key
from .matching import item_matches
from .numbers import EXACT_STEPS, typed_gap

MATCH_BUDGET = 5_000  # costly comparisons (tensors, nested lists) for one answer
MISSES_PER_ITEM = 32  # candidates tried for one typed item before giving up on it


class Elements(Sequence[Obs]):
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

    def unique(self) -> Elements:
        return Elements(list(dict.fromkeys(self.values)), self.dtype)


def tensor_elements(live: Obs) -> Elements | None:
    if otype(live) != "tensor" or len(tensor_shape(live)) != 1:
        return None
    leaves = tensor_leaves(live)
    if leaves is None:
        return None
    return Elements([v for v in leaves if not isinstance(v, complex)], tensor_dtype(live))


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
        if isinstance(lives, Elements):  # a tensor's elements: numbers, quickly
            self.kinds.add(lives.kind)
            self.by_type[lives.kind] = list(range(len(lives)))
            self.dtypes.add(lives.dtype)
            numbers = [(float(v), j) for j, v in enumerate(lives.values) if v == v]
            self.complex = [j for j, v in enumerate(lives.values) if v != v]
        for j, obs in enumerate(lives if not isinstance(lives, Elements) else ()):
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
        if not self.values:
            return
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


_LAST_INDEX: list[_Index] = []  # the indexes of the last two live item lists matched against


def index_of(lives: Sequence[Obs]) -> _Index:
    """An index of `lives`, nothing taken yet.  The last one built is kept: the
    examples under an answer entry are matched against the same live value one
    after another, and a 1,000-item value is indexed once, not ten times."""
    for kept in _LAST_INDEX:
        if kept.lives is lives:
            index = copy.copy(kept)
            index.taken = [False] * len(lives)
            index.next_free = list(range(len(index.values) + 1))
            return index
    index = _Index(lives)
    _LAST_INDEX[:] = [copy.copy(index), *_LAST_INDEX[:1]]  # (a value's items, and its unique ones)
    return index


def clear_cache() -> None:
    _LAST_INDEX.clear()


def _number_of(token: str) -> NumLit | None:
    """A quoted number ('1.5') may name a live number."""
    if not token or len(token) > 60 or not (token[0].isdigit() or token[0] in "+-."):
        return None
    num = number_in(token)
    return num.lit if num is not None else None


_COSTLY = (TensorP, SeqP)


def match(preds: list[Pred], texts: list[str], lives: Sequence[Obs],
           tol: Tolerance | None) -> dict[int, int]:
    """Pairs typed index -> live index: same positions first, then through the index.

    Typed items that read the same share one stream of candidates: a live item
    one of them was compared with (and did not match) is never tried again."""
    index = index_of(lives)
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


