"""The `tutor` subcommands.  Each module has `add_arguments(parser)` and `run(args) -> int`.

Modules are imported only when their command runs, so `tutor list` never pays for
textual and nothing here ever imports torch.
"""

# name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "list": ("tutor.commands.listing", "list the lessons, with their packs and files"),
    "check": ("tutor.commands.check", "run lessons live and check every reference answer"),
    "play": ("tutor.commands.play", "play a lesson in plain text (answers from stdin)"),
    "show": ("tutor.commands.show", "draw a lesson's autograd graph, storage map or module tree"),
    "progress": ("tutor.commands.progress", "show your progress: lesson statuses and accuracy"),
    "review": ("tutor.commands.review", "list the questions to redo: mistakes, or reviews due "
               "(--due)"),
    "reset": ("tutor.commands.reset", "forget your progress (all, or one lesson's)"),
    "new": ("tutor.commands.new", "write a commented lesson skeleton to start from"),
    "translate": ("tutor.commands.translate", "start lessons' translations, or bring them in "
                  "line with their lessons (--update)"),
    "lint": ("tutor.commands.lint", "check lesson files without running them (no torch)"),
    "record": ("tutor.commands.record", "run lessons and write every answer from the live value"),
    "dev": ("tutor.commands.dev", "preview one lesson file in the app, reloading on save"),
    "schema": ("tutor.commands.schema", "print the JSON Schema of lesson files (for editors)"),
}
