"""`tutor play LESSON`: a lesson in plain text, for pipes, scripts and screen readers.

The same lesson engine as the app (`tutor.flow.LessonFlow`): the same questions,
judging, hints, reveals and tally.  One answer per line; a question about printed
output reads lines up to an empty line (or the end of input), so several printed
lines can be typed as they would appear.  Besides an answer, a line may be `hint`
(or `?`), `reveal` (gives up: shows the live value) or `quit`.  Pictures of the
live state never show before a step's questions are answered (they would give the
answers away): once they are, the prompts' `show:` pictures are drawn, and lines
starting with `:` (`:graph EXPR`, `:storage`, `:tree EXPR`; see docs/pictures.md)
draw more until a line that does not start with `:`.  End of input ends the lesson
cleanly with a summary.  Lesson text (Markdown) is printed as plain text.  With
`--json`, stdout carries one JSON record per counted answer (steps and prompts
numbered from 1) and the human-readable text goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TextIO

from tutor.commands.common import add_path_option
from tutor.engine import LessonRun, unmet_requirement
from tutor.flow import Answer, LessonFlow, entry_text
from tutor.kernel import Kernel, KernelError
from tutor.lesson import LessonError, find_lesson
from tutor.lesson.model import Lesson, Prompt
from tutor.markup import plain_inline, plain_text, plural
from tutor.pictures import parse_show, render
from tutor.safetext import json_dumps, sanitize

HINT_WORDS = {"hint", "?", "h"}
REVEAL_WORDS = {"reveal", "give up", "skip", "show"}
QUIT_WORDS = {"quit", "exit", "q"}
WIDTH = 78
MARKS = {"correct": "✓ correct", "partial": "~ partly right", "incorrect": "✗ not quite"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("lesson", metavar="LESSON", help="a lesson id or a lesson file")
    add_path_option(parser)
    parser.add_argument("--json", action="store_true",
                        help="one JSON record per counted answer on stdout; text on stderr")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="time allowed per step (default: the lesson's, else 10)")


def entry_line(prompt: Prompt, examples: list[str]) -> str:
    """What an answer to `prompt` may look like (never which answer is right)."""
    if prompt.kind == "stdout":  # lines up to an empty one (see `read_lines`)
        return ("type the printed lines, one per line or separated by commas, then an empty "
                "line (or: nothing); or hint, reveal, quit")
    return f"type {entry_text(prompt.kind, examples)}; or hint, reveal, quit"


class Player:
    def __init__(self, lesson: Lesson, out: TextIO, records: TextIO | None):
        self.flow = LessonFlow(lesson)
        self.lesson = self.flow.lesson  # (with `vary:`, the values this sitting drew)
        self.out = out
        self.records = records
        self.failure: str | None = None  # why the lesson could not go on (timeout, crash)
        self.run: LessonRun | None = None
        self.pushed_back: str | None = None  # a line read ahead while exploring

    # ------------------------------------------------------------------ input/output
    def read_line(self, stdin: TextIO, prompt: str = "> ") -> str | None:
        """The next line of input, stripped (echoed when piped), or None at its end."""
        piped = not stdin.isatty()
        self.out.write(prompt)
        self.out.flush()
        if self.pushed_back is not None:
            text, self.pushed_back = self.pushed_back, None
        else:
            raw = stdin.readline()
            if not raw:
                self.say()
                return None
            text = raw.strip()
            if not piped:
                return text
        self.say(text)  # echo piped answers so the transcript reads well
        return text

    def read_lines(self, stdin: TextIO, first: str) -> str:
        """A multi-line answer: `first`, then lines up to an empty one (or the end)."""
        lines = [first]
        while True:
            line = self.read_line(stdin, "... ")
            if not line:
                return "\n".join(lines)
            lines.append(line)

    def say(self, text: str = "") -> None:
        """Everything play prints: lesson output included, so made terminal-safe."""
        print(sanitize(text), file=self.out, flush=True)

    def block(self, text: str, indent: str = "  ") -> None:
        self.say(textwrap.indent(text.rstrip(), indent))

    def markdown(self, text: str, indent: str = "  ") -> None:
        self.say(plain_text(text, WIDTH, indent))

    def code(self, code: str) -> None:
        for i, line in enumerate(code.rstrip().splitlines(), 1):
            self.say(f"  {i:>3} | {line}")

    def record(self, prompt: Prompt, answer: Answer, **extra: object) -> None:
        attempt = answer.attempt
        if self.records is None or attempt is None:
            return
        rec = {"lesson": self.lesson.id, "step": attempt.step + 1, "prompt": prompt.index + 1,
               "answer": attempt.answer, "verdict": attempt.verdict,
               "expected": attempt.expected, **extra, "hints": attempt.hints}
        print(json_dumps(rec), file=self.records, flush=True)

    # ------------------------------------------------------------------ a question
    def ask(self, prompt: Prompt, stdin: TextIO) -> bool:
        """Ask until the answer counts; False when input ended or the learner quit."""
        flow = self.flow
        self.say(f"\nQ{flow.question_number} of {flow.total_prompts}. "
                 f"{plain_inline(prompt.ask)}")
        for i, choice in enumerate(prompt.choices, 1):
            self.say(f"     {i}. {plain_inline(choice)}")
        problem = flow.problem()
        if problem:
            self.say(f"  (this question cannot be judged: {problem})")
            return True
        self.say(f"  {entry_line(prompt, flow.entry_examples())}")
        while True:
            text = self.read_line(stdin)
            if text is None:
                return False
            low = text.lower()
            if text.startswith(":"):
                self.say("  ? Pictures show live values, so they open once this step's "
                         "questions are answered.")
                continue
            if low in QUIT_WORDS:
                return False
            if low in HINT_WORDS:
                hint = flow.hint()
                if hint:
                    self.markdown(f"hint: {hint}")
                else:
                    self.say("  (no hint for this one)")
                continue
            if low in REVEAL_WORDS:
                answer = flow.reveal()
                self.say(f"  The live value: {answer.live}")
                self.explain(prompt)
                self.record(prompt, answer)
                return True
            if prompt.kind == "stdout" and text:
                text = self.read_lines(stdin, text)
            answer = flow.judge(text)
            verdict = answer.verdict
            assert verdict is not None
            if not answer.counted:
                self.say(f"  ? {verdict.message} Try again (or: hint, reveal).")
                continue
            message = verdict.message.removeprefix("Right: ").removeprefix("Right, ")
            self.say(f"  {MARKS[answer.status]}: {message}")
            for detail in verdict.details:
                self.say(f"    {detail}")
            self.say("  you said: " + text.replace("\n", "\n            "))
            self.say("  live:     " + verdict.expected.rstrip().replace("\n", "\n            "))
            if verdict.feedback:
                self.markdown(verdict.feedback, "  » ")
            self.explain(prompt)
            self.record(prompt, answer, message=verdict.message)
            return True

    def explain(self, prompt: Prompt) -> None:
        if prompt.explain:
            self.say("  why:")
            self.markdown(prompt.explain, "    ")

    # ------------------------------------------------------------------ pictures
    def explore(self, step_shows: list[str], stdin: TextIO) -> None:
        """After a step's questions: its pictures, then `:` requests until another line."""
        for spec in dict.fromkeys(step_shows):
            self.picture(spec)
        tty = stdin.isatty()
        if tty:
            self.say("  (look inside: :graph EXPR, :storage, :tree EXPR; Enter to go on)")
        while True:
            if tty:
                self.out.write("  : ")
                self.out.flush()
            raw = stdin.readline()
            text = raw.strip()
            if not text.startswith(":"):
                if text:
                    self.pushed_back = text  # read ahead: the answer to the next question
                return  # (at the end of input the next read ends the lesson)
            if not tty:
                self.say(f"  : {text}")
            self.picture(text)

    def picture(self, spec_text: str) -> None:
        """Draw `graph EXPR`, `storage` or `tree EXPR` of the lesson's live state."""
        try:
            spec = parse_show(spec_text)
        except ValueError as exc:
            self.say(f"  ? {exc}")
            return
        session = self.run.session if self.run is not None else None
        if session is None or not session.alive:
            self.say("  (no live lesson run to draw)")
            return
        try:
            data = session.inspect(spec.what, spec.expr)
        except KernelError as exc:
            self.say(f"  (the picture could not be drawn: {exc})")
            return
        self.block(render(data, width=WIDTH).text(), "  ")

    # ------------------------------------------------------------------ the lesson
    def play(self, run: LessonRun, stdin: TextIO) -> bool:
        lesson, flow = self.lesson, self.flow
        self.run = run
        steps = len(lesson.steps)
        self.say(f"== {plain_inline(lesson.title)} ==")
        self.say(f"{lesson.id} · {lesson.topic} · level {lesson.level} · "
                 f"{plural(steps, 'step')}, {plural(flow.total_prompts, 'question')}")
        if lesson.intro:
            self.say()
            self.markdown(lesson.intro, "")
        if lesson.setup:  # the pack's shared code: the questions may be about what it defines
            self.say("\n-- setup, shared by the pack's lessons (runs before step 1) --")
            self.code(lesson.setup.code)
        while True:
            step = flow.step
            self.say(f"\n-- step {step.index + 1} of {steps} --")
            self.code(step.code)
            outcome = run.run_through(step.index)
            if outcome is None or outcome.failure:
                self.failure = outcome.failure if outcome else "the step did not run"
                self.say(f"\n  ! {self.failure}")
                return True
            flow.outcome = outcome
            while flow.prompt is not None:
                if not self.ask(flow.prompt, stdin):
                    return False
                if not flow.more_in_step:
                    break
                flow.advance()
            if step.prompts:
                self.explore([p.show for p in step.prompts if p.show], stdin)
            if outcome.stdout.strip():
                self.say("  output:")
                self.block(outcome.stdout, "    ")
            if outcome.error and outcome.unexpected_error:
                self.say(f"  the step raised {outcome.error['name']}: {outcome.error['message']}")
            if step.explain:
                self.markdown(step.explain)
            if flow.advance() == "end":
                return True

    def summary(self, finished: bool) -> None:
        state = "finished" if finished else "stopped"
        self.say(f"\n{state}: {self.flow.tally().text()}")


def run(args: argparse.Namespace) -> int:
    try:
        lesson = find_lesson(args.lesson, args.path)
    except LessonError as exc:
        print(exc, file=sys.stderr)
        return 2
    out = sys.stderr if args.json else sys.stdout
    player = Player(lesson, out, sys.stdout if args.json else None)
    kernel = Kernel()
    kernel.start()
    try:
        why = unmet_requirement(lesson, kernel.wait_ready())
        if why:
            player.say(f"{lesson.id} is skipped here: it {why}.")
            return 0
        with LessonRun(kernel, player.lesson, timeout=args.timeout) as lesson_run:
            finished = player.play(lesson_run, sys.stdin)
    except KernelError as exc:
        print(f"tutor play: {exc}", file=sys.stderr)
        return 2
    finally:
        kernel.shutdown()
    player.summary(finished)
    return 1 if player.failure else 0  # a lesson that could not run to its end is a failure
