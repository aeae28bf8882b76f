"""The ``maxima-board`` command: its subcommands, the config file, the
assembly of the hardware and the club services, the simulated board's
terminal session."""
