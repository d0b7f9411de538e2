"""The `tutor` subcommands.  Each module has `add_arguments(parser)` and `run(args) -> int`.

Modules are imported only when their command runs, so `tutor list` never pays for
textual and nothing here ever imports torch.
"""

from tutor.i18n import N_

# name -> (module, one-line help: translated where shown, tutor.cli)
COMMANDS: dict[str, tuple[str, str]] = {
    "list": ("tutor.commands.listing", N_("list the lessons, with their packs and files")),
    "check": ("tutor.commands.check", N_("run lessons live and check every reference answer")),
    "play": ("tutor.commands.play", N_("play a lesson in plain text (answers from stdin)")),
    "show": ("tutor.commands.show",
             N_("draw a lesson's autograd graph, storage map or module tree")),
    "progress": ("tutor.commands.progress",
                 N_("show your progress: lesson statuses and accuracy")),
    "review": ("tutor.commands.review",
               N_("list the questions to redo: mistakes, or reviews due (--due)")),
    "reset": ("tutor.commands.reset", N_("forget your progress (all, or one lesson's)")),
    "new": ("tutor.commands.new", N_("write a commented lesson skeleton to start from")),
    "translate": ("tutor.commands.translate",
                  N_("start lessons' translations, or bring them in line with their lessons "
                     "(--update)")),
    "lint": ("tutor.commands.lint", N_("check lesson files without running them (no torch)")),
    "record": ("tutor.commands.record",
               N_("run lessons and write every answer from the live value")),
    "dev": ("tutor.commands.dev", N_("preview one lesson file in the app, reloading on save")),
    "schema": ("tutor.commands.schema",
               N_("print the JSON Schema of lesson files (for editors)")),
}
