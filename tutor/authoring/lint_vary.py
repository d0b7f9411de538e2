"""`tutor lint` rule `vary`: a lesson's variants, beyond what the loader checks.

errors
  vary        a name under `vary:` that no `{{...}}` uses (every variant would look the
              same); a reference answer, `wrong:` answer, feedback key or `show:` that
              is fine in the first variant but not in another (the other rules see the
              first variant; this one sees the rest), reported with the values; so is
              rule `foreseen` (a warning) in every variant.
warnings
  vary        `vary:` with one variant (a retry shows the same values);
              `{{name}}` in a prompt text of a lesson without `vary:` (shown as written).
"""

from __future__ import annotations

from dataclasses import replace

from tutor.authoring.lint_rules import (
    ERROR,
    WARNING,
    LintedFile,
    _problem,
    check_answers,
    check_foreseen,
    check_show,
)
from tutor.i18n import _
from tutor.lesson.validate import Problem
from tutor.lesson.vary import NAME, PLACEHOLDER, describe, names_in, texts, with_variant


def check_vary(f: LintedFile) -> list[Problem]:
    assert f.lesson is not None and f.validation is not None
    template = f.lesson.template
    if template is None:
        return _undeclared(f)
    out = []
    used: set[str] = set()
    for text in texts(template):
        used |= names_in(text)  # (the loader has read every placeholder)
    declared = [name for name, _value in template.variants[0]]
    for name in declared:
        if name not in used:
            where = "vary" if f"vary.{name}" not in f.validation.positions else f"vary.{name}"
            out.append(_problem(f, where, _(
                "{quoted} is declared under `vary:` but no `{{{{...}}}}` uses it: write "
                "{{{{{name}}}}} in the code or a prompt, or remove it").format(
                    quoted=repr(name), name=name), ERROR))
    if len(template.variants) == 1:
        out.append(_problem(f, "vary", _("only one variant: a retry shows the same values; "
                                         "give a name two or more values"), WARNING))
    reported = {p.path for p in f.problems if p.severity == ERROR}
    reported |= {p.path for rule in (check_answers, check_show, check_foreseen) for p in rule(f)}
    for variant in template.variants[1:]:
        other = replace(f, lesson=with_variant(template, variant), problems=[])
        for rule in (check_answers, check_show, check_foreseen):
            for p in rule(other):
                if p.path not in reported:
                    reported.add(p.path)
                    out.append(replace(p, message=_("with {values}: ").format(
                        values=describe(variant)) + p.message))
    return out


def _undeclared(f: LintedFile) -> list[Problem]:
    """`{{name}}` in a prompt's text, in a lesson without `vary:`: shown as written."""
    assert f.lesson is not None
    out = []
    for step in f.lesson.steps:
        for p in step.prompts:
            for key in ("ask", "answer", "hint", "explain"):
                text = getattr(p, key) or ""
                match = next((m for m in PLACEHOLDER.finditer(text)
                              if NAME.match(m.group(1).strip())), None)
                if match:
                    out.append(_problem(
                        f, f"steps[{step.index}].predict[{p.index}].{key}",
                        _("{text} is shown as written: this lesson declares no `vary:` (add "
                          "one to fill it in, see docs/lesson-format.md)").format(
                            text=match.group(0)), WARNING))
    return out
