"""Wide characters (Hangul, CJK) in a layer drawn over other widgets: kept whole.

Textual's compositor paints each screen line front to back in *chops*: the line is cut
at the edge of every widget region on it, and each chop goes to the front-most widget
that covers it.  A widget drawn over others (a toast, the command palette's list, a
tooltip) has its line divided at the edges of the widgets beneath it as well, and a
double-width character that straddles such an edge is replaced by two spaces: a
Korean toast over the catalog read `레   파일 1개를 불러올 수 없습니다` for `레슨 파일
1개를 불러올 수 없습니다` (Textual issue #6357, open for 8.2.8; issue 25's K4 walk).

`keep_wide_characters()` replaces `Compositor._render_chops` with the same algorithm,
except that a widget's line is divided only where the owner of the chops changes:
consecutive chops that this widget wins (none in front of it claimed them) are one
piece, put in the first of them; the others get an empty strip, so that no widget
behind claims them, and `Strip.join` of the line, or a partial update that moves to
each chop and writes it, gives the same cells.  Applied once, by the app; only to the
Textual versions it was checked against (`CHECKED`): another version is left as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from textual._compositor import Compositor
    from textual.geometry import Region
    from textual.strip import Strip

CHECKED = ("8.",)  # Textual versions whose `_render_chops` this replaces, checked
_applied = False


def keep_wide_characters() -> bool:
    """Replace Textual's chop rendering (once); False where the version is not one this
    was checked against (the original stays)."""
    global _applied
    import textual
    from textual._compositor import Compositor as Target

    if _applied:
        return True
    if not textual.__version__.startswith(CHECKED):
        return False
    Target._render_chops = _render_chops  # type: ignore[method-assign]
    _applied = True
    return True


def _render_chops(self: Compositor, crop: Region,
                  is_rendered_line: Callable[[int], bool]) -> Sequence[Mapping[int, Strip]]:
    """Textual 8's `Compositor._render_chops`, dividing a widget's strip only between
    runs of chops it wins (see the module's docstring)."""
    from textual.geometry import Region
    from textual.strip import Strip

    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    empty = Strip([])
    renders = self._get_renders(crop)
    for region, clip, strips in renders:
        render_region = Region.intersection(region, clip)
        render_x = render_region.x
        first_cut, last_cut = render_region.column_span
        for y, strip in zip(render_region.line_range, strips, strict=False):
            if not is_rendered_line(y):
                continue
            line = chops[y]
            final_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
            if len(final_cuts) < 2:
                continue  # (no chop of this widget on the line: the original draws none)
            # the chops this widget starts (the last cut ends it), and which are still free
            free = [line.get(cut) is None for cut in final_cuts[:-1]]
            # one piece per run of free chops, and one per chop a widget in front won
            bounds = [0, *(i for i in range(1, len(free)) if not (free[i] and free[i - 1])),
                      len(free)]
            pieces: Iterable[Strip] = strip.divide(
                [final_cuts[b] - render_x for b in bounds[1:]])
            for start, end, piece in zip(bounds, bounds[1:], pieces, strict=False):
                if free[start]:
                    line[final_cuts[start]] = piece
                    for i in range(start + 1, end):  # the rest of the run: kept from
                        line[final_cuts[i]] = empty  # the widgets behind
    return cast(Sequence[Mapping[int, Strip]], chops)
