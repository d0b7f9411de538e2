"""Properties checked with hypothesis:

* the judge never raises and never blows up (a guard of 1 s of CPU time, twenty times
  the 50 ms target), whatever is typed, against any live value, for every kind; the
  target itself is measured by benchmarks/judge_worst_case.py, not asserted here;
* `notation(obs, kind)` is judged correct against `obs`, for generated
  observations of every kind;
* negating a right yes/no answer never leaves it right.

Both use `judge_strict` (the judge without its safety net) so that a bug shows
up as an exception instead of a polite `invalid`.
"""

from __future__ import annotations

import keyword
import string
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from judge_obs import NONE

from tutor.judge import JudgeSpec, Status, notation
from tutor.judge.api import clear_caches, judge_strict
from tutor.judge.base.dtypes import KNOWN, dtype_class
from tutor.judge.reading.words import BUILTIN_MRO
from tutor.kinds import KINDS

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

LIVE_FOR_KIND: dict[str, dict[str, Any]] = {
    "number": {"type": "float", "value": 0.6000000238418579},
    "tensor": {"type": "tensor", "dtype": "float32", "shape": [2], "values": [3.0, 1.0]},
    "bool": {"type": "bool", "value": True},
    "text": {"type": "grad_fn", "name": "LogBackward0"},
    "choice": {"type": "str", "value": "b"},
    "set": {"type": "dict", "items": [[{"type": "str", "value": "a"}, NONE]]},
    "list": {"type": "list", "items": [{"type": "int", "value": 1}, NONE]},
    "shape": {"type": "size", "value": [2, 3]},
    "dtype": {"type": "dtype", "value": "float32"},
    "exception": {"type": "exception", "name": "RuntimeError", "message": "x",
                  "mro": ["RuntimeError", "Exception", "BaseException"]},
    "same_storage": {"type": "bool", "value": False},
    "stdout": {"type": "str", "value": "tensor([1.])\n"},
}  # fmt: skip
SPECS = {k: JudgeSpec(k, choices=("a", "b", "c") if k == "choice" else (),
                      feedback=(("0.6", "fb"), ("None", "fb2"))) for k in KINDS}  # fmt: skip

ALPHABET = "()[]{}<>,.:=+-*/x\u00d7'\"` \n\t0123456789eEjnaif_TrueFalsNoe\u2212\uff11"


# A hang guard, not a speed target (that one, 50 ms per answer, lives in
# benchmarks/judge_worst_case.py): catastrophic backtracking or a quadratic blow-up on a
# long answer costs seconds; a busy machine never costs twenty times the target.
GUARD = 1.0  # seconds of this process's CPU time


def _timed(kind: str, text: str, live: dict[str, Any]) -> float:
    clear_caches()  # timed cold
    start = time.process_time()  # this process's CPU time: other processes don't count
    v = judge_strict(SPECS[kind], text, live)
    elapsed = time.process_time() - start
    assert v.status in Status
    assert isinstance(v.message, str) and v.message
    assert v.answer == text
    return elapsed


def _run(kind: str, text: str, live: dict[str, Any] | None = None) -> None:
    live = LIVE_FOR_KIND[kind] if live is None else live
    elapsed = min(_timed(kind, text, live) for _ in range(2))  # (a blow-up is slow every time)
    assert elapsed <= GUARD, (kind, len(text), elapsed)


@FAST
@given(kind=st.sampled_from(sorted(KINDS)), text=st.text(max_size=300))
def test_never_raises_on_any_text(kind: str, text: str) -> None:
    _run(kind, text)


@FAST
@given(kind=st.sampled_from(sorted(KINDS)), text=st.text(alphabet=ALPHABET, max_size=200))
def test_never_raises_on_grammar_like_text(kind: str, text: str) -> None:
    _run(kind, text)


