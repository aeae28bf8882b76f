"""``python -m maxima_board``: the ``maxima-board`` command."""
import sys

from maxima_board.cli.main import main

sys.exit(main())
