"""Korean answers, read as the English ones the readers know (in every language: an
answer never depends on the language tutor speaks).

Only the forms where a learner writes words: yes/no (네, 예, 아니요, 아니오, 맞아요,
아니에요), an exception or none (에러, 오류, 에러 없음, 오류 없음), none/empty (없음,
비어 있음), shares memory or not (공유해요, 공유 안 해요), nothing printed (출력 없음), and
hedges (모르겠어요, 아마), which are asked again as their English forms are.  Anything
else is left as typed.
"""

from __future__ import annotations

import re

# whole answers (spaces removed, trailing punctuation dropped) -> what they say
_WHOLE = {
    # yes / no
    "네": "yes", "예": "yes", "응": "yes", "맞아요": "yes", "맞습니다": "yes", "맞아": "yes",
    "그렇다": "yes", "그래요": "yes", "참": "true",
    "아니요": "no", "아니오": "no", "아뇨": "no", "아니": "no", "아니에요": "no",
    "아닙니다": "no", "아니다": "no", "거짓": "false", "틀려요": "no",
    # memory
    "공유": "yes", "공유함": "yes", "공유해요": "yes", "공유합니다": "yes", "공유한다": "yes",
    "메모리공유": "yes", "같은메모리": "yes", "같은저장소": "yes",
    "공유안함": "no", "공유안해요": "no", "공유하지않음": "no", "공유하지않아요": "no",
    "공유하지않습니다": "no", "공유하지않는다": "no", "다른메모리": "no", "별도메모리": "no",
    # errors
    "에러": "it raises", "오류": "it raises", "예외": "it raises", "에러남": "it raises",
    "에러발생": "it raises", "오류발생": "it raises", "예외발생": "it raises",
    "에러가나요": "it raises", "에러가난다": "it raises", "오류가나요": "it raises",
    "에러없음": "no error", "오류없음": "no error", "예외없음": "no error",
    "에러안남": "no error", "에러가안나요": "no error", "오류가없어요": "no error",
    "에러없어요": "no error", "오류없어요": "no error", "정상실행": "no error",
    # none / empty / nothing printed
    "없음": "none", "없어요": "none", "비어있음": "empty", "비었음": "empty",
    "빈리스트": "[]", "출력없음": "nothing", "아무것도출력안됨": "nothing",
    "아무것도안나옴": "nothing",
}
# hedges: asked again, as "not sure" is
_HEDGE = re.compile(r"모르겠|몰라|글쎄|잘\s*모름|확실하지\s*않")
_MAYBE = re.compile(r"^(?:아마(?:도)?|어쩌면)\s*[,]?\s+")
# a leading yes/no word before the rest of a sentence: "네, 같은 메모리를 써요"
_LEAD = re.compile(r"^(네|예|아니요|아니오|아뇨|아니|맞아요|아니에요)\s*[,.!]?\s+(?=\S)")
_LEAD_MEANS = {"네": "yes", "예": "yes", "맞아요": "yes"}
_ERROR_WORD = re.compile(r"(에러|오류|예외)")


_NONE_FORMS = {"none", "empty", "[]"}
_WORDED = ("bool", "same_storage", "exception")  # kinds answered in words


def english(text: str, kind: str = "bool") -> str:
    """`text` with its Korean answer words read in English, for a prompt of `kind` (as
    typed otherwise).  Kinds answered in words read every form; a value's kinds only
    none and empty; printed output and a choice none (a program may print 네 or 아무것도
    안 나옴 itself; whether printed output was said to be nothing is `says_nothing_printed`,
    and a choice's labels are matched as they are)."""
    if kind in ("choice", "stdout") or not any("\uac00" <= c <= "\ud7a3" for c in text):
        return text  # (a program may print 네 or 아무것도 안 나옴 itself)
    said = _english(text)
    if kind in _WORDED:
        return said
    return said if said.rstrip("?") in _NONE_FORMS else text


def says_nothing_printed(text: str) -> bool:
    """출력 없음, 아무것도 안 나옴: the Korean for "nothing printed"."""
    return _english(text) == "nothing"


def hedges(text: str) -> bool:
    """A Korean hedge (모르겠어요, 글쎄요, 잘 모르겠습니다), for a prompt of any kind: it is
    asked again with the hedge's message, never read as a value (issue 25: a hedge on a
    tensor question got the tensor's format error)."""
    return _HEDGE.search(text) is not None


def _english(text: str) -> str:
    if _HEDGE.search(text):
        return "not sure"
    bare = re.sub(r"\s+", "", text).rstrip(".!~")
    if bare in _WHOLE:
        return _WHOLE[bare]
    if bare.endswith("?") and bare.rstrip("?") in _WHOLE:  # `네?`: still a guess
        return _WHOLE[bare.rstrip("?")] + "?"
    stripped = text.strip()
    maybe = _MAYBE.match(stripped)
    if maybe:
        return "maybe " + _english(stripped[maybe.end():])
    lead = _LEAD.match(stripped)
    if lead:
        word = "yes" if lead.group(1) in _LEAD_MEANS else "no"
        return f"{word}, {_english(stripped[lead.end():])}"
    # `RuntimeError 에러`, `RuntimeError가 나요`: the name is what the reader needs
    named = re.match(r"^([A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt))", stripped)
    if named and (_ERROR_WORD.search(stripped) or re.search(r"[가이]\s*(나|발생)", stripped)):
        return named.group(1)
    return text
