"""`tutor record`: write each prompt's `answer:` from the live value, in place.

The lesson runs through the engine (`LessonRun`); each prompt's live value is
turned into the text a learner would type with the judge's `notation(live, kind)`
(guaranteed to be judged correct).  The file is then edited *surgically*: only the
characters of the answer scalars change (or one `answer:` line is inserted where a
prompt has none), so comments, key order, blank lines, quoting and indentation
everywhere else stay byte for byte.  The edited text is re-loaded and each answer
compared with what was meant before anything is written.

An answer that is already judged correct is left alone (the author's phrasing may
be deliberate: `0.60`, `tensor([0.6])`); `force=True` rewrites every answer.  An
answer the author wrote that is judged wrong is *not* replaced unless `fix=True`:
the mistake may be in the code, not in the answer, so it is reported as a problem.
An `exception` prompt whose `match:` no longer finds the message is not recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from tutor.authoring.record_plan import Change, RecordResult, plan
from tutor.authoring.record_vary import plan_variants
from tutor.i18n import _
from tutor.lesson.loader import LessonError, compose, display_name, load_lesson, read_text
from tutor.lesson.validate import Problem

_NULLS = {"", "~", "null", "Null", "NULL"}


# ------------------------------------------------------------------ text edits


class EditError(Exception):
    pass


def _get(node: yaml.Node, key: str) -> tuple[yaml.Node, yaml.Node] | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return k, v
    return None


def _prompt_node(root: yaml.Node, step: int, prompt: int) -> yaml.MappingNode:
    steps = _get(root, "steps")
    try:
        assert steps is not None
        step_node = steps[1].value[step]
        predict = _get(step_node, "predict")
        assert predict is not None
        node = predict[1].value[prompt]
    except (AssertionError, IndexError, AttributeError, TypeError):
        raise EditError(_("{path} not found in the file").format(
            path=f"steps[{step}].predict[{prompt}]")) from None
    if not isinstance(node, yaml.MappingNode):
        raise EditError(_("{path} is not a mapping").format(
            path=f"steps[{step}].predict[{prompt}]"))
    return node


def _plain_ok(text: str, flow: bool) -> bool:
    if not text or "\n" in text or text != text.strip() or text in _NULLS:
        return False
    if flow and any(c in text for c in ",[]{}"):
        return False
    try:
        node = yaml.compose(f"k: {text}\n", Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return False
    value = node.value[0][1] if isinstance(node, yaml.MappingNode) and node.value else None
    return isinstance(value, yaml.ScalarNode) and not value.style and value.value == text


def _double(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _block_ok(text: str) -> bool:
    return ("\n" in text and not text.startswith((" ", "\n")) and not text.endswith("\n\n")
            and all(ch == "\n" or ch == "\t" or ch.isprintable() for ch in text)
            and "\r" not in text)


def _block(text: str, indent: int) -> str:
    chomp = "" if text.endswith("\n") else "-"
    lines = text.removesuffix("\n").split("\n")
    body = "\n".join((" " * indent + line) if line else "" for line in lines)
    return f"|{chomp}\n{body}\n"


def render(text: str, *, style: str | None, flow: bool, indent: int, safe: bool = False,
           block: bool = False) -> str:
    """The YAML for answer `text`; `style` is the old scalar's ('"', "'", '|', '>', None).

    A multi-line text becomes a `|` block only where one may end the line (`block`):
    replacing a block, or on a freshly inserted line; else it is double-quoted."""
    if safe:
        return json.dumps(text)
    if "\n" in text:
        if block and not flow and _block_ok(text):
            return _block(text, indent)
        return _double(text)
    if style == "'" and "\n" not in text:
        return "'" + text.replace("'", "''") + "'"
    if style == '"':
        return _double(text)
    return text if _plain_ok(text, flow) else _double(text)


def _line_end(text: str, pos: int) -> int:
    """The index just after the newline ending the line that holds `pos`."""
    nl = text.find("\n", pos)
    return len(text) if nl < 0 else nl + 1


def apply_changes(text: str, changes: list[Change], *, safe: bool = False) -> str:
    """`text` with every change applied; nothing else in the text is touched."""
    root = compose(text, "<record>")  # the loader's parser, so both read the same tree
    starts = [0]
    for i, char in enumerate(text):
        if char == "\n":
            starts.append(i + 1)

    def at(mark: yaml.Mark) -> int:  # a mark's index in `text`, from its line and column
        return starts[mark.line] + mark.column

    edits: list[tuple[int, int, str]] = []  # (start, end, replacement)
    for ch in changes:
        node = _prompt_node(root, ch.step, ch.prompt)
        flow = bool(node.flow_style)
        key_col = node.value[0][0].start_mark.column if node.value else 0
        found = _get(node, "answer")
        if found is not None:
            key, value = found
            start, end = at(value.start_mark), at(value.end_mark)
            style = value.style if isinstance(value, yaml.ScalarNode) else None
            new = render(ch.new, style=style, flow=flow, indent=key_col + 2, safe=safe,
                         block=style in ("|", ">"))
            if not isinstance(value, yaml.ScalarNode):
                raise EditError(_("{path} is not a scalar").format(path=ch.path))
            if start == end:  # `answer:` with nothing after it
                colon = text.index(":", at(key.end_mark))
                new = " " + new.removesuffix("\n")
                # `answer:      # comment`: eat the padding so the comment keeps its column
                gap = len(text[colon + 1:]) - len(text[colon + 1:].lstrip(" "))
                end = colon + 1
                if text[colon + 1 + gap:colon + 2 + gap] == "#":
                    end += max(0, min(gap - 1, len(new)))
                edits.append((colon + 1, end, new))
                continue
            if style in ("|", ">"):
                span = text[start:end]
                stripped = span.rstrip(" \t\n")
                tail = span[len(stripped):]
                tail = tail[tail.find("\n"):] if "\n" in tail else "\n"
                if new.endswith("\n"):
                    new = new[:-1]
                edits.append((start, end, new + tail))
            else:
                edits.append((start, end, new))
            continue
        # no `answer:` key: insert one after expect (else kind, else the last key)
        anchor = _get(node, "expect") or _get(node, "kind") or node.value[-1]
        value = anchor[1]
        new = render(ch.new, style=None, flow=flow, indent=key_col + 2, safe=safe, block=True)
        if flow:
            edits.append((at(value.end_mark), at(value.end_mark), f", answer: {new}"))
            continue
        span = text[at(value.start_mark):at(value.end_mark)]
        content_end = at(value.start_mark) + len(span.rstrip(" \t\n"))
        pos = _line_end(text, max(content_end - 1, at(value.start_mark)))
        prefix = "" if pos == 0 or text[pos - 1] == "\n" else "\n"
        line = f"{prefix}{' ' * key_col}answer: {new}"
        if not line.endswith("\n"):
            line += "\n"
        edits.append((pos, pos, line))
    out = text
    for start, end, replacement in sorted(edits, key=lambda e: e[0], reverse=True):
        out = out[:start] + replacement + out[end:]
    return out


def _verify(path: Path, text: str, changes: list[Change]) -> str | None:
    """Why the edited `text` does not load with exactly the intended answers, or None."""
    tmp = path.with_name(f".{path.name}.record-tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        lesson = load_lesson(tmp)
    except LessonError as exc:
        return str(exc)
    finally:
        tmp.unlink(missing_ok=True)
    for ch in changes:
        got = lesson.steps[ch.step].prompts[ch.prompt].answer
        if got != ch.new:
            return _("{path} reads back as {got}, not {new}").format(path=ch.path, got=repr(got),
                                                                     new=repr(ch.new))
    return None


def write_answers(path: Path, changes: list[Change]) -> None:
    """Edit the file at `path` in place (atomically), keeping everything else as it was."""
    raw = path.read_bytes()
    bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
    text = read_text(path, display_name(path))
    crlf = "\r\n" in text and text.count("\r\n") == text.count("\n")
    if crlf:
        text = text.replace("\r\n", "\n")
    new = apply_changes(text, changes)
    if _verify(path, new, changes) is not None:
        new = apply_changes(text, changes, safe=True)
        why = _verify(path, new, changes)
        if why is not None:
            raise EditError(_("the edited file would not read back correctly: {why}").format(
                why=why))
    if crlf:
        new = new.replace("\n", "\r\n")
    tmp = path.with_name(f".{path.name}.record-new")
    tmp.write_bytes((bom + new).encode("utf-8"))
    tmp.replace(path)


def _refused(name: str, change: Change) -> Problem:
    return Problem(name, change.line, change.col, change.path,
                   _("the answer {old} is judged wrong: the live value is {new}. The mistake "
                     "may be in the code rather than the answer: check the code, then `tutor "
                     "record --fix {file}` writes the live value").format(
                       old=_quoted(change.old), new=_quoted(change.new), file=name))


def _quoted(text: str | None) -> str:
    return json.dumps(text, ensure_ascii=False) if text and "\n" in text else repr(text)


def record_file(kernel: Any, path: Path, *, check: bool = False, force: bool = False,
                fix: bool = False, timeout: float | None = None) -> RecordResult:
    """Record `path`'s answers.  Answers judged wrong are replaced only with `fix`
    (else each is a problem); with `check`, nothing is written."""
    name = display_name(path)
    try:
        lesson = load_lesson(path)
    except LessonError as exc:
        return RecordResult(name, problems=list(exc.problems))
    if lesson.template is not None:  # `vary:`: every variant runs
        result = plan_variants(kernel, lesson, force=force, timeout=timeout)
    else:
        result = plan(kernel, lesson, force=force, timeout=timeout)
    if check:
        return result
    if not fix:
        result.problems += [_refused(name, ch) for ch in result.changes if ch.failing]
        result.changes = [ch for ch in result.changes if not ch.failing]
    if not result.changes:
        return result
    try:
        write_answers(path, result.changes)
    except (EditError, OSError, yaml.YAMLError) as exc:
        result.problems.append(Problem(name, 1, 1, "", _("answers not written: {why}").format(
            why=exc)))
        return result
    result.written = True
    return result

