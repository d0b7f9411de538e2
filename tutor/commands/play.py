"""`tutor play LESSON`: a lesson in plain text, for pipes, scripts and screen readers.

The same lesson engine as the app (`tutor.flow.LessonFlow`): the same questions,
judging, hints, reveals and tally.  One answer per line; a question about printed
output reads lines up to an empty line (or the end of input), so several printed
lines can be typed as they would appear; an answer that says nothing is printed
(`nothing`, `no output`) is the whole answer.  Besides an answer, a line may be `hint`
(or `?`), `reveal` (gives up: shows the live value) or `quit`.  Pictures of the
live state never show before a step's questions are answered (they would give the
answers away): once they are, the prompts' `show:` pictures are drawn, and lines
starting with `:` (`:graph EXPR`, `:storage`, `:tree EXPR`; see docs/pictures.md)
draw more until a line that does not start with `:`.  End of input ends the lesson
cleanly with a summary.  Lesson text (Markdown) is printed as plain text.  With
`--json`, stdout carries one JSON record per counted answer (steps and prompts
numbered from 1) and the human-readable text goes to stderr.

An answer ending in `?` (`0.5?`) is marked as a guess (see docs/review.md).  Answers
are recorded in the learner's progress, as the app records them, unless
`--no-progress` is given.  `tutor play --review` asks again the questions due for
review, then the mistakes (`tutor.redo`): each in a fresh run of its lesson, the
steps before it run silently.

Input and output (`tutor.commands.console`): at a terminal lines are edited (readline);
a line holding a key code is refused, never judged; standard input closed exits 2
before anything runs; output that cannot be written stops the lesson (exit 1; a
closed pipe: 0) without a traceback; each answer is saved before its verdict is
printed.  What the progress store has to tell (a database written again after a
lesson deleted it, rows it could not read) is printed as a note.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TextIO

from tutor.commands import console
from tutor.commands.common import add_path_option, catalog_for, seconds
from tutor.commands.console import KEY_CODES_REFUSED, OutputLost, Reader, key_codes
from tutor.engine import LessonRun, said_message, unmet_requirement
from tutor.flow import GUESS_MARK, Answer, LessonFlow, choice_labels, entry_text
from tutor.i18n import N_, _, cell, ngettext, steps_and_questions, untranslated, width
from tutor.judge import says_nothing_printed
from tutor.kernel import Kernel, KernelError
from tutor.lesson import LessonError, find_lesson
from tutor.lesson.loader import topic_name
from tutor.lesson.model import Lesson, Prompt
from tutor.lesson.requires import numpy_note
from tutor.lesson.warmth import needs_optimizers
from tutor.markup import plain_inline, plain_text
from tutor.pictures import KINDS, parse_show, render
from tutor.progress import ProgressStore
from tutor.redo import ask_again, queue
from tutor.safetext import json_dumps, sanitize
from tutor.states import AnswerStatus
from tutor.wrap import fill, terminal_width, title_line

# whole words only: a single letter is an answer (`q`, `h` name tensors in lessons)
HINT_WORDS = {"hint", "?", "힌트"}  # (the Korean words work in every language)
REVEAL_WORDS = {"reveal", "give up", "정답", "포기"}
QUIT_WORDS = {"quit", "exit", "종료", "그만"}
MARKS: dict[AnswerStatus, str] = {
    "correct": N_("✓ correct"), "partial": N_("~ partly right"), "incorrect": N_("✗ not quite")}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("lesson", metavar="LESSON", nargs="?",
                        help=_("a lesson id or a lesson file (none with --review)"))
    add_path_option(parser)
    parser.add_argument("--json", action="store_true",
                        help=_("one JSON record per counted answer on stdout; text on stderr"))
    parser.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                        help=_("time allowed per step (default: the lesson's, else 10)"))
    parser.add_argument("--review", action="store_true",
                        help=_("ask again the questions due for review, then your mistakes"))
    parser.add_argument("--no-progress", action="store_true",
                        help=_("do not record the answers in your progress (for scripts)"))


def entry_line(prompt: Prompt, examples: list[str]) -> str:
    """What an answer to `prompt` may look like (never which answer is right)."""
    if prompt.kind == "stdout":  # lines up to an empty one (see `read_lines`)
        return _("type the printed lines, one per line or separated by commas, then an "
                 "empty line (or: nothing); or hint, reveal, quit")
    return _("type {what}; end with {mark} if guessing; or hint, reveal, quit").format(
        what=entry_text(prompt.kind, examples), mark=GUESS_MARK)


def said_in(detail: str, full: str) -> bool:
    """Whether `detail` is (a shortened copy of) `full`, so that printing it again adds
    nothing: a quoted exception message before the whole of it on the `live:` line."""
    short = " ".join(detail.rstrip("…").split())
    return bool(short) and " ".join(full.split()).startswith(short)


class Player:
    def __init__(self, lesson: Lesson, out: TextIO, records: TextIO | None, *,
                 flow: LessonFlow | None = None, store: ProgressStore | None = None,
                 heading: str = ""):
        self.flow = flow if flow is not None else LessonFlow(lesson)
        self.lesson = self.flow.lesson  # (with `vary:`, the values this sitting drew)
        self.out = out
        self.records = records
        self.store = store  # None: answers are not recorded (--no-progress)
        self.heading = heading  # e.g. "Review 2 of 5", before the lesson's title
        self.torch: str | None = None  # the kernel's torch version, for the heading
        self.failure: str | None = None  # why the lesson could not go on (timeout, crash)
        self.run: LessonRun | None = None
        self.pushed_back: str | None = None  # a line read ahead while exploring
        self.reader: Reader | None = None  # (made for the stdin `play` is given)
        self.told = store.notice if store is not None else None  # the notice last said

    @property
    def width(self) -> int:
        """The terminal's columns, now (a window resized mid-lesson is followed): prose
        is wrapped to them, between words, and pictures drawn within them."""
        return terminal_width(self.out)

    # ------------------------------------------------------------------ input/output
    def _reader(self, stdin: TextIO | None) -> Reader:
        if self.reader is None or self.reader.stdin is not stdin:
            self.reader = Reader(stdin, self.out)
        return self.reader

    def raw_line(self, stdin: TextIO | None, prompt: str) -> str | None:
        """The next line as typed (line editing at a terminal), stripped, or None at the
        end of input.  A line holding a key code (an arrow key or PageUp where nothing
        edits lines) is refused, said, and the next one read: never an answer."""
        reader = self._reader(stdin)
        while True:
            raw = reader.read(prompt)
            if raw is None:
                return None
            text = raw.strip()
            if not key_codes(text):
                return text
            if not reader.interactive:
                self.say(text)  # (sanitised: the codes are shown as symbols)
            self.prose(_(KEY_CODES_REFUSED))

    def read_line(self, stdin: TextIO | None, prompt: str = "> ") -> str | None:
        """The next line of input, stripped (echoed when piped), or None at its end."""
        if self.pushed_back is not None:
            console.write(self.out, prompt)
            text, self.pushed_back = self.pushed_back, None
        else:
            line = self.raw_line(stdin, prompt)
            if line is None:
                self.say()
                ended = self._reader(stdin).ended
                if ended:
                    self.prose(_("(the end of input: {why})").format(why=ended), "")
                return None
            if self._reader(stdin).interactive:
                return line
            text = line
        self.say(text)  # echo piped answers so the transcript reads well
        return text

    def read_lines(self, stdin: TextIO | None, first: str) -> str:
        """A multi-line answer: `first`, then lines up to an empty one (or the end)."""
        lines = [first]
        while True:
            line = self.read_line(stdin, "... ")
            if not line:
                return "\n".join(lines)
            lines.append(line)

    def say(self, text: str = "") -> None:
        """Everything play prints: lesson output included, so made terminal-safe.
        OutputLost when it cannot be written (a full device, a closed pipe)."""
        console.write(self.out, sanitize(text) + "\n")

    def prose(self, text: str, first: str = "  ", rest: str | None = None,
              keep: tuple[str, ...] = ()) -> None:
        """Our own words, wrapped between words (continuing under `rest`: by default
        two columns in from `first`)."""
        rest = " " * (width(first) + 2) if rest is None else rest
        self.say(fill(text, self.width, first, rest, keep))

    def value(self, label: str, text: str, words: bool = False) -> None:
        """A value as it is (printed output, a live value), its later lines under its
        first: `  live:     pre` / `            forward`.  With `words` (an exception's
        message: prose, not data), wrapped between words under the same column."""
        pad = " " * width(label)  # (in cells: a Korean label is wider than its length)
        if words:
            self.say(fill(" ".join(text.split()), self.width, label, pad))
            return
        lines = text.rstrip().split("\n")
        self.say("\n".join([label + lines[0], *(pad + line for line in lines[1:])]))

    def block(self, text: str, indent: str = "  ") -> None:
        self.say(textwrap.indent(text.rstrip(), indent))

    def markdown(self, text: str, indent: str = "  ", first: str | None = None) -> None:
        self.say(plain_text(text, self.width, indent, first))

    def code(self, code: str) -> None:
        for i, line in enumerate(code.rstrip().splitlines(), 1):
            self.say(f"  {i:>3} | {line}")

    def save(self, answer: Answer) -> bool | None:
        """Store a counted answer, before anything about it is printed (so that output
        that fails cannot lose it).  None when no answer is recorded here."""
        attempt = answer.attempt
        if attempt is None or self.store is None:
            return None
        flow = self.flow  # as the app records it (a review keeps the resume point)
        return self.store.record(attempt, total_prompts=len(self.lesson.prompts),
                                 position=flow.resume_point() if flow.whole else None)

    def record(self, prompt: Prompt, answer: Answer, saved: bool | None,
               **extra: object) -> None:
        """What became of the answer: a note if it was not saved (or the database had
        to be written again), and its JSON record with --json."""
        attempt = answer.attempt
        if attempt is None:
            return
        if saved:
            self.told = None
        elif saved is False and self.store is not None and self.store.notice != self.told:
            self.told = self.store.notice  # (said once while saving keeps failing)
            self.prose(_("(not saved: {why})").format(why=self.store.notice))
        if self.store is not None:
            for news in self.store.take_news():
                self.prose(_("note: {text}").format(text=news), "  ")
        if self.records is None:
            return
        rec = {"lesson": self.lesson.id, "step": attempt.step + 1, "prompt": prompt.index + 1,
               "answer": attempt.answer, "verdict": attempt.verdict,
               "expected": attempt.expected, **extra, "hints": attempt.hints,
               "confidence": attempt.confidence}
        console.write(self.records, json_dumps(rec) + "\n")

    # ------------------------------------------------------------------ a question
    def ask(self, prompt: Prompt, stdin: TextIO | None) -> bool:
        """Ask until the answer counts; False when input ended or the learner quit."""
        flow = self.flow
        number = _("Q{n} of {count}. ").format(n=flow.question_number, count=flow.total_prompts)
        self.say()
        self.prose(plain_inline(prompt.ask), number, " " * width(number))
        for mark, choice in zip(choice_labels(prompt), prompt.labels or prompt.choices,
                                strict=True):
            self.prose(plain_inline(choice), f"     {mark}. ", " " * (7 + len(mark)))
        problem = flow.problem()
        if problem:
            self.prose(_("(this question cannot be judged: {why})").format(why=problem))
            return True
        examples = flow.entry_examples()
        self.prose(entry_line(prompt, examples), keep=tuple(examples))
        while True:
            text = self.read_line(stdin)
            if text is None:
                return False
            if not text and self._reader(stdin).interactive:
                continue  # an Enter too many (after a verdict, say): the prompt again, no "?"
            low = text.lower()
            if text.startswith(":"):
                self.prose("? " + _("Pictures show live values, so they open once this step's "
                                    "questions are answered."))
                continue
            if low in QUIT_WORDS:
                return False
            if low in HINT_WORDS:
                hint = flow.hint()
                if hint:
                    self.markdown(hint, "        ", "  " + _("hint: "))
                else:
                    self.say("  " + _("(no hint for this one)"))
                continue
            if low in REVEAL_WORDS:
                answer = flow.reveal()
                saved = self.save(answer)
                self.value("  " + _("The live value: "), answer.live,
                           words=prompt.kind == "exception")  # (a message: prose)
                self.explain(prompt)
                self.record(prompt, answer, saved)
                return True
            if prompt.kind == "stdout" and text and not says_nothing_printed(text):
                text = self.read_lines(stdin, text)
            answer = flow.judge(text)
            verdict = answer.verdict
            assert verdict is not None
            if not answer.counted:
                self.prose(f"? {verdict.message} " + _("Try again (or: hint, reveal)."))
                continue
            saved = self.save(answer)
            message = verdict.message
            for opening in (_("Right: "), _("Right, "), "Right: ", "Right, "):
                message = message.removeprefix(opening)
            self.prose(f"{_(MARKS[answer.status])}: {message}")
            words = prompt.kind == "exception"
            for detail in verdict.details:
                if not (words and said_in(detail, verdict.expected)):  # (once is enough)
                    self.prose(detail, "    ")
            assert answer.attempt is not None
            guess = " " + _("(a guess)") if answer.attempt.confidence == "guess" else ""
            self.value("  " + cell(_("you said:"), 10), verdict.answer + guess)
            self.value("  " + cell(_("live:"), 10), verdict.expected, words=words)
            if verdict.feedback:
                self.markdown(verdict.feedback, "    ", "  » ")
            self.explain(prompt)
            self.record(prompt, answer, saved, message=verdict.message)
            return True

    def explain(self, prompt: Prompt) -> None:
        if prompt.explain:
            self.say("  " + _("why:"))
            self.markdown(prompt.explain, "    ")

    # ------------------------------------------------------------------ pictures
    def explore(self, step_shows: list[str], stdin: TextIO | None) -> bool:
        """After a step's questions: its pictures, then `:` requests until another line.
        False when the learner quit there."""
        for spec in dict.fromkeys(step_shows):
            self.picture(spec)
        tty = self._reader(stdin).interactive
        if tty:
            self.prose(_("(look inside: :graph EXPR, :storage, :tree EXPR; Enter to go on)"))
        while True:
            line = self.raw_line(stdin, "  : " if tty else "")
            text = line or ""
            if text.casefold() in QUIT_WORDS:  # here and now, before the next step runs
                if not tty:
                    self.say(f"  : {text}")
                return False
            # in a terminal, `graph z` without its colon is a picture request too
            asked = text.startswith(":") or (tty and text.split(" ")[0].lower() in KINDS)
            if not asked:
                if text and not tty:
                    self.pushed_back = text  # piped: read ahead, the next question's answer
                elif text:  # typed before the next question was shown: not its answer
                    self.say("  " + _("(not a picture request, so {text} is not used: answer "
                                      "the next question below)").format(
                                          text=repr(sanitize(text)[:40])))
                return True  # (at the end of input the next read ends the lesson)
            if not tty:
                self.say(f"  : {text}")
            self.picture(text)

    def picture(self, spec_text: str) -> None:
        """Draw `graph EXPR`, `storage` or `tree EXPR` of the lesson's live state."""
        try:
            spec = parse_show(spec_text)
        except ValueError as exc:
            self.prose(f"? {exc}")
            return
        session = self.run.session if self.run is not None else None
        if session is None or not session.alive:
            self.say("  " + _("(no live lesson run to draw)"))
            return
        try:
            data = session.inspect(spec.what, spec.expr)
        except KernelError as exc:
            self.prose(_("(the picture could not be drawn: {error})").format(error=exc))
            return
        self.block(render(data, width=self.width - 2).text(), "  ")

    # ------------------------------------------------------------------ the lesson
    def play(self, run: LessonRun, stdin: TextIO | None) -> bool:
        lesson, flow = self.lesson, self.flow
        self.run = run
        steps = len(lesson.steps)
        heading = f"{self.heading}: " if self.heading else ""
        self.say(title_line(heading + plain_inline(lesson.title), self.width))
        if untranslated(lesson.lang):
            self.prose(untranslated(lesson.lang), "")
        # (no lesson id here: an id can name what a question asks; the summary gives it)
        on = " · " + _("on torch {version}").format(version=self.torch) if self.torch else ""
        self.prose(f"{topic_name(lesson)} · " + _("level {n}").format(n=lesson.level) + " · "
                   + steps_and_questions(steps, flow.total_prompts) + on, "")
        if lesson.intro and flow.whole:
            self.say()
            self.markdown(lesson.intro, "")
        for module in lesson.modules:  # the lesson's own modules: its code imports them
            self.say("\n-- " + _("module {name}.py (the lesson's code imports it: "
                                  "`import {name}`)").format(name=module.name) + " --")
            self.code(module.source)
        if lesson.setup:  # the pack's shared code: the questions may be about what it defines
            self.say("\n-- " + _("setup, shared by the pack's lessons (runs before step 1)")
                     + " --")
            self.code(lesson.setup.code)
        if not flow.whole and flow.step_index > 0:  # a question asked again: what led to it
            self.say("\n-- " + _("steps 1 to {n} (they run first, silently)").format(
                n=flow.step_index) + " --")
            self.code("\n".join(s.code.rstrip() for s in lesson.steps[: flow.step_index]))
        while True:
            step = flow.step
            self.say("\n-- " + _("step {n} of {count}").format(n=step.index + 1, count=steps)
                     + " --")
            self.code(step.code)
            outcome = run.run_through(step.index)
            if outcome is None or outcome.failure:
                self.failure = outcome.failure if outcome else _("the step did not run")
                self.say()
                self.prose(f"! {self.failure}")
                return True
            flow.outcome = outcome
            while flow.prompt is not None:
                if not self.ask(flow.prompt, stdin):
                    return False
                if not flow.more_in_step:
                    break
                flow.advance()
            if step.prompts and not self.explore([p.show for p in step.prompts if p.show],
                                                 stdin):
                return False
            if outcome.stdout.strip():
                self.say("  " + _("output:"))
                self.block(outcome.stdout, "    ")
            if outcome.error and outcome.unexpected_error:
                self.prose(_("the step raised {name}: {message}").format(
                    name=outcome.error["name"], message=said_message(outcome.error)))
            if step.explain:
                self.markdown(step.explain)
            if flow.advance() == "end":
                if self.store is not None and flow.whole:
                    self.store.set_position(lesson.id, (steps, 0), flow.run_id)
                return True

    def summary(self, finished: bool) -> None:
        state = _("finished") if finished else _("stopped")
        self.say()
        self.prose(f"{state}: {self.flow.tally().text()} ({self.lesson.id})", "")