@st.composite
def adversarial(draw: st.DrawFn) -> str:
    n = draw(st.integers(0, 12_000))
    choice = draw(st.integers(0, 7))
    return [
        "[" * n + "]" * n,
        "(" * n,
        "9" * n,
        "+" * n + "1",
        "-" * min(n, 3) + "1",
        "[" + ",".join(["1"] * (n // 4)) + "]",
        "tensor(" * min(n, 40) + "1" + ")" * min(n, 40),
        "'" + "\\" * n + "'",
    ][choice]


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(sorted(KINDS)), text=adversarial())
def test_never_raises_on_adversarial_text(kind: str, text: str) -> None:
    _run(kind, text)


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize(
    "text",
    ["+" * 4000 + "1", "[" * 10_000 + "]" * 10_000, "1" * 1_000_000, "[" * 32 + "1" + "]" * 32,
     "\ufdfa" * 1000, "1e" + "9" * 40, "0." + "0" * 48 + "1", "[1" + ", 1" * 999 + "]",
     "'a', " * 16_000, "1, " * 9_999, "(" * 32 + ")" * 32, "2**" * 500 + "2", "-1" * 30_000,
     "no " * 30_000, "not a copy, " * 8_000, "RuntimeError " * 8_000, "a" * 100_000,
     " " * 100_000 + "1", "\\" * 50_000, "1.2.3." * 16_000, "0.weight." * 10_000],
)  # fmt: skip
def test_known_hostile_inputs(kind: str, text: str) -> None:
    _run(kind, text)


BIG_LIVES: list[dict[str, Any]] = [
    {"type": "list", "items": [{"type": "float", "value": i / 7} for i in range(1000)]},
    {"type": "list", "items": [{"type": "str", "value": f"layer{i}.weight"} for i in range(1000)]},
    {"type": "dict", "items": [[{"type": "str", "value": f"k{i}"}, NONE] for i in range(1000)]},
    {"type": "list", "items": [{"type": "int", "value": 0} for _ in range(1000)]},
    {"type": "tensor", "dtype": "float32", "shape": [10_000], "values": [0.5] * 10_000},
    {"type": "tensor", "dtype": "float32", "shape": [100, 100],
     "values": [[i / 3 for i in range(100)] for _ in range(100)]},
    {"type": "list", "items": [{"type": "tensor", "dtype": "float32", "shape": [3],
                                "values": [1.0, 2.0, float(i)]} for i in range(300)]},
    {"type": "str", "value": "tensor([1.])\n" * 7000},
]
BIG_ANSWERS = [
    "[" + ", ".join(f"'{i / 7}'" for i in range(1000)) + "]",
    "[" + ", ".join(f"{i / 7:.4f}" for i in range(1000)) + "]",
    ", ".join(f"layer{i}.Weight" for i in range(1000)),
    ", ".join("0" for _ in range(2000)),
    "[" + ", ".join("tensor([1., 2., 0.])" for _ in range(300)) + "]",
    "tensor([" + ", ".join("0.5" for _ in range(9990)) + "])",
    "tensor([1.])\n" * 7000,
]


@pytest.mark.parametrize("kind", ["set", "list", "tensor", "number", "text", "stdout"])
@pytest.mark.parametrize("live", range(len(BIG_LIVES)))
@pytest.mark.parametrize("answer", range(len(BIG_ANSWERS)))
def test_big_answers_against_big_live_values(kind: str, live: int, answer: int) -> None:
    _run(kind, BIG_ANSWERS[answer], BIG_LIVES[live])


# ---- observations of every kind ---------------------------------------------

F32 = st.floats(width=32)
F64 = st.floats()
FINITE32 = st.floats(width=32, allow_nan=False, allow_infinity=False)


def _json(v: float) -> float | str:
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return v


def _values_for(dtype: str) -> st.SearchStrategy[Any]:
    cls = dtype_class(dtype)
    if cls == "bool":
        return st.booleans()
    if cls == "int":
        lo, hi = (0, 255) if dtype == "uint8" else (-(2**63), 2**63 - 1)
        return st.integers(lo, hi)
    if cls == "complex":
        return st.tuples(F32, F32).map(lambda p: [_json(p[0]), _json(p[1])])
    width = 16 if dtype in ("float16", "bfloat16") else (64 if dtype == "float64" else 32)
    return st.floats(width=width).map(_json)


def _nest(flat: list[Any], shape: list[int]) -> Any:
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return flat
    step = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


@st.composite
def tensors(draw: st.DrawFn, max_dims: int = 3) -> dict[str, Any]:
    dtype = draw(st.sampled_from(["float32", "float64", "float16", "bfloat16", "int64", "int32",
                                  "uint8", "int8", "bool", "complex64"]))  # fmt: skip
    shape = draw(st.lists(st.integers(0, 4), max_size=max_dims))
    n = 1
    for d in shape:
        n *= d
    flat = draw(st.lists(_values_for(dtype), min_size=n, max_size=n))
    if not shape:
        flat = flat or [draw(_values_for(dtype))]
    grad_fn = draw(st.sampled_from([None, "MulBackward0", "CloneBackward0"]))
    return {
        "type": "tensor", "dtype": dtype, "shape": shape, "values": _nest(flat, shape),
        "requires_grad": grad_fn is not None or draw(st.booleans()), "is_leaf": grad_fn is None,
        "grad_fn": grad_fn, "is_parameter": False, "device": "cpu",
    }  # fmt: skip


NAMES = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}(\.[A-Za-z0-9_]{1,8}){0,2}", fullmatch=True)
STRINGS = st.one_of(NAMES, st.text(max_size=20))


