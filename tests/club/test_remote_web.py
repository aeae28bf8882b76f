"""A remote game with another board begun from the board's page (issue 33,
"starting one … from its web page"): PIN-guarded, the game's name never in
the reply nor anywhere the page serves, and two boards that begin and join
through their pages play through a real Mosquitto."""
from __future__ import annotations

import re

from maxima_board.cli.remote import RemoteGame, remote_wrap

from .test_phone_web import PhoneBoard, call, request


def test_without_a_broker_the_page_says_so_in_one_line(tmp_path):
    board = PhoneBoard(tmp_path)
    try:
        status, reply = call(board.url + "/api/remote", {"pin": board.pin, "side": "white"})
        assert status == 400 and reply["error"].startswith("this board has no broker for remote games")
    finally:
        board.close()


def test_two_boards_begin_and_join_a_game_from_their_pages(tmp_path, broker):
    remotes = []

    def board_at(folder: str) -> PhoneBoard:
        (tmp_path / folder).mkdir()
        remote = RemoteGame(broker.address, None, str(tmp_path / folder / "games.db"), lambda text: None)
        remotes.append(remote)
        return PhoneBoard(tmp_path / folder, "maxima", wrap=remote_wrap(remote))

    white, black = board_at("white"), board_at("black")
    try:
        status, reply = call(white.url + "/api/remote", {"side": "white"})
        assert status == 400 and "PIN" in reply["error"]
        status, reply = call(white.url + "/api/remote", {"pin": white.pin, "side": "white", "name": "no"})
        assert status == 400 and reply["error"].startswith("name:")
        status, reply = call(white.url + "/api/remote", {"pin": white.pin, "side": "white"})
        assert status == 200 and reply["ok"], reply
        white.printed("Remote game: ", "the new game's name on White's display")
        name = re.search(r"Remote game: ([a-z0-9]{4}(?:-[a-z0-9]{4}){3})", white.out.text().replace(" | ", " ")).group(1)
        assert name not in reply["message"]
        for path in ("/", "/api/state", "/board.svg", "/api/games"):
            assert name.encode() not in request(white.url + path)[1], path
        status, reply = call(white.url + "/api/remote", {"pin": white.pin, "side": "white"})
        assert status == 400 and reply["error"] == "the board is playing a remote game already"
        status, reply = call(black.url + "/api/remote", {"pin": black.pin, "side": "black", "name": name})
        assert status == 200 and reply["message"] == "Joined the remote game: this board plays Black.", reply
        black.printed("remote game ", "Black's remote game")
        white.play("lift d3", "place d5", "wait 500")
        black.printed("remote d3-d5", "White's move on Black's board")
    finally:
        white.close()
        black.close()
        for remote in remotes:
            remote.close()