NO_INPUT = N_("tutor play: standard input is closed, so no answer can be read. Run it at a "
              "terminal, or give the answers on standard input: printf '12\\n' | tutor play "
              "LESSON")


def run(args: argparse.Namespace) -> int:
    """`tutor play`: at a terminal with line editing; through pipes and files without a
    traceback whatever the output (a full device, a closed pipe, an encoding without
    tutor's symbols) or the input (closed, not text)."""
    if console.is_closed(sys.stdin):
        print(_(NO_INPUT), file=sys.stderr)
        return 2
    console.tolerate_input(sys.stdin)
    try:
        return _run(args)
    except OutputLost as lost:
        return output_lost(lost, saving=not args.no_progress)


def output_lost(lost: OutputLost, *, saving: bool) -> int:
    """The lesson stops when its output cannot be written: say so where we still can
    (exit 1); a closed pipe (`| head`) ends it quietly (exit 0), as everywhere."""
    console.silence(lost.stream)  # (what is buffered for it must not fail again at exit)
    if lost.broken_pipe:
        return 0
    kept = (_("every answer given before it is saved in your progress") if saving else
            _("nothing was saved (--no-progress)"))
    message = _("tutor play: stopped: the output could not be written ({why}); {kept}.").format(
        why=lost, kept=kept) + "\n"
    try:
        console.write(sys.stderr, message)
    except OutputLost as again:
        console.silence(again.stream)
    return 1


