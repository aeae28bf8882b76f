"""What the board's page and the club's dashboard share: the hardened HTTP
base (aiohttp), the SVG board and its figures, page helpers, common static files."""
