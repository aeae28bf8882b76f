"""perft from every start (ultima.md and deckle.md "Reference counts",
maxima.md's is in test_rules_perft.py). Depth 3 cannot see automatic captures;
depth 4 (slow) can."""
import pytest

from maxima_board.rules import Position, variants

DECKLE_10 = {"coordinator": (34, 1_156, 43_344), "immobilizer": (34, 1_156, 43_344),
             "withdrawer": (34, 1_156, 43_344), "long-leaper": (34, 1_156, 43_362),
             "advancer": (34, 1_156, 43_344), "swapper": (38, 1_444, 59_398),
             "pushme-pullyu": (34, 1_156, 43_344), "mimotaur": (34, 1_156, 43_344)}
DECKLE_8 = {"coordinator": (24, 576, 15_994), "immobilizer": (24, 576, 15_994),
            "withdrawer": (24, 576, 15_994), "long-leaper": (24, 576, 15_998),
            "advancer": (24, 576, 15_994), "swapper": (28, 784, 24_498),
            "pushme-pullyu": (24, 576, 15_994), "mimotaur": (24, 576, 15_994)}
TABLE = {"ultima": (32, 944, 42_762), "ultima-pure": (32, 944, 42_762)}
TABLE.update({f"{game}-chess": counts for game, counts in DECKLE_10.items()})
TABLE.update({f"{game}-chess-10x8": counts for game, counts in DECKLE_8.items()})


def test_every_game_but_maxima_has_a_reference_count():
    """Optima's placement perft is in test_optima_perft.py (O5)."""
    assert sorted(TABLE) == sorted(n for n in variants.names()[1:] if not n.startswith("optima"))


@pytest.mark.parametrize("variant", sorted(TABLE))
def test_U13_D1_perft_from_start_depths_1_to_3(variant):
    p = Position("start", variant)
    assert [p.perft(d) for d in (1, 2, 3)] == list(TABLE[variant])
    assert p.fen() == variants.get(variant).start_fen


@pytest.mark.parametrize("variant", ["ultima", "coordinator-chess-10x8"])
def test_divide_sums_to_perft(variant):
    p = Position("start", variant)
    counts = p.divide(2)
    assert list(counts) == [str(m) for m in p.legal_moves]
    assert sum(counts.values()) == TABLE[variant][1]


def brute_force_perft(p: Position, depth: int) -> int:
    """perft whose legality test generates every reply (no look-back)."""
    rules, b, kings = p._rules, p.board, p.kings

    def walk(c, state, depth):
        moves = rules.pseudo_moves(b, c, kings)
        if state is not None:
            moves += rules.special_moves(b, c, kings, state)
            if state[2] is not None:
                moves = [m for m in moves if not (len(m) > 3 and m[3] == 2 and (m[0], m[1]) == state[2])]
        total = 0
        for m in moves:
            after = rules.next_state(b, m, state)
            undo = rules.make(b, kings, m)
            if not rules.winning_reply_moves(b, -c, kings):
                total += 1 if depth == 1 else walk(-c, after, depth - 1)
            rules.unmake(b, kings, m, undo)
        return total

    return walk(p.turn, p.state, depth)


def test_brute_force_perft_agrees_at_depth_3():
    p = Position("start", "swapper-chess-10x8")
    assert brute_force_perft(p, 3) == TABLE["swapper-chess-10x8"][2]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["coordinator-chess-10x8", "swapper-chess-10x8"])
def test_perft_depth_4_equals_brute_force(variant):
    """Depth 4 sees automatic captures; the rules files give no count there,
    so the engine's perft must equal one that tests legality by generating
    every reply (about a minute each; Ultima's 1.85 million leaves take ten)."""
    p = Position("start", variant)
    assert p.perft(4) == brute_force_perft(p, 4)
