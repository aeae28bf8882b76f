"""The compiled engine's evaluation terms beyond material (issue 23; engine/search.c,
"evaluation terms"; weights in engine/terms.h): placement, the mobility of the kinds the slider
term skips, King and palace safety, each switched by the EvalTerms mask (1, 2, 4). Each test counts a
term's figures here from the board and checks that the engine's evaluation moves by the weight times
them with the term on, and not at all with it off; the weights are the build's fitted ones (the
``features`` mode prints them; with EvalTerms' 8 also those of families whose check match has not kept
them, engine/kept_terms.h), so a term whose weights or code were lost fails. By default a family
plays only the groups its check kept."""
from __future__ import annotations

import re
import subprocess

import pytest

from maxima_board.rules import variants
from tests.opponent_engine import ENGINE_DIR, engine_binary, run_batch  # noqa: F401 (a fixture)
from tests.opponent_positions import playout_positions
from tests.test_opponent_engine_eval import ALL, ORTHOGONAL, fen_with, reach

PLACE, MOBILITY, SAFETY = 1, 2, 4
UNCHECKED = 8     # EvalTerms: the fitted weights also where no check match has kept them
KEPT_TERMS = ENGINE_DIR / "kept_terms.h"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def weights(binary, variant: str) -> dict[str, int]:
    """The build's weight of each term column (``maxima-engine features``: NAME:WEIGHT:VALUE)."""
    line = run_batch(binary, "features", variant, [start_fen(variant)], eval_terms=PLACE | MOBILITY | SAFETY | UNCHECKED)[0]
    return {name: int(w) for name, w, _ in (item.split(":") for item in line.split())}


def start_fen(variant: str) -> str:
    from maxima_board.rules import Position
    return Position("start", variant).fen()


def term_effect(binary, variant: str, fen: str, mask: int) -> int:
    """How much the terms of ``mask`` move the evaluation of ``fen`` (White's view)."""
    on, off = (int(run_batch(binary, "eval", variant, [fen], eval_terms=m)[0]) for m in (mask | UNCHECKED, 0))
    return on - off


def ring(variant: str, f: int, r: int) -> int:
    """The ring of centrality of (file, rank index): 0 on the edge; Maxima's goal ranks are outside."""
    g = variants.get(variant).geometry
    lo, hi = (1, len(g.ranks) - 2) if variant == "maxima" else (0, len(g.ranks) - 1)
    return max(0, min(f, g.files - 1 - f, r - lo, hi - r))


def empty_targets(at, vectors, occupied, files, ranks) -> int:
    return sum(1 for df, dr in vectors if 0 <= at[0] + df < files and 0 <= at[1] + dr < ranks
               and (at[0] + df, at[1] + dr) not in occupied)


@pytest.mark.parametrize("variant, pieces", [
    ("withdrawer-chess", {(0, 9): "k", (9, 0): "K", (4, 4): "N", (5, 5): "B", (4, 5): "Q", (3, 3): "W",
                          (6, 3): "R", (2, 7): "p"}),
    ("ultima", {(0, 7): "k", (7, 0): "K", (3, 3): "W", (4, 4): "C", (2, 5): "L", (5, 2): "H", (3, 5): "I",
                (4, 2): "p"}),
    ("maxima", {(0, 9): "k", (7, 1): "K", (3, 5): "G", (4, 5): "D", (3, 4): "Q", (4, 4): "R", (2, 5): "N",
                (5, 5): "B", (3, 6): "M", (4, 7): "p"}),
])
def test_placement_adds_each_piece_weight_times_its_ring_of_centrality(engine_binary, variant, pieces):
    w = weights(engine_binary, variant)
    expected = sum((1 if letter.isupper() else -1) * w[f"place.{letter.lower()}"] * ring(variant, f, r)
                   for (f, r), letter in pieces.items())
    fen = fen_with(variant, pieces)
    assert expected != 0, "no placement weight of these pieces: the term is dead"
    assert term_effect(engine_binary, variant, fen, PLACE) == expected