def _run(args: argparse.Namespace) -> int:
    if args.review:
        if args.lesson:
            print(_("tutor play: --review asks the questions of every lesson due for review; "
                    "give no LESSON with it"), file=sys.stderr)
            return 2
        return review(args)
    if not args.lesson:
        print(_("tutor play: give a LESSON (an id, e.g. samples/accumulate, or a file), or "
                "--review"), file=sys.stderr)
        return 2
    try:
        lesson = find_lesson(args.lesson, args.path)
    except LessonError as exc:
        print(exc, file=sys.stderr)
        return 2
    out = sys.stderr if args.json else sys.stdout
    store = None if args.no_progress else ProgressStore()
    try:
        return play_lesson(args, lesson, out, store)
    finally:
        if store is not None:
            store.close()


def play_lesson(args: argparse.Namespace, lesson: Lesson, out: TextIO,
                store: ProgressStore | None) -> int:
    player = Player(lesson, out, sys.stdout if args.json else None, store=store)
    if store is not None:
        store.set_position(lesson.id, (0, 0), player.flow.run_id)
        if store.notice:
            player.prose(_("note: {text}").format(text=store.notice), "")
        store.take_news()  # (said in the notice)
    kernel = Kernel(optimizers=needs_optimizers([lesson.file]))
    kernel.start()
    try:
        info = kernel.wait_ready()
        player.torch = info.get("torch", "") + numpy_note(info)
        why = unmet_requirement(lesson, info)
        if why:
            player.say(_("{id} is skipped here: it {why}.").format(id=lesson.id, why=why))
            return 0
        with LessonRun(kernel, player.lesson, timeout=args.timeout) as lesson_run:
            finished = player.play(lesson_run, sys.stdin)
    except KernelError as exc:
        print(f"tutor play: {exc}", file=sys.stderr)
        return 2
    finally:
        kernel.shutdown()
    player.summary(finished)
    if store is not None:
        waiting(store, out)
        problems = store.problem_summary()
        if problems:
            player.say(_("note: {text}").format(text=problems))
    return 1 if player.failure else 0  # a lesson that could not run to its end is a failure


