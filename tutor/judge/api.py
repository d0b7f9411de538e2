"""The judge's public functions: judge, parse_error, display, notation, and what
the answer entry may show (entry_examples, gives_away)."""

from __future__ import annotations

import math
import random
import re
from functools import lru_cache

from tutor import i18n

from .base.dtypes import spacing
from .base.errors import InvalidPrediction
from .base.obs import Obs, items, number_dtype, otype, single_number, tensor_leaves
from .base.parts import Fill, Said, short
from .base.text import check_length, clean, nfkc
from .base.verdict import JudgeSpec, Status, Verdict
from .comparing.items import clear_cache as clear_items_cache
from .comparing.numbers import matches
from .comparing.pseudo import to_observation
from .reading import korean
from .reading.grammar import number_in
from .reading.numbers import NumLit
from .reading.phrases import hedges
from .reading.predictions import ChoiceP, NumP, Pred
from .reading.words import _text_key, text_key
from .reading.words import choice_marks as choice_marks  # re-exported
from .reading.words import says_nothing_printed as says_nothing_printed  # re-exported
from .registry import REGISTRY, Kind, gives_an_item, is_right, judged, live_choice
from .showing.display import show
from .showing.render import how_to, invalid_message, render

_HEDGE = "That sounds unsure: take a guess; a wrong answer shows you why."  # (a template)


def _kind(spec: JudgeSpec) -> Kind:
    kind = REGISTRY.get(spec.kind)
    if kind is None:
        raise InvalidPrediction("This prompt has an unknown kind ", Fill(repr(spec.kind)), ".",
                                how=False)
    return kind


def parse(spec: JudgeSpec, text: str) -> Pred:
    """Read `text` as a prediction of `spec.kind`; raises InvalidPrediction."""
    kind = _kind(spec)
    if not isinstance(text, str):
        raise InvalidPrediction("Type an answer.")
    check_length(text)
    typed, text = text, korean.english(text, spec.kind)  # 네, 에러 없음: as in English
    if not kind.verbatim and (hedges(text) or korean.hedges(typed)) and \
            text_key(text) not in {text_key(c) for c in spec.choices}:  # "maybe" may be a choice
        raise InvalidPrediction(_HEDGE, how=False)
    return kind.read(text, spec)


def chosen(spec: JudgeSpec, text: str) -> int | None:
    """Which of a choice prompt's choices `text` picks (by its number, letter or text,
    as the judge reads it), or None (unreadable, or no choice)."""
    try:
        pred = parse(spec, text)
    except InvalidPrediction:
        return None
    return pred.index if isinstance(pred, ChoiceP) and 0 <= pred.index < len(spec.choices) \
        else None


def entry_examples(spec: JudgeSpec, live: Obs | None = None, n: int | None = None,
                   seed: str = "", beside: str = "") -> list[str]:
    """The kind's example answers, without those that would be right for `live` and,
    for sets and lists, those that name one of its items (all of them when the live
    value is not known yet).

    With `n`, at most `n` of them, picked by `seed` and kept in the registry's order:
    were the first `n` always shown, the one missing would point at the answer.  The
    same seed gives the same pick (a question shows the same examples each time).
    Examples that `beside` (the text shown with them, such as the entry's label)
    already holds are left out before the pick, so it still shows `n`."""
    kind = REGISTRY.get(spec.kind)
    if kind is None:
        return []
    named = [e for e in kind.examples if e not in beside]  # (every one when beside is "")
    pool = named if live is None else \
        [e for e in named
         if not is_right(kind, spec, e, live) and not gives_an_item(kind, spec, e, live)]
    if live is not None and (spec.feedback or spec.wrong):  # a likely wrong answer is no
        # neutral example
        pool = [e for e in pool if not _a_foreseen_mistake(kind, spec, e)]
    if live is not None and kind.entry == "items":
        pool = _like_the_items(pool, live)
    if live is not None and kind.name == "text":
        pool = _like_the_name(pool, live)
    if live is not None and kind.name == "number":  # -0.25 shown where 0.25 is right
        pool = [e for e in pool if not is_right(kind, spec, _negated(e), live)]
    if n is None or n >= len(pool):
        return pool
    pick = set(random.Random(seed).sample(pool, max(n, 0)))
    return [e for e in pool if e in pick]