def test_M7_mobility_counts_a_maxima_pawns_orthogonal_reach(engine_binary):
    """Maxima's Pawn (a Rook's move, M7, as Ultima's), left out of the slider mobility, counts here: w x its
    empty squares within three steps of each line. The Kings stand symmetrically (their moves cancel)."""
    w = weights(engine_binary, "maxima")
    pieces = {(0, 9): "k", (7, 1): "K", (3, 5): "P"}
    expected = w["mob.p"] * reach(8, 11, (3, 5), ORTHOGONAL, set(pieces))
    assert expected != 0, "Maxima's Pawn has no mobility weight"
    assert term_effect(engine_binary, "maxima", fen_with("maxima", pieces), MOBILITY) == expected


def test_D3_D7_mobility_counts_a_knights_targets_and_a_pawns_step(engine_binary):
    w = weights(engine_binary, "withdrawer-chess")
    pieces = {(0, 9): "k", (9, 0): "K", (4, 4): "N", (7, 2): "P"}
    knight = empty_targets((4, 4), KNIGHT, set(pieces), 10, 10)
    pawn = empty_targets((7, 2), [(0, 1)], set(pieces), 10, 10)
    expected = w["mob.n"] * knight + w["mob.p"] * pawn
    assert (knight, pawn) == (8, 1) and expected != 0, "no mobility weight for Deckle's Knight or Pawn"
    assert term_effect(engine_binary, "withdrawer-chess", fen_with("withdrawer-chess", pieces), MOBILITY) == expected


def test_M_mobility_counts_a_guards_steps_and_a_mages_diagonal_steps(engine_binary):
    """Maxima's Guard (a King's step) and Mage (its first diagonal step); the Kings stand symmetrically
    (a half turn of the board), so their moves cancel."""
    w = weights(engine_binary, "maxima")
    pieces = {(0, 9): "k", (7, 1): "K", (3, 5): "D", (5, 4): "G"}
    occupied = set(pieces)
    guard = empty_targets((3, 5), ALL, occupied, 8, 11)
    mage = empty_targets((5, 4), DIAGONAL, occupied, 8, 11)
    expected = w["mob.d"] * guard + w["mob.g"] * mage
    assert (guard, mage) == (8, 4) and expected != 0
    assert term_effect(engine_binary, "maxima", fen_with("maxima", pieces), MOBILITY) == expected


def test_D_safety_counts_the_shield_the_near_enemies_and_a_near_immobilizer(engine_binary):
    """Immobilizer Chess: White's King on d4 with its Pawn on d3 next to it (shield), Black's Queen on f6 and
    Immobilizer on b4 two squares away (near2, and the Immobilizer a freezer within two squares); Black's
    King alone."""
    w = weights(engine_binary, "immobilizer-chess")
    pieces = {(3, 3): "K", (3, 2): "P", (5, 5): "q", (1, 3): "i", (9, 9): "k"}
    expected = w["shield"] * 1 + w["near2"] * 2 + w["freezer"] * 1
    assert w["shield"] and w["near2"] and w["freezer"], w
    fen = fen_with("immobilizer-chess", pieces).replace(" KQkq ", " - ")
    assert term_effect(engine_binary, "immobilizer-chess", fen, SAFETY) == expected


@pytest.mark.parametrize("piece, term", [((2, 1, "D"), "goaldef"), ((1, 2, "q"), "goal2")])
def test_M_palace_safety_counts_defenders_and_attackers_of_the_own_goal_squares(engine_binary, piece, term):
    """M: a White Guard on c1, next to White's goal square d0 (goaldef); a Black Withdrawer on b2, two
    squares from it (goal2, counted for White)."""
    w = weights(engine_binary, "maxima")
    f, r, letter = piece
    pieces = {(7, 5): "K", (0, 5): "k", (f, r): letter}
    assert w[term], f"Maxima's {term} has no weight"
    assert term_effect(engine_binary, "maxima", fen_with("maxima", pieces), SAFETY) == w[term]