def _num_obs() -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        F32.map(lambda v: {"type": "float", "value": _json(v)}),
        F64.map(lambda v: {"type": "float", "value": _json(v)}),
        st.integers(-(2**63), 2**63).map(lambda v: {"type": "int", "value": v}),
    )


def _item_obs() -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        STRINGS.map(lambda v: {"type": "str", "value": v}),
        _num_obs(),
        st.just(NONE),
        st.booleans().map(lambda v: {"type": "bool", "value": v}),
        tensors(max_dims=2),
    )


def _exceptions() -> st.SearchStrategy[dict[str, Any]]:
    builtin = st.sampled_from(sorted(BUILTIN_MRO)).map(
        lambda n: {"type": "exception", "name": n, "message": "m", "mro": BUILTIN_MRO[n]}
    )
    custom = st.from_regex(r"[A-Z][a-z]{0,6}(Error|Exception|Warning)", fullmatch=True).map(
        lambda n: {
            "type": "exception",
            "name": n,
            "message": "",
            "mro": [n, "Exception", "BaseException"],
        }  # fmt: skip
    )
    return st.one_of(builtin, custom, st.just(NONE))


OBS_FOR_KIND: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "number": st.one_of(
        _num_obs(),
        st.booleans().map(lambda v: {"type": "bool", "value": v}),
        st.tuples(F32, F32).map(
            lambda p: {"type": "complex", "real": _json(p[0]), "imag": _json(p[1])}
        ),  # fmt: skip
        F32.map(lambda v: {"type": "tensor", "dtype": "float32", "shape": [], "values": _json(v)}),
        F32.map(
            lambda v: {"type": "tensor", "dtype": "float32", "shape": [1], "values": [_json(v)]}
        ),  # fmt: skip
        st.just(NONE),
    ),
    "tensor": st.one_of(tensors(), st.just(NONE)),
    "bool": st.booleans().map(lambda v: {"type": "bool", "value": v}),
    "same_storage": st.booleans().map(lambda v: {"type": "bool", "value": v}),
    "text": st.one_of(
        STRINGS.map(lambda v: {"type": "str", "value": v}),
        NAMES.map(lambda v: {"type": "grad_fn", "name": v}),
        st.sampled_from(sorted(KNOWN)).map(lambda v: {"type": "dtype", "value": v}),
        NAMES.filter(lambda v: "." not in v).map(
            lambda v: {"type": "module", "class": v, "repr": v + "()"}
        ),
        st.just(NONE),
    ),
    "choice": st.text(string.ascii_letters + string.digits + " .,'-", max_size=20)
    .filter(lambda v: any(c.isalnum() for c in v))
    .map(lambda v: {"type": "str", "value": v}),
    "set": st.one_of(
        st.lists(STRINGS, max_size=8, unique=True).map(
            lambda xs: {"type": "set", "items": [{"type": "str", "value": x} for x in xs]}
        ),
        st.lists(NAMES, max_size=8, unique=True).map(
            lambda xs: {"type": "dict", "items": [[{"type": "str", "value": x}, NONE] for x in xs]}
        ),
        st.lists(_num_obs(), max_size=6).map(lambda xs: {"type": "set", "items": xs}),
    ),
    "list": st.lists(_item_obs(), max_size=5).flatmap(
        lambda xs: st.sampled_from(["list", "tuple"]).map(lambda k: {"type": k, "items": xs})
    ),
    "shape": st.one_of(
        st.lists(st.integers(0, 2**31), max_size=5).map(lambda v: {"type": "size", "value": v}),
        tensors(),
    ),
    "dtype": st.one_of(
        st.sampled_from(sorted(KNOWN)).map(lambda v: {"type": "dtype", "value": v}), tensors()
    ),
    "exception": _exceptions(),
    "stdout": st.text(max_size=300).map(lambda v: {"type": "str", "value": v}),
}