def _a_foreseen_mistake(kind: Kind, spec: JudgeSpec, example: str) -> bool:
    """The example is one of the wrong answers the author foresaw, with feedback or
    under `wrong:` (reader r33 saw `3.5`, the mistake the question is built around,
    among the examples)."""
    try:
        pred = parse(spec, example)
    except InvalidPrediction:
        return False
    if _feedback(kind, spec, pred, example) is not None:
        return True
    return any(_fits(kind, spec, pred, key, example) is not None for key in spec.wrong)


def _negated(example: str) -> str:
    """The example with its sign flipped (`tensor(3.5)` -> `tensor(-3.5)`)."""
    if example.startswith("tensor(") and example.endswith(")"):
        return f"tensor({_negated(example[7:-1])})"
    return example[1:] if example.startswith("-") else "-" + example


_NODE_NAME = re.compile(r"(Backward(\d+)|AccumulateGrad|CopySlices)$")


def _like_the_name(pool: list[str], live: Obs) -> list[str]:
    """For names: node names for a node's name (`grad_fn`), names of other sorts
    otherwise.  For a node's name, none with the answer's number either: were the
    examples `SinBackward0 · ExpBackward0`, "is it LogBackward or LogBackward0?" would be
    answered on screen (reader r30)."""
    node = otype(live) == "grad_fn"
    alike = [e for e in pool if bool(_NODE_NAME.search(e)) == node]
    if node:
        number = _NODE_NAME.search(str(live.get("name", "")))
        if number and number.group(2) is not None:
            alike = [e for e in alike if not e.endswith(number.group(1))]
    return alike if len(alike) >= 2 else pool


def _like_the_items(pool: list[str], live: Obs) -> list[str]:
    """For sets and lists: examples of numbers where the items are numbers (strides,
    values), of names where they are names (keys); `[]` either way.  (Examples of the
    other sort say nothing about how to write these; too few of the right sort left,
    all of them.)"""
    found = items(live) or []
    numbers = bool(found) and all(otype(x) in ("int", "float") for x in found)
    names = bool(found) and all(otype(x) == "str" for x in found)
    if not (numbers or names):
        return pool
    alike = [e for e in pool
             if e == "[]" or numbers != any(c.isalpha() for c in e)]
    if numbers and all(otype(x) == "int" for x in found):  # strides: no `0.5, 4`
        alike = [e for e in alike if "." not in e]
    return alike if len(alike) >= 2 else pool


def _how(kind: Kind, spec: JudgeSpec, live: Obs | None) -> str:
    """How to write one: for an author (no live value) with all the kind's examples,
    for a learner with three that are wrong here, the same three for a prompt."""
    if kind.names_options:
        return how_to(kind.how_to(spec), [])
    n = None if live is None else 3
    return how_to(kind.how_to(spec), entry_examples(spec, live, n, repr(spec)))


def _answer_text(kind: Kind, text: str) -> str:
    if kind.verbatim:
        return text.strip()
    try:
        return clean(text)
    except InvalidPrediction:
        return text.strip()


@lru_cache(maxsize=4096)
def _feedback_key(spec: JudgeSpec, key: str) -> Obs | None:
    """A feedback key read as a prediction and turned into the value it describes."""
    base = JudgeSpec(kind=spec.kind, choices=spec.choices, tolerance=spec.tolerance)
    try:
        wrong = parse(base, key)
    except InvalidPrediction:
        return None
    return to_observation(wrong, spec.choices)


