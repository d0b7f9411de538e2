"""`tutor play LESSON`: a lesson in plain text, one prediction per line on stdin.

For pipes, scripts and screen readers.  Besides an answer, a line may be `hint`
(or `?`), `reveal` (gives up: shows the live value) or `quit`.  Pictures of the
live state never show before a step's questions are answered (they would give the
answers away): once they are, the prompts' `show:` pictures are drawn, and lines
starting with `:` (`:graph EXPR`, `:storage`, `:tree EXPR`; see docs/pictures.md)
draw more until a line that does not start with `:`.  End of input ends the lesson
cleanly with a summary.  With `--json`, stdout carries one JSON record per judged
answer and the human-readable text goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TextIO

from tutor.commands.common import add_path_option
from tutor.engine import LessonRun, StepOutcome, judge_prompt, shown_live, unmet_requirement
from tutor.judge import Status
from tutor.kernel import Kernel, KernelError
from tutor.kernel.text import sanitize_output
from tutor.lesson import LessonError, Prompt, find_lesson
from tutor.lesson.model import Lesson
from tutor.pictures import parse_show, render
from tutor.safetext import json_dumps

HINT_WORDS = {"hint", "?", "h"}
REVEAL_WORDS = {"reveal", "give up", "skip", "show"}
QUIT_WORDS = {"quit", "exit", "q"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("lesson", metavar="LESSON", help="a lesson id or a lesson file")
    add_path_option(parser)
    parser.add_argument("--json", action="store_true",
                        help="one JSON record per judged answer on stdout; text on stderr")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="time allowed per step (default: the lesson's, else 10)")


class Player:
    def __init__(self, lesson: Lesson, out: TextIO, records: TextIO | None):
        self.lesson = lesson
        self.out = out
        self.records = records
        self.tally = {"correct": 0, "partial": 0, "incorrect": 0, "revealed": 0}
        self.asked = 0
        self.failure: str | None = None  # why the lesson could not go on (timeout, crash)
        self.run: LessonRun | None = None
        self.pushed_back: str | None = None  # a line read ahead while exploring

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

    def say(self, text: str = "") -> None:
        """Everything play prints: lesson output included, so made terminal-safe."""
        print(sanitize_output(text), file=self.out, flush=True)

    def block(self, text: str, indent: str = "  ") -> None:
        self.say(textwrap.indent(text.rstrip(), indent))

    def code(self, code: str) -> None:
        lines = code.rstrip().splitlines()
        for i, line in enumerate(lines, 1):
            self.say(f"  {i:>3} | {line}")

    def record(self, step: int, prompt: Prompt, answer: str, verdict: str, expected: str,
               **extra: object) -> None:
        if self.records is not None:
            rec = {"lesson": self.lesson.id, "step": step, "prompt": prompt.index,
                   "answer": answer, "verdict": verdict, "expected": expected, **extra}
            print(json_dumps(rec), file=self.records, flush=True)

    def ask(self, outcome: StepOutcome, prompt: Prompt, stdin: TextIO) -> bool:
        """Ask until judged; False when input ended or the learner quit."""
        self.asked += 1
        self.say(f"\nQ{self.asked}. {prompt.ask.strip()}  [{prompt.kind}]")
        if prompt.choices:
            for i, choice in enumerate(prompt.choices, 1):
                self.say(f"     {i}. {choice}")
        live = outcome.live(prompt) or {"type": "none"}
        expected = shown_live(live, prompt.kind)
        problem = outcome.lesson_problem(prompt)
        if problem:
            self.say(f"  (this question cannot be judged: {problem})")
            return True
        hints = 0
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
                hints += 1
                self.say(f"  hint: {prompt.hint}" if prompt.hint else "  (no hint for this one)")
                continue
            if low in REVEAL_WORDS:
                self.tally["revealed"] += 1
                self.say(f"  The live value: {expected}")
                self.explain(prompt)
                self.record(outcome.step.index, prompt, text, "revealed", expected, hints=hints)
                return True
            verdict = judge_prompt(outcome, prompt, text)
            if verdict.status is Status.INVALID:
                self.say(f"  ? {verdict.message} Try again (or `hint`, `reveal`).")
                continue
            self.tally[verdict.status.value] += 1
            mark = {"correct": "✓ correct", "partial": "~ partly right",
                    "incorrect": "✗ not quite"}[verdict.status.value]
            message = verdict.message.removeprefix("Right: ").removeprefix("Right, ")
            self.say(f"  {mark}: {message}")
            for detail in verdict.details:
                self.say(f"    {detail}")
            self.say(f"  you said: {text}")
            self.say(f"  live:     {verdict.expected}")
            if verdict.feedback:
                self.block(verdict.feedback, "  » ")
            self.explain(prompt)
            self.record(outcome.step.index, prompt, text, verdict.status.value, verdict.expected,
                        message=verdict.message, hints=hints)
            return True

    def explain(self, prompt: Prompt) -> None:
        if prompt.explain:
            self.say("  why:")
            self.block(prompt.explain, "    ")

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
        self.block(render(data, width=78).text(), "  ")

    def play(self, run: LessonRun, stdin: TextIO) -> bool:
        lesson = self.lesson
        self.run = run
        self.say(f"== {lesson.title} ({lesson.id}; {lesson.topic}, level {lesson.level}) ==")
        if lesson.intro:
            self.say()
            self.block(lesson.intro, "")
        for step in lesson.steps:
            self.say(f"\n-- step {step.index + 1} of {len(lesson.steps)} --")
            self.code(step.code)
            outcome = run.run_step(step)
            if outcome.failure:
                self.failure = outcome.failure
                self.say(f"\n  ! {outcome.failure}")
                return True
            for prompt in step.prompts:
                if not self.ask(outcome, prompt, stdin):
                    return False
            if step.prompts:
                self.explore([p.show for p in step.prompts if p.show], stdin)
            if outcome.stdout.strip():
                self.say("  output:")
                self.block(outcome.stdout, "    ")
            if outcome.error and outcome.unexpected_error:
                self.say(f"  the step raised {outcome.error['name']}: {outcome.error['message']}")
            if step.explain:
                self.block(step.explain, "  ")
        return True

    def summary(self, finished: bool) -> None:
        t = self.tally
        judged = t["correct"] + t["partial"] + t["incorrect"]
        state = "finished" if finished else "stopped"
        self.say(f"\n{state}: {t['correct']} of {judged} correct"
                 + (f", {t['partial']} partly right" if t["partial"] else "")
                 + (f", {t['revealed']} revealed" if t["revealed"] else ""))


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
        with LessonRun(kernel, lesson, timeout=args.timeout) as lesson_run:
            finished = player.play(lesson_run, sys.stdin)
    except KernelError as exc:
        print(f"tutor play: {exc}", file=sys.stderr)
        return 2
    finally:
        kernel.shutdown()
    player.summary(finished)
    return 1 if player.failure else 0  # a lesson that could not run to its end is a failure