def waiting(store: ProgressStore, out: TextIO) -> None:
    """What waits for review over every lesson played so far (not only this one), and
    how to ask it again."""
    questions = queue(store)
    if questions:
        due = sum(q.reason == "due" for q in questions)
        line = ngettext("waiting for review, over all your lessons: {n} question ({due} due "
                        "now, {redo} to redo): tutor play --review",
                        "waiting for review, over all your lessons: {n} questions ({due} due "
                        "now, {redo} to redo): tutor play --review", len(questions)).format(
                            n=len(questions), due=due, redo=len(questions) - due)
        console.write(out, fill(line, terminal_width(out), rest="  ",
                                keep=("tutor play --review",)) + "\n")


def show(out: TextIO, text: str) -> None:
    console.write(out, text + "\n")


def review(args: argparse.Namespace) -> int:
    """`tutor play --review`: every question due for review, then every mistake, each
    asked again in a fresh run of its lesson (the steps before it run silently)."""
    out = sys.stderr if args.json else sys.stdout
    records = sys.stdout if args.json else None
    catalog = catalog_for([], args.path)
    with ProgressStore() as store:
        questions = queue(store)
        saving = None if args.no_progress else store
        if saving is not None and store.notice:
            show(out, fill(_("note: {text}").format(text=store.notice), terminal_width(out)))
        if not questions:
            show(out, fill(_("Nothing to review: no question is due, and every question you "
                             "answered wrong or revealed has been answered right since."),
                           terminal_width(out)))
            return 0
        due = sum(q.reason == "due" for q in questions)
        show(out, fill(ngettext(
            "{n} question to ask again ({due} due for review, {redo} to redo); each runs its "
            "lesson's earlier steps first.",
            "{n} questions to ask again ({due} due for review, {redo} to redo); each runs its "
            "lesson's earlier steps first.", len(questions)).format(
                n=len(questions), due=due, redo=len(questions) - due), terminal_width(out)))
        lessons = [catalog.get(q.lesson) for q in questions]
        kernel = Kernel(optimizers=needs_optimizers(
            [lesson.file for lesson in lessons if lesson is not None]))
        kernel.start()
        right = asked = 0
        ahead: str | None = None  # a line one question read ahead: the next one's answer
        try:
            for n, question in enumerate(questions, 1):
                lesson = catalog.get(question.lesson)
                where = _("Review {n} of {count}").format(n=n, count=len(questions))
                if lesson is None:
                    show(out, f"\n{where}: " + _(
                        "{where} is skipped: its lesson is not in the catalog (removed, or its "
                        "pack not on --path?)").format(where=question.where()))
                    continue
                try:
                    flow = ask_again(lesson, question.step, question.prompt,
                                     avoid=question.avoid)
                except LookupError as exc:
                    show(out, f"\n{where}: " + _("skipped: {why}").format(why=exc))
                    continue
                info = kernel.wait_ready()
                why = unmet_requirement(lesson, info)
                if why:
                    show(out, f"\n{where}: " + _("{id} is skipped here: it {why}.").format(
                        id=lesson.id, why=why))
                    continue
                player = Player(lesson, out, records, flow=flow, store=saving, heading=where)
                player.torch = info.get("torch", "") + numpy_note(info)
                player.pushed_back = ahead
                player.say()
                with LessonRun(kernel, player.lesson, timeout=args.timeout) as lesson_run:
                    finished = player.play(lesson_run, sys.stdin)
                ahead = player.pushed_back
                tally = flow.tally()
                asked += tally.answered
                right += tally.correct
                if not finished:
                    break
        except KernelError as exc:
            print(f"tutor play: {exc}", file=sys.stderr)
            return 2
        finally:
            kernel.shutdown()
        left = len(queue(store)) if saving is not None else None
    more = (_("; ") + ngettext("{n} question still to review", "{n} questions still to review",
                            left).format(n=left) if left else "")
    show(out, "\n" + ngettext("review: {right} of {n} question right",
                              "review: {right} of {n} questions right", asked).format(
                                  right=right, n=asked) + more)
    return 0