def _fits(kind: Kind, spec: JudgeSpec, pred: Pred, key: str, answer: str) -> Obs | None:
    """The value a feedback key or `wrong:` answer describes, when the typed answer is
    judged right against it; else None."""
    pseudo = _feedback_key(spec, key)
    base = JudgeSpec(kind=spec.kind, choices=spec.choices, tolerance=spec.tolerance)
    if pseudo is not None and judged(kind, base, pred, pseudo, answer).status \
            is Status.CORRECT:
        return pseudo
    return None


def _typed_mistake(kind: Kind, spec: JudgeSpec, pred: Pred, live: Obs, answer: str,
                   right: bool) -> str | None:
    """The `wrong:` answer the typed one is (judged right against it), when that is
    not the live value: a foreseen mistake is never right nor partly right, whatever
    the precision typed (`[100, 99]` for a live [99.9, 98.9] whose `wrong:` has
    [100.0, 99.0]; every item of a set when `wrong:` lists that superset).  `right`:
    the typed answer was judged right for the live value (else partly right)."""
    base = JudgeSpec(kind=spec.kind, choices=spec.choices, tolerance=spec.tolerance)
    typed = _numbers(to_observation(pred, spec.choices)) if right else None
    for key in spec.wrong:
        pseudo = _fits(kind, spec, pred, key, answer)
        if pseudo is None:
            continue
        try:
            if judged(kind, base, parse(base, key), live, key).status is Status.CORRECT:
                continue  # a `wrong:` that is the live value: `tutor check` reports that
        except InvalidPrediction:
            continue
        if not right:  # partly right for the live value, exactly the mistake
            return key
        # right for both: the mistake only where the typed numbers are nearer to it
        # (`tensor([20., 40.])` is not the mistake `..., requires_grad=True`)
        near, far = _numbers(pseudo), _numbers(live)
        if typed and near and far and len(typed) == len(near) == len(far) and \
                _distance(typed, near) < _distance(typed, far):
            return key
    return None


def _numbers(obs: Obs | None) -> list[float] | None:
    """The numbers a value holds, flat (a number, a list or tuple of them, a tensor);
    None for anything else."""
    if obs is None:
        return None
    t = otype(obs)
    if t in ("int", "float"):
        v = single_number(obs)
        return [float(v)] if isinstance(v, (int, float)) else None
    if t == "tensor":
        leaves = tensor_leaves(obs)
        if leaves is None:
            return None
        flat = [float(x) for x in leaves if isinstance(x, (int, float))]
        return flat if len(flat) == len(leaves) else None
    if t in ("list", "tuple"):
        out: list[float] = []
        for item in items(obs) or []:
            sub = _numbers(item)
            if sub is None:
                return None
            out += sub
        return out
    return None


def _distance(a: list[float], b: list[float]) -> float:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True))


def _feedback(kind: Kind, spec: JudgeSpec, pred: Pred, answer: str) -> str | None:
    for key, explanation in spec.feedback:
        if _fits(kind, spec, pred, key, answer) is not None:
            return explanation
    return None


def _mistake_value(spec: JudgeSpec, key: str) -> float | None:
    """A foreseen mistake's number (a feedback key or a `wrong:` answer), if it is one."""
    v = single_number(_feedback_key(spec, key) or {"type": "none"})
    if v is None or isinstance(v, (bool, complex)):
        return None
    return float(v)


def _same(w: float, v: float, dtype: str) -> bool:
    """Is `w` the live value `v`, as far as its dtype can tell?"""
    return abs(w - v) <= 4 * spacing(v, dtype) + 4 * math.ulp(max(abs(w), abs(v)))


def apart(v: float, w: float) -> str | None:
    """How many digits tell two numbers apart: "2 decimals" for 2.42 and 2.4 (shown
    to 2 decimals they are 2.42 and 2.40); significant digits for tiny or huge ones."""
    if not (math.isfinite(v) and math.isfinite(w)) or v == w:
        return None
    scientific = max(abs(v), abs(w)) < 1e-3 or max(abs(v), abs(w)) >= 1e6
    for n in range(0 if not scientific else 1, 17):
        if scientific and f"{v:.{n - 1}e}" != f"{w:.{n - 1}e}":
            return i18n.ngettext("{n} significant digit", "{n} significant digits",
                                 n).format(n=n)
        if not scientific and f"{v:.{n}f}" != f"{w:.{n}f}":
            return (i18n.ngettext("{n} decimal", "{n} decimals", n).format(n=n) if n
                    else i18n._("whole numbers"))
    return None


