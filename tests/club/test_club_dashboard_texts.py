"""The dashboard's words and small boards (issue 32, finding 5): its heading
read "Club club", "Round records: (no round)" said nothing, an empty
dashboard said only "0 tables", clocks wrapped on some cards and not
others, and the small boards had no coordinates."""
from __future__ import annotations

import re

from maxima_board.club.page import dashboard_page


def heading(html: str) -> str:
    return re.search(r'<h1 id="club"[^>]*>([^<]*)</h1>', html).group(1)


def test_the_heading_names_the_club_once():
    assert heading(dashboard_page("club", [])) == "Club dashboard"                 # the default name
    assert heading(dashboard_page("Hastings", [])) == "Hastings · club dashboard"
    assert "<title>Hastings · club dashboard · maxima-board</title>" in dashboard_page("Hastings", [])
    assert heading(dashboard_page("<b>&", [])) == "&lt;b&gt;&amp; · club dashboard"  # escaped


def test_an_empty_dashboard_says_how_a_board_joins():
    html = dashboard_page("Hastings", [])
    assert '<p id="status" class="muted">no table seen yet</p>' in html
    empty = re.search(r'<div id="empty" class="empty">(.*?)</div>', html, re.S).group(1)
    assert "No board has reported" in empty
    assert "maxima-board serve --broadcast HOST:PORT --club Hastings --table N" in empty
    assert 'club = &quot;Hastings&quot;' in empty


def test_the_round_links_say_what_they_hold():
    html = dashboard_page("club", [], rounds=["3", "-"])
    links = re.findall(r'<a href="/round/([^"]*)">([^<]*)</a>', html)
    assert links == [("3.pgn", "round 3"), ("-.pgn", "games without a round")]
    assert "(no round)" not in html and "Game records (PGN) by round:" in html
