"""The storage map: which names live on which block of memory, and where in it.

    storage map: 2 tensors on 1 storage (same label = same memory)
    shared: s1 ← A, B
       name   memory  shape  stride  offset  notes
    s1 · 2 × float32 (8 bytes)
    ├─ A      ██      [2]    [1]     0       leaf, requires grad
    └─ B      ██      [2]    [1]     0       shares A's memory, ._base None

Labels are the lesson run's (the same block keeps its label from picture to
picture); storages are listed in label order.  `shared:` lists the storages that
more than one name reaches (`a = c`: one object under two names).  The memory bar
has one cell per element of the storage (up to 16 cells; a cell stands for several
elements in bigger storages): █ the tensor uses all of the cell, ▒ part of it,
· none of it.
"""

from __future__ import annotations

from typing import Any

from tutor.i18n import N_, _, ngettext, pad
from tutor.i18n import width as text_width
from tutor.pictures.common import BLANK, ELBOW, PIPE, TEE, names, shape
from tutor.pictures.model import Picture, head, seg, wrap

BAR_CELLS = 16
# the table's column headings, and that of the notes after them
HEADERS = (N_("name"), N_("memory"), N_("shape"), N_("stride"), N_("offset"))
NOTES = N_("notes")


def _bar(t: dict[str, Any], nbytes: int, unit: int, cells: int) -> str:
    """Which parts of the storage `t` covers, `cells` characters wide."""
    if nbytes <= 0 or unit <= 0 or cells <= 0:
        return ""
    units = max(1, nbytes // unit)
    per_cell = -(-units // cells)  # ceil
    cells = -(-units // per_cell)
    es = t.get("element_size", unit)
    positions = t.get("cells")
    covered: set[int] = set()
    if positions is not None:
        for p in positions:
            start = p * es // unit
            covered.update(range(start, start + max(1, es // unit)))
    elif t.get("contiguous"):
        n = 1
        for d in t.get("shape", []):
            n *= d
        start = t.get("offset", 0) * es // unit
        covered.update(range(start, start + n * es // unit))
    else:
        return "?" * cells
    out = []
    for c in range(cells):
        span = range(c * per_cell, min(units, (c + 1) * per_cell))
        hit = sum(1 for u in span if u in covered)
        out.append("█" if span and hit == len(span) else "▒" if hit else "·")
    return "".join(out)


def _notes(t: dict[str, Any], owner: dict[str, Any] | None, shared: bool,
           dtype: str | None) -> str:
    notes = []
    if t.get("dtype") != dtype:
        notes.append(_("as {dtype}").format(dtype=t.get("dtype")))
    if len(t.get("names", [])) > 1:
        notes.append(_("one object, several names"))
    if t.get("is_view"):
        base = t.get("view_of")
        notes.append(_("view of {name}").format(name=base) if base else _("view"))
    elif shared and owner is not None and owner is not t:
        # detach(), .data, a NumPy round trip: torch's docs count detach() among the
        # view ops (it shares the storage), but autograd keeps no `_base` for it
        who = owner["names"][0] if owner.get("names") else _("the first")
        notes.append(_("shares {name}'s memory, ._base None").format(name=who))
    if t.get("grad_fn"):
        notes.append(t["grad_fn"])
    elif t.get("requires_grad"):
        notes.append(_("leaf, requires grad"))
    if "contiguous" in t and not t["contiguous"]:
        notes.append(_("not contiguous"))
    return ", ".join(notes)


def _label_order(storage: dict[str, Any]) -> tuple[int, int]:
    """s2 before s10; storages without a label (sparse, meta) last."""
    label = str(storage.get("label") or "")
    return (0, int(label[1:])) if label[1:].isdigit() else (1, 0)


def render_storage(data: dict[str, Any], width: int = 80) -> Picture:
    storages = sorted(data.get("storages", []), key=_label_order)
    n_tensors = sum(len(s["tensors"]) for s in storages)
    labelled = [s for s in storages if s.get("label")]
    counts = {"tensors": ngettext("{n} tensor", "{n} tensors", n_tensors).format(n=n_tensors),
              "storages": ngettext("{n} storage", "{n} storages", len(labelled)).format(
                  n=len(labelled))}
    title = (_("storage map of {expr}: {tensors} on {storages} (same label = same memory)")
             .format(expr=data["expr"], **counts) if data.get("expr") else
             _("storage map: {tensors} on {storages} (same label = same memory)")
             .format(**counts))
    pic = Picture("storage", title, width=width)
    if not storages:
        pic.add(seg(_("(no tensors in the lesson's namespace yet)"), "dim"))
        return pic
    shared = [s for s in labelled
              if sum(len(t.get("names") or ["?"]) for t in s["tensors"]) > 1]
    for s in shared:  # `a = c`: one object under two names; `A, B`: two tensors
        who = [" = ".join(t.get("names") or ["?"]) for t in s["tensors"]]
        pic.add(seg(_("shared: "), "dim"), seg(s["label"], "op"), seg(" ← ", "rule"),
                seg(names(who, 8), "name"))
    if not shared:
        pic.add(seg(_("no two names share a storage"), "dim"))

    bar_max = BAR_CELLS if width >= 70 else 8
    rows: list[tuple[list[str], str]] = []  # (cells of the row, notes)
    headers = [_(h) for h in HEADERS]
    for s in storages:
        tensors = s["tensors"]
        nbytes = s.get("nbytes", 0)
        unit = min((t.get("element_size", 1) for t in tensors), default=1)
        cells = min(bar_max, max(1, nbytes // unit)) if nbytes else 0
        owner = next((t for t in tensors if not t.get("is_view")), None)
        dtype = (owner or tensors[0]).get("dtype")
        for i, t in enumerate(tensors):
            branch = ELBOW if i == len(tensors) - 1 else TEE
            rows.append(([
                branch + ", ".join(t.get("names") or ["?"]),
                _bar(t, nbytes, unit, cells) if s.get("label") else "",
                shape(t.get("shape", [])),
                shape(t["stride"]) if "stride" in t else "",
                str(t["offset"]) if "offset" in t else "",
            ], _notes(t, owner, len(tensors) > 1, dtype)))
    # column widths: the name column gives way first when the table is too wide
    cols = [max(text_width(headers[c]) + (3 if c == 0 else 0), *(text_width(r[0][c]) for r in rows))
            for c in range(5)]
    fixed = sum(cols[1:]) + 2 * 4
    cols[0] = max(8, min(cols[0], width - fixed))
    table = sum(cols) + 2 * 4

    def cell(text: str, w: int) -> str:
        return pad(text, w) if text_width(text) <= w else head(text, w - 1) + "…"

    header = cell("   " + headers[0], cols[0]) + "".join(
        "  " + cell(headers[c], cols[c]) for c in range(1, 5))
    notes_head = "  " + _(NOTES)
    pic.add(seg(header + (notes_head if table + text_width(notes_head) + 2 <= width else ""),
                "dim"))
    index = 0
    for s in storages:
        label = s.get("label")
        if label:  # (which op allocated it is not known: a grad_fn changes with in-place ops)
            first = next((t for t in s["tensors"] if not t.get("is_view")), s["tensors"][0])
            size = first.get("element_size") or 1
            nbytes = s.get("nbytes", 0)
            pic.add(seg(label, "op"),
                    seg(f" · {nbytes // size} × {first.get('dtype')} ("
                        + ngettext("{n} byte", "{n} bytes", nbytes).format(n=nbytes) + ")",
                        "dim"))
        else:
            pic.add(seg(_("no storage"), "op"),
                    seg(" " + _("(sparse, meta or other layouts)"), "dim"))
        for i in range(len(s["tensors"])):
            row, notes = rows[index]
            index += 1
            parts = [seg(cell(row[0], cols[0]), "name")]
            for c in range(1, 5):
                parts.append(seg("  " + cell(row[c], cols[c]), "leaf" if c == 1 else ""))
            if notes and table + 2 + text_width(notes) <= width:
                parts.append(seg("  " + notes, "dim"))
                notes = ""
            pic.add(*parts)
            if notes:  # too wide for the row: on the next line, under the name
                more = PIPE if i < len(s["tensors"]) - 1 else BLANK
                for ln in wrap(notes, width - len(more) - 3, style="dim"):
                    pic.add(seg(more, "rule"), seg("   "), *ln)
    if data.get("truncated"):
        pic.extend(wrap("… " + _("(only the first tensors are shown)"), width, style="dim"))
    return pic
