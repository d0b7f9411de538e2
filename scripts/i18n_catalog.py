"""Keep tutor's gettext catalogs in step with the code (docs/translating.md).

    python scripts/i18n_catalog.py            # report: msgids missing from / unused in each catalog
    python scripts/i18n_catalog.py --update   # add missing msgids (empty msgstr), drop unused ones

The msgids are every literal given to `_`, `N_` or `ngettext` in tutor/ (found by
reading the code, not importing it).  No Babel: the standard library only.  Exit 1 when
a catalog misses a msgid, has an unused one, or leaves one untranslated.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tutor"
sys.path.insert(0, str(ROOT))

from tutor.i18n import LANGUAGES, PoEntry, parse_po, po_path  # noqa: E402

MARKERS = {"_": 1, "N_": 1, "ngettext": 2}


class Problem(Exception):
    pass


def extract(package: Path = PACKAGE) -> dict[tuple[str, str | None], list[str]]:
    """Every marked message: (msgid, msgid_plural or None) -> where it is used.  Raises
    Problem for a marker called with anything but literal strings (an f-string would
    never match its catalog entry)."""
    found: dict[tuple[str, str | None], list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func  # `_(...)`, or `i18n._(...)` where `_` is taken
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(
                func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id == "i18n" else None
            if name not in MARKERS:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            need = MARKERS[name]
            args = node.args[:need]
            if len(args) < need or any(isinstance(a, (ast.JoinedStr, ast.BinOp)) for a in args):
                raise Problem(f"{where}: {name}() needs literal strings "
                              "(translate first, then .format the values in)")
            if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                continue  # `_(HEADINGS[status])`: a constant marked with N_ where it is defined
            msgid = args[0].value  # type: ignore[attr-defined]
            plural = args[1].value if need == 2 else None  # type: ignore[attr-defined]
            found.setdefault((msgid, plural), []).append(where)
    return found


JUDGE = PACKAGE / "judge"
MESSAGE_CALLS = {"correct", "partial", "incorrect", "InvalidPrediction", "_ask"}
PART_CALLS = {"Said", "Fill", "Live", "Item"}


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level names bound to a string (`_HEDGE = "..."`)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            out[node.targets[0].id] = node.value.value
    return out


def _sentences(args: list[ast.expr], names: dict[str, str]) -> list[str]:
    """The msgids of a judge message written as parts (`"The live value is ", Live(v),
    "."` -> `The live value is {0}.`), as `tutor.judge.showing.render` builds them (a
    literal `a if c else b` gives both; `_end(x)` the sentence with and without its
    period); none when a part is neither a literal nor a part constructor."""
    variants: list[tuple[str, int]] = [("", 0)]
    for a in args:
        options: list[str | None]  # None: a placeholder
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            options = [a.value]
        elif isinstance(a, ast.Name) and a.id in names:
            options = [names[a.id]]
        elif isinstance(a, ast.IfExp) and all(isinstance(x, ast.Constant) and isinstance(
                x.value, str) for x in (a.body, a.orelse)):
            options = [a.body.value, a.orelse.value]  # type: ignore[attr-defined]
        elif isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id == "_end":
            options = ["", "."]
        elif isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id in PART_CALLS:
            options = [None]
        else:
            return []
        variants = [(text + (f"{{{n}}}" if o is None else
                             o.replace("{", "{{").replace("}", "}}")), n + (o is None))
                    for text, n in variants for o in options]
    return [text for text, _n in variants
            if any(c.isalpha() for c in text.replace("{", "").replace("}", ""))]


# sentences the judge builds in steps (a list of parts, a variable sentence start):
# kept here by hand; `TUTOR_I18N_RECORD` (docs/translating.md) finds new ones
BUILT = (
    "The live item is there, but you also listed {0}, which is not in it.",
    "The live item is there, but you also listed {0}, which are not in it.",
    "Both live items are there, but you also listed {0}, which is not in it.",
    "Both live items are there, but you also listed {0}, which are not in it.",
    "All {0} live items are there, but you also listed {1}, which is not in it.",
    "All {0} live items are there, but you also listed {1}, which are not in it.",
    "{0} of {1} right; missing: {2}.",
    "{0} of {1} right; missing: {2}; not in the live value: {3}.",
    "{0}; missing: {1}.",
    "{0}; not in the live value: {1}.",
    "{0}; missing: {1}; not in the live value: {2}.",
    "I can't check {0}= on a tensor; use dtype=, requires_grad=, grad_fn=, device= or size=.",
)


def judge_sentences(judge: Path = JUDGE) -> dict[str, list[str]]:
    """The judge's sentences (msgids of `tutor.i18n.template`): the parts given to
    correct/partial/incorrect/InvalidPrediction, and tuples of parts (details)."""
    found: dict[str, list[str]] = {}
    for path in sorted(judge.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        names = _constants(tree)
        for node in ast.walk(tree):
            args: list[ast.expr] | None = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in MESSAGE_CALLS:
                args = list(node.args)
            elif isinstance(node, ast.Tuple) and node.elts and (
                    any(isinstance(e, ast.Call) and isinstance(e.func, ast.Name)
                        and e.func.id in PART_CALLS for e in node.elts)
                    or (len(node.elts) == 1 and isinstance(node.elts[0], ast.Constant)
                        and isinstance(node.elts[0].value, str) and " " in node.elts[0].value)):
                args = list(node.elts)
            if not args:
                continue
            for text in _sentences(args, names):
                found.setdefault(text, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    for text in BUILT:
        found.setdefault(text, []).append("scripts/i18n_catalog.py")
    return found


# argparse's own words that a `tutor` user can see (tutor.i18n.use_in_argparse routes
# them through the layer): as Python 3.10 to 3.13 write them; a Python that words one
# otherwise shows it in English
ARGPARSE: tuple[tuple[str, str | None], ...] = (
    ("usage: ", None),
    ("positional arguments", None),
    ("options", None),
    ("show this help message and exit", None),
    ("%(prog)s: error: %(message)s\n", None),
    ("argument %(argument_name)s: %(message)s", None),
    ("the following arguments are required: %s", None),
    ("one of the arguments %s is required", None),
    ("unrecognized arguments: %s", None),
    ("ambiguous option: %(option)s could match %(matches)s", None),
    ("invalid choice: %(value)r (choose from %(choices)s)", None),
    ("invalid %(type)s value: %(value)r", None),
    ("expected one argument", None),
    ("expected at most one argument", None),
    ("expected at least one argument", None),
    ("expected %s argument", "expected %s arguments"),
    ("not allowed with argument %s", None),
    ("ignored explicit argument %r", None),
)


# the lesson format's data that the loader and `tutor lint` show translated: each
# field's and form's `doc=` (`_(f.doc)`, e.g. a missing key's description) and each
# rule's `message=` (`_(rule.message)`), where written as a literal string
SCHEMA = PACKAGE / "lesson" / "format.py"
SCHEMA_KEYWORDS = ("doc", "message", "brief")


def schema_texts(path: Path = SCHEMA) -> dict[str, list[str]]:
    """The literal `doc=` and `message=` texts of the lesson format (tutor/lesson/format.py);
    those computed from other values (a list of kinds) stay English."""
    found: dict[str, list[str]] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for kw in node.keywords:
            if kw.arg in SCHEMA_KEYWORDS and isinstance(kw.value, ast.Constant) \
                    and isinstance(kw.value.value, str) and kw.value.value:
                found.setdefault(kw.value.value, []).append(
                    f"{path.relative_to(ROOT)}:{kw.value.lineno}")
    return found


def messages() -> dict[tuple[str, str | None], list[str]]:
    """Every msgid the catalogs must hold: the marked strings, the judge's sentences,
    the lesson format's descriptions (`schema_texts`) and argparse's words (`ARGPARSE`)."""
    used = extract()
    for text, where in schema_texts().items():
        used.setdefault((text, None), []).extend(where)
    for key in ARGPARSE:
        used.setdefault(key, []).append("argparse")
    for text, where in judge_sentences().items():
        used.setdefault((text, None), []).extend(where)
    return used


def quote(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{body}"'


def _field(keyword: str, text: str) -> str:
    if "\n" in text.rstrip("\n") or len(text) > 70 or (keyword == "msgstr" and "\n" in text):
        pieces = text.splitlines(keepends=True) if "\n" in text else [text]
        return f'{keyword} ""\n' + "\n".join(quote(p) for p in pieces)
    return f"{keyword} {quote(text)}"


def render(entries: list[PoEntry], used: dict[tuple[str, str | None], list[str]]) -> str:
    out: list[str] = []
    for e in entries:
        for where in dict.fromkeys(w.split(":")[0] for w in used.get((e.msgid, e.plural), [])):
            out.append(f"#: {where}")
        if e.fuzzy:
            out.append("#, fuzzy")
        out.append(_field("msgid", e.msgid))
        if e.plural is not None:
            out.append(_field("msgid_plural", e.plural))
            for i, form in enumerate(e.forms or [""]):
                out.append(_field(f"msgstr[{i}]", form))
        else:
            out.append(_field("msgstr", e.msgstr))
        out.append("")
    return "\n".join(out)


def compare(lang: str, used: dict[tuple[str, str | None], list[str]]) -> list[str]:
    """What is wrong with `lang`'s catalog, one line each (empty: nothing)."""
    path = po_path(lang)
    if not path.is_file():
        return [f"{path}: no catalog"]
    entries = [e for e in parse_po(path.read_text(encoding="utf-8"), str(path)) if e.msgid]
    have = {(e.msgid, e.plural): e for e in entries}
    problems = [f"{path}: missing msgid {k[0]!r} (used at {', '.join(v)})"
                for k, v in used.items() if k not in have]
    problems += [f"{path}:{e.line}: msgid {e.msgid!r} is used nowhere in the code"
                 for k, e in have.items() if k not in used]
    for e in entries:
        empty = (not all(e.forms) or not e.forms) if e.plural is not None else not e.msgstr
        if empty or e.fuzzy:
            problems.append(f"{path}:{e.line}: msgid {e.msgid!r} is not translated"
                            + (" (fuzzy)" if e.fuzzy else ""))
    return problems


def update(lang: str, used: dict[tuple[str, str | None], list[str]]) -> None:
    path = po_path(lang)
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    entries = parse_po(text, str(path)) if text else []
    header = next((e for e in entries if not e.msgid), None) or PoEntry(
        "", "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=1; plural=0;\n")
    have = {(e.msgid, e.plural): e for e in entries if e.msgid}
    kept = [e for k, e in have.items() if k in used]
    kept += [PoEntry(k[0], plural=k[1]) for k in used if k not in have]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render([header, *kept], used), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args(argv)
    try:
        used = messages()
    except Problem as exc:
        print(exc, file=sys.stderr)
        return 1
    bad = 0
    for lang in LANGUAGES:
        if lang == "en":
            continue
        if args.update:
            update(lang, used)
        for line in compare(lang, used):
            print(line)
            bad += 1
    print(f"{len(used)} messages; {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
