"""Property tests: random hands on the board never crash the controller,
never commit an illegal move, and a player who does what the LEDs and the
OLED say always brings the board back in sync."""
from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from maxima_board.board.hands import hand_lines
from maxima_board.service.script import Runner
from maxima_board.board.settings import Settings
from maxima_board.rules import START_FEN, Position, variants
from maxima_board.devices.interfaces import LED_STATES

SQUARE_RE = re.compile(r"\b([a-j](?:10|[0-9]))\b")


def _random_position(seed: int, plies: int, variant: str = "maxima") -> str:
    rng = random.Random(seed)
    p = Position("start", variant)
    for _ in range(plies):
        moves = p.legal_moves
        if not moves or p.outcome():
            break
        p.push(rng.choice(moves))
    while p.outcome() is not None:
        p.pop()
    return Position(p.fen(), variant).fen()


FENS = [
    START_FEN,
    "xxx2xxx/4k3/p7/8/8/1Pp1pP2/8/8/3P4/4K3/xxx2xxx w 0",
    "xxx2xxx/4k3/p7/8/8/8/8/3p1p2/P7/4K3/xxx2xxx w 0",
    "xxx2xxx/4k3/p7/8/8/8/8/2m5/2N5/4K3/xxx2xxx w 0",
    "xxx2xxx/1g1b1m2/b2p1nM1/2p3kg/1dqp1pd1/N1p5/D6D/3R1PP1/1QP1P1K1/n2BN1G1/xxx2xxx w 90",
] + [_random_position(seed, 40 + 10 * seed) for seed in range(4)]
# Optima through the controller (placement, conversions) is tested in test_optima_board.py.
OTHER_GAMES = [v.name for v in variants.all_variants() if v.name != "maxima" and v.family != "optima"]


@functools.lru_cache(maxsize=None)
def _fens(variant: str) -> list[str]:
    """The start and three positions of random play, for every game but Maxima."""
    start = Position("start", variant).fen()
    return [start] + [_random_position(seed, 20 + 15 * seed, variant) for seed in range(3)]

SETTINGS = Settings(hints=True)

action = st.one_of(
    st.tuples(st.just("lift"), st.integers(0, 200)),
    st.tuples(st.just("place"), st.integers(0, 200)),
    st.tuples(st.just("wait"), st.sampled_from([0, 50, 150, 299, 300, 700, 1500, 3100])),
    st.tuples(st.just("press"), st.sampled_from(["ok", "back", "menu", "new"])),
    st.tuples(st.just("move"), st.integers(0, 500), st.booleans()),
)


def _names(runner: Runner) -> list[str]:
    return runner.controller.position.geometry.names


def _act(runner: Runner, step: tuple) -> list[dict]:
    """Carry out one random step; the controller's events."""
    kind = step[0]
    if kind == "lift" and runner.board:
        return runner.lift(sorted(runner.board)[step[1] % len(runner.board)])
    if kind == "place":
        empty = sorted(set(_names(runner)) - runner.board)
        return runner.place(empty[step[1] % len(empty)])
    if kind == "wait":
        return runner.wait(step[1])
    if kind == "press":
        return runner.press(step[1])
    if kind != "move":
        return []
    # A legal move of the controller's position, made by hand when the
    # board shows that position; captures taken off first or last.
    c = runner.controller
    if c.mode != "play" or set(runner.board) != set(c.expected_squares):
        return []
    moves = c.position.legal_moves
    if not moves:
        return []
    move = moves[step[1] % len(moves)]
    if c.position.variant.name == "maxima":
        names = _names(runner)
        gone = [names[s] for s in move.captures if s != move.to_square]
        events = []
        if move.kind == "replacement":
            events += runner.lift(names[move.to_square])
        if step[2]:
            for sq in gone:
                events += runner.lift(sq)
        events += runner.lift(names[move.from_square])
        if move.to_square is not None:
            events += runner.place(names[move.to_square])
        if not step[2]:
            for sq in gone:
                events += runner.lift(sq)
        return events
    # the other games: castling, swaps, promotion… made as a person would,
    # without the waits and presses (random ones come from other steps)
    events = []
    for line in hand_lines(c.position, move, random.Random(step[1] * 2 + step[2])):
        op, _, square = line.partition(" ")
        if op == "lift":
            events += runner.lift(square)
        elif op == "place":
            events += runner.place(square)
    return events


def _check_outputs(runner: Runner) -> None:
    c = runner.controller
    lines = c.display
    assert len(lines) <= 5 and all(len(line) <= 21 for line in lines), lines
    names = set(_names(runner))
    for sq, state in c.leds.items():   # a square off the game's is lit only to be cleared
        assert (sq in names or (sq in runner.board and state == "error-extra")) and state in LED_STATES


def _replay_events(fen: str, events: list[dict], variant: str = "maxima") -> Position:
    """The engine's position after the events: every move must be legal."""
    position = Position(fen, variant)
    for e in events:
        if e["type"] in ("new_game", "setup"):
            position = Position(e["fen"], e.get("variant", variant))
        elif e["type"] == "move":
            position.push(e["move"])       # raises if illegal
            assert position.fen() == e["fen"]
        elif e["type"] == "takeback":
            assert str(position.pop()) == e["move"]
            assert position.fen() == e["fen"]
    return position