def foreseen_mistake(kind: Kind, spec: JudgeSpec, pred: Pred, live: Obs
                     ) -> tuple[str, str | None, str] | None:
    """A typed number that fits one of the prompt's foreseen mistakes (its feedback
    keys and `wrong:` answers) at least as well as the live value, by the number rule
    at the precision typed: (the mistake as written, its feedback, the digits that
    tell it from the live value).  `2.4` for a live 2.42 whose `wrong:` has 2.4 is
    that mistake, not a right answer to one decimal."""
    if kind.name != "number" or spec.tolerance is not None or not isinstance(pred, NumP) \
            or not isinstance(pred.lit, NumLit) or not (spec.feedback or spec.wrong):
        return None
    v = single_number(live)
    if v is None or isinstance(v, complex):
        return None
    typed, live_v, dtype = float(pred.lit.value), float(v), number_dtype(live)
    explained = dict(spec.feedback)
    for key in (*explained, *spec.wrong):
        w = _mistake_value(spec, key)
        if w is None or not math.isfinite(w) or _same(w, live_v, dtype):
            continue  # a `wrong:` that is the live value: `tutor check` reports that
        if matches(pred.lit, w, dtype) and abs(typed - w) <= abs(typed - live_v):
            digits = apart(live_v, w)
            if digits is not None:
                feedback = explained.get(key) or next(
                    (m for k, m in spec.feedback if _mistake_value(spec, k) == w), None)
                return key, feedback, digits
    return None


_WORD_NUMBERS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten".split())}
_ASKED = re.compile(r"\b(\w+)\s+(decimal|significant)s?(?:\s+(?:places?|digits?|figures?))?\b"
                    r"|\b(?:nearest\s+(?:whole\s+number|integer)|whole\s+number)\b", re.I)


def asked_precision(question: str) -> tuple[str, int] | None:
    """The precision a question asks for: ("decimals", 2) for "to two decimal places",
    ("sig", 3) for "to 3 significant digits", ("decimals", 0) for "to the nearest whole
    number"; None when it asks none."""
    for m in _ASKED.finditer(question):
        if m.group(1) is None:
            return ("decimals", 0)
        word = m.group(1).casefold()
        n = int(word) if word.isdigit() else _WORD_NUMBERS.get(word)
        if n is not None and n <= 15:
            return ("decimals" if m.group(2).casefold() == "decimal" else "sig", n)
    return None


def _written(v: float, precision: tuple[str, int]) -> str:
    """`v` as a learner writes it at a precision (`2.40` at two decimals; at
    significant digits, never coarser than the units: `256`, not `2.6e+02`)."""
    how, n = precision
    if how == "sig":
        n = n - 1 - math.floor(math.log10(abs(v))) if v != 0 else n - 1
    return f"{v:.{max(n, 0)}f}"


def rounds_onto(spec: JudgeSpec, answer: str, question: str = ""
                ) -> list[tuple[str, str, str]]:
    """For a number prompt: its foreseen mistakes (`wrong:` answers, feedback keys)
    that a learner who writes the right answer at the precision the question asks
    (two significant digits when it asks none) is taken for: the answer, so written,
    is right for its value but judged as that mistake (`2.4` for 2.42 beside the
    mistake 2.4).  Each as (the mistake as written, the answer as written at that
    precision, the digits that tell them apart)."""
    if spec.kind != "number" or spec.tolerance is not None:
        return []
    a = _mistake_value(spec, answer)
    if a is None or not math.isfinite(a):
        return []
    typed = _written(a, asked_precision(question) or ("sig", 2))
    live = {"type": "float", "value": a}
    if judge(JudgeSpec("number"), typed, live).status is not Status.CORRECT:
        return []  # (the precision asked is not enough for the answer itself)
    out, seen = [], set()
    for key in (*(k for k, _ in spec.feedback), *spec.wrong):
        w = _mistake_value(spec, key)
        if w is None or w in seen or not math.isfinite(w) or w == a:
            continue
        seen.add(w)
        one = JudgeSpec("number", wrong=(key,))
        digits = apart(a, w)
        if digits is not None and judge(one, typed, live).status is Status.INCORRECT:
            out.append((key, typed, digits))
    return out


