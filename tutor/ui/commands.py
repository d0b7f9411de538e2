"""The command palette finds a lesson by title, id, topic or tag."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tutor.i18n import _, pack_title
from tutor.markup import plain_inline
from tutor.ui.messages import OpenLesson
from tutor.ui.text import plain

if TYPE_CHECKING:
    from tutor.lesson.model import Lesson
    from tutor.ui.host import TutorHost


class LessonCommands(Provider):
    def _lessons(self) -> Iterator[tuple[Lesson, str, str, str]]:
        catalog = cast("TutorHost", self.app).catalog
        if catalog is None:
            return
        for lesson in catalog.lessons:
            of = catalog.pack_of[lesson.id]
            pack = pack_title(of.title, of.lang)
            topic = of.topic_name(lesson.topic)  # (found by either name)
            words = " ".join([lesson.title, lesson.id, lesson.topic, topic, *lesson.tags, pack])
            title = _("Lesson: ") + plain_inline(lesson.title)  # Markdown marks, dropped
            yield lesson, title, words, f"{topic} · {pack} · {lesson.id}"

    def _open(self, lesson_id: str) -> None:
        self.app.post_message(OpenLesson(lesson_id))

    async def discover(self) -> Hits:
        for lesson, title, _words, help_text in self._lessons():
            yield DiscoveryHit(plain(title), partial(self._open, lesson.id), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for lesson, title, words, help_text in self._lessons():
            score = max(matcher.match(title), matcher.match(words) * 0.9)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(self._open, lesson.id),
                          help=help_text)