@pytest.mark.parametrize("variant", ["maxima", "ultima", "withdrawer-chess", "coordinator-chess-10x8"])
def test_the_terms_are_their_weights_times_the_columns_selfplay_prints(engine_binary, variant):
    """opponent/tune.py fits the weights over the ``features`` columns (as selfplay prints them): in
    positions of random games, the evaluation with every term less the one without is exactly the sum
    of weight x column, and not zero everywhere."""
    fens = [fen for fen, _ in playout_positions(variant, 40, 3)]
    every = PLACE | MOBILITY | SAFETY | UNCHECKED
    on = run_batch(engine_binary, "eval", variant, fens, eval_terms=every)
    off = run_batch(engine_binary, "eval", variant, fens, eval_terms=0)
    cols = run_batch(engine_binary, "features", variant, fens, eval_terms=every)
    effects = [int(a) - int(b) for a, b in zip(on, off)]
    sums = [sum(int(wt) * int(x) for _, wt, x in (item.split(":") for item in line.split())) for line in cols]
    assert effects == sums and any(effects)


def test_the_uci_option_evalterms_switches_the_terms(engine_binary):
    """EvalTerms (spin 0-15, default 7): a search with the terms off scores as the build without them;
    15 searches with the fitted terms that Ultima's check has not kept."""
    def score(options: list[str]) -> str:
        proc = subprocess.Popen([str(engine_binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            lines = ["uci", "setoption name UCI_Variant value ultima", *options, "position startpos", "go depth 3"]
            proc.stdin.write("\n".join(lines) + "\n")
            proc.stdin.flush()
            out = []
            while not out or not out[-1].startswith("bestmove"):
                out.append(proc.stdout.readline().strip())
                assert out[-1] or proc.poll() is None, out
            proc.stdin.write("quit\n")
            proc.stdin.flush()
        finally:
            proc.communicate(timeout=30)
        assert "option name EvalTerms type spin default 7 min 0 max 15" in out
        return [line for line in out if line.startswith("info depth 3")][-1].split(" nps ")[0]
    off = score(["setoption name EvalTerms value 0"])
    assert score(["setoption name EvalTerms value 15"]) != off and score(["setoption name EvalTerms value 7"]) == score([])
    cli = subprocess.run([str(engine_binary), "--eval-terms", "0", "search", "ultima", "3"], capture_output=True,
                         text=True, timeout=60).stdout
    assert off in cli   # the same score and nodes as the command line's EvalTerms 0


def test_eval_terms_flag_is_checked(engine_binary):
    r = subprocess.run([str(engine_binary), "--eval-terms", "16", "eval", "ultima"], input="", capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 2 and "--eval-terms" in r.stderr


def kept_masks() -> dict[str, int]:
    """kept_terms.h: each family's groups kept by its check match."""
    return {family: int(mask) for family, mask in re.findall(r'\{"(\w+)", (\d+)\}', KEPT_TERMS.read_text())}


@pytest.mark.parametrize("variant, family", [("maxima", "maxima"), ("ultima-pure", "ultima"),
                                             ("swapper-chess-10x8", "deckle")])
def test_a_family_plays_by_default_only_the_terms_its_check_match_kept(engine_binary, variant, family):
    """The default (EvalTerms 7) evaluates as the kept groups with the fitted weights, and as no terms when
    the check kept none; the fitted weights exist either way (15 differs from 0 somewhere)."""
    kept = kept_masks()[family]
    fens = [fen for fen, _ in playout_positions(variant, 30, 5)]
    default = run_batch(engine_binary, "eval", variant, fens)
    assert default == run_batch(engine_binary, "eval", variant, fens, eval_terms=kept | UNCHECKED)
    assert run_batch(engine_binary, "eval", variant, fens, eval_terms=15) != run_batch(
        engine_binary, "eval", variant, fens, eval_terms=0)
