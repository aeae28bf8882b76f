"""The board's web page: the live board, its games, and a form to start a new one."""