def test_every_kind_has_observations() -> None:
    assert set(OBS_FOR_KIND) == set(KINDS)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(KINDS)), text=st.one_of(st.text(max_size=200),
       st.text(alphabet=ALPHABET, max_size=200)), data=st.data())
def test_never_raises_against_any_live_value(kind: str, text: str, data: st.DataObject) -> None:
    live = data.draw(st.one_of(*OBS_FOR_KIND.values()))  # of this kind or any other
    _run(kind, text, live)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_notation_is_judged_correct(kind: str) -> None:
    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(obs=OBS_FOR_KIND[kind])
    def check(obs: dict[str, Any]) -> None:
        text = notation(obs, kind)
        spec = JudgeSpec(kind, choices=(text,) if kind == "choice" else ())
        v = judge_strict(spec, text, obs)
        assert v.status is Status.CORRECT, (text, obs, v.message)

    check()


def test_notation_examples() -> None:
    assert notation({"type": "float", "value": 0.6000000238418579}, "number") == "0.6"
    assert notation({"type": "float", "value": 1.6094379425048828}, "number") == "1.6094"
    assert notation({"type": "float", "value": -4.0}, "number") == "-4.0"
    assert notation({"type": "float", "value": 0.00800000037997961}, "number") == "0.008"
    assert notation({"type": "int", "value": 3}, "number") == "3"
    t = {"type": "tensor", "dtype": "float32", "shape": [2], "values": [3.0, 1.0]}
    assert notation(t, "tensor") == "tensor([3., 1.])"
    assert notation({**t, "dtype": "int32", "values": [3, 1]}, "tensor") == (
        "tensor([3, 1], dtype=torch.int32)"
    )
    assert notation({"type": "tensor", "dtype": "float32", "shape": [], "values": 0.5},
                    "tensor") == "tensor(0.5)"  # fmt: skip
    keys = {"type": "dict", "items": [[{"type": "str", "value": "a"}, NONE],
                                      [{"type": "str", "value": "b"}, NONE]]}  # fmt: skip
    assert notation(keys, "set") == "['a', 'b']"
    assert notation(NONE, "number") == "None"
    assert notation(NONE, "exception") == "no error"
    exc = {"type": "exception", "name": "RuntimeError", "message": "m", "mro": []}
    assert notation(exc, "exception") == "RuntimeError"
    assert notation({"type": "bool", "value": True}, "bool") == "True"
    assert notation({"type": "bool", "value": False}, "same_storage") == "no"
    assert notation({"type": "size", "value": [2, 3]}, "shape") == "(2, 3)"
    assert notation({"type": "size", "value": [3]}, "shape") == "(3,)"
    assert notation({"type": "dtype", "value": "int64"}, "dtype") == "torch.int64"
    assert notation({"type": "grad_fn", "name": "LogBackward0"}, "text") == "LogBackward0"
    assert notation({"type": "str", "value": "hi\n"}, "stdout") == "hi\n"
    assert notation({"type": "str", "value": ""}, "stdout") == "nothing"


