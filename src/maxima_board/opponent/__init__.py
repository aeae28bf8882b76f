"""The computer opponent's Python side: baseline players speaking UCI, the
UCI client and its supervisor, engine specs, matches with Elo, and the layer
that puts an engine on the board (``maxima_board.service.opponent_layer``).

The compiled search engine itself lives in ``engine/`` (built by the
package's install into ``opponent/bin/``, see setup.py, or in a checkout by
``make -C engine``); everything here talks to it, or to any other
UCI engine, over pipes.
"""