def _follow(runner: Runner, events: list[dict]) -> None:
    """Do what the LEDs and the OLED say until the board is in sync."""
    s = SETTINGS
    c = runner.controller
    for _ in range(120):
        events += runner.wait(s.grace_ms + s.settle_ms)
        _check_outputs(runner)
        if c.mode == "ended":
            return
        text = " ".join(c.display)
        leds = c.leds
        lift = [sq for sq, state in leds.items() if state in ("error-extra", "remove") and sq in runner.board]
        place = [sq for sq, state in leds.items()
                 if state in ("error-missing", "setup-missing") and sq not in runner.board]
        outside = sorted(sq for sq in c.outside if sq in runner.board)
        if text.startswith("Choose a game"):      # the game chooser's page (it names no square): its MENU row
            events += runner.press("menu")        # goes on (or back up a page)
        elif outside:        # pieces outside the chosen game (point 18): the OLED names them, OK waits
            assert "Clear square" in text or "Take off" in text, text
            events += runner.lift(outside[0])
        elif any(w in text for w in ("OK = yes, MENU = next", "OK = yes, BACK = cancel", "OK = yes, BACK = no, MENU",
                                     "OK = other clock",
                                     "OK = other forces", "BACK done")):
            events += runner.press("back")          # leave the menu
        elif any(w in text for w in ("Which move?", "suicide in", "OK or NEW to start", "OK=done",
                                     "Promote to:", "go on castling", "OK = now", "Place: ")):
            events += runner.press("ok")
        elif lift:
            events += runner.lift(lift[0])
        elif place:
            events += runner.place(place[0])
        elif "In hand:" in text:
            squares = [sq for sq in SQUARE_RE.findall(text.split("In hand:")[1]) if sq not in runner.board]
            assert squares, text
            events += runner.place(squares[0])
        elif set(runner.board) == set(c.expected_squares) and c.mode == "play":
            return
        else:
            raise AssertionError(f"no instruction, board out of sync: {c.mode} {text!r} {leds}")
    raise AssertionError("the board never came back in sync")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fen=st.sampled_from(FENS), steps=st.lists(action, max_size=40))
def test_random_hands_never_crash_never_commit_illegal_moves_and_guidance_restores_sync(fen, steps):
    _random_hands("maxima", fen, steps)


@pytest.mark.parametrize("variant", OTHER_GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_hands_in_every_game(variant, data):
    """The same property for every other game (castling, en passant,
    promotion, swaps, mutual destruction): a bounded run; more in the slow test."""
    fen = data.draw(st.sampled_from(_fens(variant)))
    _random_hands(variant, fen, data.draw(st.lists(action, max_size=40)))


@pytest.mark.slow
@pytest.mark.parametrize("variant", OTHER_GAMES)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_hands_in_every_game_long(variant, data):
    fen = data.draw(st.sampled_from(_fens(variant)))
    _random_hands(variant, fen, data.draw(st.lists(action, max_size=60)))


def _random_hands(variant: str, fen: str, steps: list) -> None:
    runner = Runner(SETTINGS, fen=fen, variant=variant)
    events = list(runner.events)
    for step in steps:
        events += _act(runner, step)
        events += runner.wait(0)
        _check_outputs(runner)
    _follow(runner, events)
    position = _replay_events(fen, events, variant)
    c = runner.controller
    assert position.fen() == c.position.fen()
    assert [str(m) for m in position.move_stack] == c.moves
    if c.mode != "ended":
        assert set(runner.board) == set(c.expected_squares)
        assert not {"error-extra", "error-missing", "remove", "setup-missing"} & set(c.leds.values())


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_game_played_by_hand_is_recorded_move_for_move(seed):
    """Random legal moves made by hand (captures before or after, slides
    over the squares on the way) are each committed as exactly that move."""
    rng = random.Random(seed)
    runner = Runner(Settings())
    c = runner.controller
    played = []
    for _ in range(30):
        moves = c.position.legal_moves
        if c.mode != "play" or not moves:
            break
        move = rng.choice(moves)
        names = _names(runner)
        geo = c.position.geometry
        gone = [names[s] for s in move.captures if s != move.to_square]
        before = rng.random() < 0.5
        if move.kind == "replacement":
            runner.lift(names[move.to_square])
        if before:
            for sq in gone:
                runner.lift(sq)
        runner.lift(names[move.from_square])
        if move.to_square is None:
            runner.press("ok")
        else:
            # touch a square on the way, briefly, when one is free
            f0, r0 = geo.file_of[move.from_square], geo.rank_of[move.from_square]
            f1, r1 = geo.file_of[move.to_square], geo.rank_of[move.to_square]
            mid = geo.at((f0 + f1) // 2, (r0 + r1) // 2)
            if mid >= 0 and names[mid] not in runner.board and mid != move.from_square:
                runner.place(names[mid])
                runner.wait(rng.randrange(0, 250))
                runner.lift(names[mid])
            runner.place(names[move.to_square])
            runner.wait(rng.randrange(0, 200))
        if not before:
            for sq in gone:
                runner.lift(sq)
        runner.wait(300)
        played.append(str(move))
        assert c.moves == played, (c.moves, played)