def _unreadable(spec: JudgeSpec, text: str, expected: str, live: Obs | None,
                error: InvalidPrediction) -> Verdict:
    kind = REGISTRY.get(spec.kind)
    how = _how(kind, spec, live) if kind is not None and error.how else None
    return Verdict(Status.INVALID, invalid_message(error.parts, how), expected,
                   text if isinstance(text, str) else "")


def judge_strict(spec: JudgeSpec, text: str, live: Obs, *, guard: bool = True) -> Verdict:
    """`judge` without the safety net (tests call this to see real errors).

    An unreadable answer's message ends with how to write one, with examples; with
    `guard`, only examples that are wrong for this live value (never the answer)."""
    kind = REGISTRY.get(spec.kind)
    expected = show(live, kind.style) if kind is not None else show(live)
    if spec.labels and len(spec.labels) == len(spec.choices):  # a translated choice
        index = live_choice(live, spec.choices)
        expected = spec.labels[index] if index is not None else expected
    try:
        pred = parse(spec, text)
    except InvalidPrediction as e:
        return _unreadable(spec, text, expected, live if guard else None, e)
    assert kind is not None
    answer = short(_answer_text(kind, text), 80)
    out = judged(kind, spec, pred, live, answer)
    if out.status is Status.CORRECT:
        mistake = foreseen_mistake(kind, spec, pred, live)
        if mistake is not None:
            _, feedback, digits = mistake
            return Verdict(Status.INCORRECT, render((
                "You said ", Said(answer), ": that is the answer one of the mistakes this "
                "question foresees leads to, and your number fits it at least as well as the "
                "live value. ",
                "Written to ", Fill(digits), ", the two differ."), kind.style),
                expected, text, (), feedback)
    if out.status in (Status.CORRECT, Status.PARTIAL) and kind.name != "number":
        mistake_key = _typed_mistake(kind, spec, pred, live, answer,
                                     out.status is Status.CORRECT)
        if mistake_key is not None:
            return Verdict(Status.INCORRECT, render((
                "You said ", Said(answer), ": that is the answer one of the mistakes this "
                "question foresees leads to, not the live value."), kind.style), expected,
                text, (),
                dict(spec.feedback).get(mistake_key) or _feedback(kind, spec, pred, answer))
    feedback = _feedback(kind, spec, pred, answer) if out.status is not Status.CORRECT else None
    return Verdict(out.status, render(out.message, kind.style), expected, text,
                   tuple(render(d, kind.style) for d in out.details), feedback)


def clear_caches() -> None:
    """Forget what the judge cached (numbers read from names, keys of names,
    feedback keys): benchmarks time the judge cold."""
    for cached in (_feedback_key, number_in, _text_key, nfkc):
        cached.cache_clear()
    clear_items_cache()


def judge(spec: JudgeSpec, text: str, live: Obs) -> Verdict:
    """Judge the learner's `text` against the live observation. Never raises."""
    try:
        return judge_strict(spec, text, live)
    except Exception:  # a bug must not crash a lesson: ask the learner again
        try:
            expected = display(live, spec.kind)
        except Exception:
            expected = "?"
        return Verdict(
            Status.INVALID,
            i18n._("Sorry, I could not judge that answer. Try writing it another way."),
            expected, text if isinstance(text, str) else "",
        )  # fmt: skip


