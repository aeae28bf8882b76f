"""The board's loop and the layers that wrap its core (their interface:
``stack``): the runner, the waker, the guard, the board view, the computer
opponent on the board and its engine questions, the feed to the web page and
the broadcast, scripts (replay)."""
