"""The course: which lessons it holds, where to continue, what comes next, the scores.

The course is every lesson of the catalog in course order, except the packs with
`order: 0` (the bundled `samples`: a tour of the question kinds).  Those stay in
the catalog, openable like any lesson, but outside the course: a first-time
learner starts at the first course lesson, "continue" and "next lesson" stay on
the course, and the progress line counts course lessons only.

Lessons the learner's kernel cannot run (`requires: {cuda: true}` without a GPU, a
newer torch) are left out of the course path the same way once the kernel has said
what it has: every function here takes `skip`, the ids of those lessons (see
`cannot_run`).  Before the kernel is up nothing is skipped.
Pure: no textual, no torch.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.i18n import _
from tutor.states import FINISHED, Outcome

if TYPE_CHECKING:  # (light: the app imports this before the first paint)
    from tutor.lesson.catalog import Catalog
    from tutor.lesson.model import Lesson, Pack
    from tutor.progress import Attempt, LessonProgress

Position = tuple[int, int]


def in_course(pack: Pack | None) -> bool:
    """A pack with `order: 0` is outside the course (samples, extras)."""
    return pack is None or pack.order != 0


def course_lessons(catalog: Catalog, skip: Collection[str] = ()) -> list[Lesson]:
    """The course's lessons in course order (all lessons, if no pack is in the course),
    less those in `skip`."""
    lessons = [x for x in catalog.lessons if in_course(catalog.pack_of.get(x.id))]
    return [x for x in lessons or catalog.lessons if x.id not in skip]


def cannot_run(catalog: Catalog, info: Mapping[str, Any]) -> dict[str, str]:
    """Per lesson this kernel cannot run, why ("needs a CUDA device, ...").  `info` is
    what the kernel said about itself (`Kernel.info`); empty before it is ready."""
    if not info:
        return {}
    from tutor.lesson.requires import unmet_requirement  # (packaging: once a kernel is up)

    whys = {x.id: unmet_requirement(x, info) for x in catalog.lessons}
    return {lesson: why for lesson, why in whys.items() if why}


def finished(progress: LessonProgress | None) -> bool:
    return progress is not None and progress.status in FINISHED


def resume_position(lesson: Lesson, progress: LessonProgress | None) -> Position:
    """Where an unfinished lesson resumes: its stored position, if still inside it."""
    if progress is None or finished(progress) or not progress.step < len(lesson.steps):
        return (0, 0)
    return (progress.step, progress.prompt)


def continue_point(catalog: Catalog, progress: Mapping[str, LessonProgress],
                   last: str | None, skip: Collection[str] = ()) -> tuple[Lesson | None, Position]:
    """Where "continue" goes: the course lesson touched last if unfinished, else the next
    unfinished course lesson after it (wrapping), else the first course lesson.  (If
    this kernel can run none of them, the course as it is: the lesson says why.)"""
    lessons = course_lessons(catalog, skip) or course_lessons(catalog)
    if not lessons:
        return None, (0, 0)
    ids = [x.id for x in lessons]
    start = ids.index(last) if last in ids else 0
    for lesson in lessons[start:] + lessons[:start]:
        if not finished(progress.get(lesson.id)):
            return lesson, resume_position(lesson, progress.get(lesson.id))
    return lessons[0], (0, 0)


def next_unfinished(catalog: Catalog, progress: Mapping[str, LessonProgress],
                    after: str, skip: Collection[str] = ()) -> Lesson | None:
    """The lesson to offer after `after`: the next unfinished one in course order
    (wrapping round to earlier ones); after a lesson outside the course, the rest of
    its pack first.  None when every other lesson is finished."""
    course = course_lessons(catalog, skip)
    ids = [x.id for x in course]
    if after in ids:
        i = ids.index(after)
        order = course[i + 1:] + course[:i]
    else:
        pack = catalog.pack_of.get(after)
        mine = [x for x in catalog.lessons
                if catalog.pack_of.get(x.id) is pack and x.id not in skip]
        mine_ids = [x.id for x in mine]
        rest = mine[mine_ids.index(after) + 1:] if after in mine_ids else []
        order = rest + course
    return next((x for x in order if x.id != after and not finished(progress.get(x.id))), None)


@dataclass(frozen=True)
class CourseProgress:
    finished: int
    total: int

    def text(self) -> str:
        return _("{n} of {total} lessons done").format(n=self.finished, total=self.total)


def course_progress(catalog: Catalog, progress: Mapping[str, LessonProgress],
                    skip: Collection[str] = ()) -> CourseProgress:
    lessons = course_lessons(catalog, skip)
    return CourseProgress(sum(finished(progress.get(x.id)) for x in lessons), len(lessons))


def best_scores(attempts: Iterable[Attempt]) -> dict[str, int]:
    """Per lesson, the most questions right in one sitting (a question counts by its
    last answer in that sitting: a retry that gets it right counts)."""
    last: dict[tuple[str, str], dict[Position, Outcome]] = {}
    for a in attempts:
        last.setdefault((a.lesson, a.run), {})[(a.step, a.prompt)] = a.verdict
    best: dict[str, int] = {}
    for (lesson, _run), verdicts in last.items():
        right = sum(v == "correct" for v in verdicts.values())
        best[lesson] = max(best.get(lesson, 0), right)
    return best