def parse_error(spec: JudgeSpec, text: str) -> str | None:
    """None if `text` reads as a prediction of `spec.kind`, else the message
    `judge` would give as invalid (with all of the kind's examples)."""
    try:
        parse(spec, text)
    except InvalidPrediction as e:
        return _unreadable(spec, text, "", None, e).message
    except Exception:
        return i18n._("Sorry, I could not read that answer.")
    return None


def display(live: Obs, kind: str | None = None) -> str:
    """The live value as a learner sees it, in the notation of `kind`."""
    k = REGISTRY.get(kind) if kind else None
    return show(live, k.style) if k is not None else show(live)


def notation(live: Obs, kind: str) -> str:
    """The canonical answer text for `live`, judged correct against it.

    Raises ValueError when no such text exists (a truncated value, a value
    beyond the input limits, an observation that is not of this kind)."""
    k = REGISTRY.get(kind)
    if k is None:
        raise ValueError(f"unknown kind {kind!r}")
    try:
        viewed = k.style.view(live)
        candidates = [k.style.none] if otype(viewed) == "none" else k.notate(live)
    except (ValueError, TypeError) as e:
        raise ValueError(f"cannot write {display(live, kind)} as a {kind} answer: {e}") from e
    for text in candidates:
        spec = JudgeSpec(kind=kind, choices=(text,) if k.entry == "choice" else ())
        if judge_strict(spec, text, live).status is Status.CORRECT:
            return text
    raise ValueError(f"cannot write {display(live, kind)} as a {kind} answer the judge accepts")


# ---- does a text give the answer away? ----------------------------------------------

_COARSE = re.compile(r";\s+|:\s+|\s+or\s+|\blike\s+|\be\.g\.\s*|\btry\s+|\.\.\.|\.\s+|\.$",
                     re.IGNORECASE)
_FINE = re.compile(r",\s+")
_SPACE = re.compile(r"\s+")
_VOCABULARY = {"yes", "no", "true", "false", "raises", "raise", "error", "exception",
               "no error", "nothing", "none", "it raises"}


def _split(text: str, sep: re.Pattern[str]) -> list[str]:
    """`text` cut at the matches of `sep` that are outside brackets and quotes."""
    depth, depths, quote = 0, [], ""
    for i, ch in enumerate(text):
        depths.append(depth + bool(quote))
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"" and not (i and text[i - 1].isalnum()):  # (not "can't")
            quote = ch
        else:
            depth = max(0, depth + (ch in "([{") - (ch in ")]}"))
    cuts = [m.span() for m in sep.finditer(text) if depths[m.start()] == 0]
    bounds = [0, *[x for span in cuts for x in span], len(text)]
    return [text[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2)]


def _trim(piece: str) -> str:
    piece = piece.strip(" ,.'\"`")
    while piece[:1] in ("(", "[") and piece.count(piece[0]) > piece.count(
            ")" if piece[0] == "(" else "]"):
        piece = piece[1:]
    while piece[-1:] in (")", "]") and piece.count(piece[-1]) > piece.count(
            "(" if piece[-1] == ")" else "["):
        piece = piece[:-1]
    return piece.strip()


def pieces(text: str) -> set[str]:
    """Every phrase of a text that could be typed as an answer: each part between
    separators, each comma-separated item, and each tail after a space."""
    out: set[str] = set()
    for coarse in _split(text[:2000], _COARSE):
        for item in {coarse, *_split(coarse, _FINE)}:
            words = _split(item, _SPACE)
            for i in range(len(words)):
                piece = _trim(" ".join(words[i:]))
                if piece:
                    out.add(piece)
                if len(piece) > 2 and piece[0] + piece[-1] in ("()", "[]"):
                    out |= pieces(piece[1:-1])
    return out


def gives_away(spec: JudgeSpec, live: Obs, text: str) -> bool:
    """Would typing some phrase of `text` (say, examples shown on screen) be judged
    right against `live`?  Then showing `text` gives this question's answer away."""
    kind = REGISTRY.get(spec.kind)
    if kind is None:
        return False
    return any(piece.casefold() not in _VOCABULARY and is_right(kind, spec, piece, live)
               for piece in pieces(text))
