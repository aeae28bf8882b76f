"""How long the OLED's passing notes stay, shared by the session and the modes."""

NOTE_MS = 4000          # how long a passing note ("Taken back.") stays on the OLED
STORE_NOTE_MS = 30000   # how long a note about the database stays
