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
            # (the last cut is the end of the render: it starts no chop of its own)
            free = [line.get(cut) is None for cut in final_cuts[:-1]]
            divide_at = [cut for i, cut in enumerate(final_cuts[1:-1], 1)
                         if free[i] != free[i - 1] or not free[i]]
            ends = [*divide_at, final_cuts[-1]]
            pieces: Iterable[Strip] = strip.divide([end - render_x for end in ends])
            starts = [final_cuts[0], *divide_at]
            for start, end, piece in zip(starts, ends, pieces, strict=False):
                if line.get(start) is not None:
                    continue  # (won by a widget in front)
                line[start] = piece
                for cut in final_cuts:  # the rest of the run: kept from widgets behind
                    if start < cut < end and cut in line:
                        line[cut] = empty
    return cast(Sequence[Mapping[int, Strip]], chops)
