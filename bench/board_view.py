"""Cost of the board translation layer (controller/board_view.py) per runner pass.

    python bench/board_view.py [--passes N]

For each board and game: one frame translated (board squares → game squares
+ outside) and the LED plan translated back (game squares → board squares,
extra pieces added), as the runner does on every 10 ms pass. Prints µs per
frame and per LED/display pass; the target is a small share of the 10 ms
loop (< 100 µs).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from maxima_board.service.board_view import BoardView  # noqa: E402
from maxima_board.rules import Position  # noqa: E402
from maxima_board.devices.boards import place  # noqa: E402


class StartPlan:
    """A controller stand-in with a full LED plan: every occupied square of
    the start position lit (more LEDs than any real plan)."""

    def __init__(self, variant: str) -> None:
        self.position = Position("start", variant)
        names = self.position.geometry.names
        occ = self.position.occupancy()
        self.squares = frozenset(names[i] for i in range(len(names)) if occ >> i & 1)
        self.leds = {sq: "setup-missing" for sq in self.squares}
        self.display = [self.position.variant.title, "", "", ""]

    def on_frame(self, now_ms, squares, outside=frozenset()):
        return []


def best_us(passes: int, func) -> float:
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(passes):
            func()
        best = min(best, (time.perf_counter() - t) / passes)
    return best * 1e6


def main() -> int:
    passes = int(sys.argv[sys.argv.index("--passes") + 1]) if "--passes" in sys.argv else 2000
    worst = 0.0
    for game, board in (("maxima", "maxima"), ("ultima", "maxima"), ("ultima", "10x10"),
                        ("swapper-chess-10x8", "10x10"), ("swapper-chess", "10x10")):
        ctl = StartPlan(game)
        view = BoardView(ctl, board)
        p = place(game, board)
        frame = frozenset(p.board_of[s] for s in ctl.squares) | set(sorted(p.outside)[:2])
        f_us = best_us(passes, lambda: view.on_frame(0, frame))
        l_us = best_us(passes, lambda: (view.leds, view.display))
        worst = max(worst, f_us + l_us)
        print(f"{game:>20} on {board:>6}: frame {f_us:6.1f} us, LEDs+display {l_us:6.1f} us per pass "
              f"({len(ctl.leds)} LEDs lit, {len(p.outside)} squares outside the game)")
    print(f"worst pass {worst:.1f} us (target < 100 us of the 10 ms loop): {'OK' if worst < 100 else 'MISSED'}")
    return 0 if worst < 100 else 1


if __name__ == "__main__":
    sys.exit(main())
