"""The controller's modes, one class each: a reader finds a behaviour by
the mode it belongs to.

- ``SetupMode`` (setup.py): the pieces of a new game are being set up;
- ``PlayMode`` (play.py): the players move; moves commit when they settle;
- ``PlacementMode`` (placement.py): Optima's placement phase, play whose
  moves set units from the hand on the first rank;
- ``SyncMode`` (sync.py): the board is guided back to the position, after
  a take-back or when a stored game resumes;
- ``EndedMode`` (ended.py): the game is over, the result shown.

The shared game state (position, move table, board frame, lifts, clock,
store) lives in the game session; a mode sees it as
``maxima_board.board.ports.Session``, reads it and asks it for transitions
(commit, end, take back, start a game), never setting its fields.
The MENU (menu.py) lies over play, sync and ended.
"""
from .base import Mode
from .ended import EndedMode
from .menu import Menu, MenuItem
from .placement import PlacementMode
from .play import PlayMode
from .setup import Setup, SetupMode
from .sync import Sync, SyncMode

__all__ = ["EndedMode", "Menu", "MenuItem", "Mode", "PlacementMode", "PlayMode", "Setup", "SetupMode", "Sync", "SyncMode"]
