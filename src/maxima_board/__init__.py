"""maxima-board: an electronic board for the Ultima family of chess variants.

One package in layers, from the bottom up (docs/architecture.md draws them;
an import-linter contract in the tests enforces them):

- :mod:`maxima_board.rules`: the games' rules, pure Python, no I/O;
- :mod:`maxima_board.devices`, :mod:`maxima_board.storage`,
  :mod:`maxima_board.opponent`: the board's parts (drivers, the simulated
  board), the games database, the compiled engine and its supervisor;
- :mod:`maxima_board.board`: the board's pure core (sensor frames to moves,
  modes, screens, clock);
- :mod:`maxima_board.service`: the board's loop and what wraps the core;
- :mod:`maxima_board.webbase`: the hardened HTTP base and the SVG board;
- :mod:`maxima_board.web` and :mod:`maxima_board.club`: the board's page, and
  the club's broadcast and dashboard;
- :mod:`maxima_board.cli`: the ``maxima-board`` command, config and assembly.
"""
