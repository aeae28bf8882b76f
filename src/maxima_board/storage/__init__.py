"""The games database: SQLite, what a path holds, the board lock, faults in words."""