def test_notation_refuses_what_it_cannot_write() -> None:
    big = {"type": "tensor", "dtype": "float32", "shape": [200, 100], "truncated": True}
    with pytest.raises(ValueError):
        notation(big, "tensor")
    with pytest.raises(ValueError):
        notation({"type": "tensor", "dtype": "float32", "shape": [10_000],
                  "values": [i / 7 for i in range(10_000)]}, "tensor")  # fmt: skip
    # a uniform tensor too long to write out is written as torch.full(...)
    assert notation({"type": "tensor", "dtype": "float32", "shape": [1000],
                     "values": [0.123456] * 1000}, "tensor") == "torch.full((1000,), 0.1235)"
    with pytest.raises(ValueError):
        notation({"type": "str", "value": "x" * 100_001}, "stdout")
    assert notation({"type": "size", "value": [200, 100]}, "shape") == "(200, 100)"
    assert not keyword.iskeyword("tensor")


# ---- negating a right yes/no answer never leaves it right ----------------------

SAYS: dict[str, dict[bool, list[str]]] = {
    "bool": {
        True: ["yes", "true", "yep", "it is", "yes, it is", "True", "it does", "yes it does",
               "definitely yes", "t.is_contiguous() = True", "y"],
        False: ["no", "false", "nope", "it isn't", "no, it is not", "False", "it doesn't",
                "not contiguous", "not a leaf", "never", "n"],
    },
    "same_storage": {
        True: ["yes", "same memory", "they share memory", "shared", "it's a view",
               "b is a view of a", "same storage", "they share storage", "the same storage",
               "b aliases a", "no copy is made", "same storage, different strides", "a view"],
        False: ["no", "separate memory", "they don't share memory", "a copy", "b is a copy",
                "different storage", "two storages", "not shared", "a clone",
                "a copy, not a view", "they have separate storages", "b owns new memory"],
    },
}


def _negations(text: str, said: bool) -> list[str]:
    opposite = "no" if said else "yes"
    out = [f"not {text}", f"{opposite}, {text}", f"{text}, {opposite}", f"{text}, but {opposite}",
           f"{text} - {opposite}", f"{opposite} {text}" if text in ("true", "false") else text]
    for a, b in ((" is ", " isn't "), (" share", " don't share"), (" are ", " aren't "),
                 (" does", " doesn't"), (" a view", " not a view"), ("is a copy", "is not a copy"),
                 ("same ", "not the same "), ("they ", "they never ")):
        if a in f" {text}":
            out.append(f" {text}".replace(a, b, 1).strip())
    return [t for t in out if t != text]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(SAYS)), said=st.booleans(), data=st.data(),
       upper=st.booleans(), end=st.sampled_from(["", ".", "!"]))
def test_negating_a_right_yes_no_answer_never_stays_right(
        kind: str, said: bool, data: st.DataObject, upper: bool, end: str) -> None:
    text = data.draw(st.sampled_from(SAYS[kind][said]))
    live = {"type": "bool", "value": said}
    spec = JudgeSpec(kind)
    assert judge_strict(spec, text, live).status is Status.CORRECT, text
    negated = data.draw(st.sampled_from(_negations(text, said)))
    negated = (negated[:1].upper() + negated[1:] if upper else negated) + end
    v = judge_strict(spec, negated, live)
    assert v.status is not Status.CORRECT, (text, negated, v.message)
    # and the opposite answer is never right
    other = data.draw(st.sampled_from(SAYS[kind][not said]))
    assert judge_strict(spec, other, live).status is not Status.CORRECT, other
