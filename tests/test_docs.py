"""The docs stay in step with the rules, the tests and themselves.

- docs/rules/ has a heading for every rule (M1-M15, U1-U15, D1-D18, O1-O16);
- every rule a test names (in its name or a docstring) exists there, and
  every rule of a playable game is named by some test;
- when the project's rule texts (../shared/rules, beside the clone in CI)
  are present, every rule heading and every reference FEN of them is in
  docs/rules;
- every SVG drawing under docs/ is well-formed with an <svg> root and a
  viewBox; every relative link in README.md and docs/**/*.md reaches a file
  (and a heading, when the link names one).
"""
from __future__ import annotations

import ast
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
SHARED_RULES = ROOT.parent / "shared" / "rules"
TESTS = ROOT / "tests"

GAMES = {"M": ("maxima.md", 15), "U": ("ultima.md", 15), "D": ("deckle.md", 18), "O": ("optima.md", 16)}
HEADING = re.compile(r"^#{1,6}\s+([MUDO])(\d{1,2})\b(.*)$", re.M)
# A rule named in prose: upper case, e.g. "M4", "D14"; a range "M1-M13" / "M1–M13" names each.
PROSE_ID = re.compile(r"\b([MUDO])(\d{1,2})(?:\s*[-–]\s*\1?(\d{1,2}))?\b")
# A rule in a test name: a whole _-separated token, "M4"/"m4", "U8"/"u8", "O12"/"o12";
# lower-case d is a file letter too (test_king_d4), so only d11-d18 count in lower case.
NAME_TOKEN = re.compile(r"^([MUDOmuo])(\d{1,2})$|^d(1[1-9])$")


def _rule_headings(path: Path) -> dict[str, str]:
    """{"M4": "M4 Pawn (pincer)", ...}: the rule headings of one rules file."""
    return {f"{m[1]}{int(m[2])}": f"{m[1]}{int(m[2])}{m[3]}".strip() for m in HEADING.finditer(path.read_text("utf-8"))}


def _prose_ids(text: str) -> set[str]:
    ids = set()
    for letter, first, last in PROSE_ID.findall(text):
        low = int(first)
        high = int(last) if last else low
        ids.update(f"{letter}{n}" for n in range(low, max(low, high) + 1))
    return ids


def _name_ids(name: str) -> set[str]:
    ids = set()
    for token in name.split("_"):
        m = NAME_TOKEN.match(token)
        if m:
            ids.add(f"{m[1].upper()}{int(m[2])}" if m[1] else f"D{int(m[3])}")
    return ids


def test_ids_are_read_from_names_and_prose():
    """The readers of rule ids below can tell a rule from a square."""
    assert _name_ids("test_m4_pincer_takes_two") == {"M4"}
    assert _name_ids("test_U8_chameleon_d4_and_d14") == {"U8", "D14"}
    assert _name_ids("test_king_d4_and_d0") == set()
    assert _prose_ids("M1 board, M11 palaces; rules M1-M3 and D12–14; Qd1-d4, R1, 1D6") == {
        "M1", "M2", "M3", "M11", "D12", "D13", "D14"}


def test_ids_named_by_tests_are_collected():
    """The collector sees test names and docstrings of this very suite."""
    named = _ids_named_by_tests()
    assert {"M4", "M14", "M15"} <= set(named)


def _ids_named_by_tests() -> dict[str, set[str]]:
    """{rule id: {test files naming it}}: from names of test functions and
    classes, and from module, class and function docstrings under tests/.
    This file is left out: it names every rule on purpose."""
    named: dict[str, set[str]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        if path.name == Path(__file__).name or ".venv" in path.parts or "node_modules" in path.parts:
            continue
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        ids = _prose_ids(ast.get_docstring(tree) or "")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name.lower().startswith("test"):
                    ids |= _name_ids(node.name)
                ids |= _prose_ids(ast.get_docstring(node) or "")
        for rule in ids:
            named.setdefault(rule, set()).add(path.name)
    return named


@pytest.mark.parametrize("letter", GAMES)
def test_every_rule_has_a_heading_in_docs_rules(letter: str):
    name, count = GAMES[letter]
    headings = _rule_headings(RULES / name)
    assert sorted(headings, key=lambda r: int(r[1:])) == [f"{letter}{n}" for n in range(1, count + 1)]


def test_every_rule_a_test_names_exists_in_docs_rules():
    documented = set()
    for name, _ in GAMES.values():
        documented |= set(_rule_headings(RULES / name))
    unknown = {rule: sorted(files) for rule, files in _ids_named_by_tests().items() if rule not in documented}
    assert not unknown, f"tests name rules that docs/rules does not have: {unknown}"


@pytest.mark.parametrize("letter", ["M", "U", "D", "O"])
def test_every_rule_of_a_playable_game_is_named_by_a_test(letter: str):
    """Maxima's rules are all tested; Ultima's, Deckle's and Optima's once
    their tests exist (then every rule must be named: O1-O16 since issue 10)."""
    named = _ids_named_by_tests()
    count = GAMES[letter][1]
    if letter != "M" and not any(rule.startswith(letter) for rule in named):
        pytest.skip(f"no test names a {letter} rule yet: the {GAMES[letter][0][:-3]} tests are not written")
    missing = [f"{letter}{n}" for n in range(1, count + 1) if f"{letter}{n}" not in named]
    assert not missing, f"rules no test names: {missing}"


# ------------------------------------------------------- the project's rule texts

needs_shared = pytest.mark.skipif(not SHARED_RULES.is_dir(),
                                  reason=f"{SHARED_RULES} is not here (CI checks it out beside the clone)")
FEN_SPAN = re.compile(r"`([^`\n]*/[^`\n]* [wb](?: [^`\n]*)?)`")


def _reference_fens(text: str) -> set[str]:
    """Every back-quoted FEN: a span with '/' rows and a side to move."""
    return {span for span in FEN_SPAN.findall(text) if re.match(r"^[0-9A-Za-z*/]+ [wb]\b", span)}


def test_reference_fens_are_found():
    text = "Start `xxx2xxx/1g1qk1g1/8 w 0`, move `b4-c5xc5`, R1 `7k/P7 w 0`, `a/b` x"
    assert _reference_fens(text) == {"xxx2xxx/1g1qk1g1/8 w 0", "7k/P7 w 0"}


@needs_shared
@pytest.mark.parametrize("name", [name for name, _ in GAMES.values()])
def test_docs_rules_carry_every_rule_heading_of_the_rule_text(name: str):
    source = _rule_headings(SHARED_RULES / name)
    ours = _rule_headings(RULES / name)
    assert source, f"no rule headings found in {SHARED_RULES / name}"
    assert {r: ours.get(r) for r in source} == source


@needs_shared
@pytest.mark.parametrize("name", [name for name, _ in GAMES.values()])
def test_docs_rules_carry_every_reference_fen_of_the_rule_text(name: str):
    fens = _reference_fens((SHARED_RULES / name).read_text("utf-8"))
    assert fens, f"expected reference FENs in {SHARED_RULES / name}"
    ours = (RULES / name).read_text("utf-8")
    missing = sorted(fen for fen in fens if fen not in ours)
    assert not missing, f"docs/rules/{name} lacks: {missing}"


@needs_shared
@pytest.mark.parametrize("name", [name for name, _ in GAMES.values()])
def test_docs_rules_carry_the_reference_counts_of_the_rule_text(name: str):
    """The perft figures of "Reference counts" (e.g. 78,930) appear in our copy."""
    text = (SHARED_RULES / name).read_text("utf-8")
    section = text.split("## Reference counts", 1)[1].split("\n## ", 1)[0]
    numbers = set(re.findall(r"\b\d{1,3}(?:,\d{3})+\b|\b\d{2,}\b", section))
    assert numbers, f"no reference counts in {SHARED_RULES / name}"
    ours = (RULES / name).read_text("utf-8").split("## Reference counts", 1)[1]
    assert sorted(n for n in numbers if not re.search(rf"(?<![\d,]){n}(?!,?\d)", ours)) == []


# Reference FENs of docs/rules that are not positions on purpose: Deckle's
# start template (x = the game's own piece, D2) and R3 of optima.md as printed
# (eleven White pawns on rank 3; our copy adds the position meant as an erratum).
NOT_POSITIONS = {
    "rnxbqkbxnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNXBQKBXNR w KQkq - 0 1",
    "rnxbqkbxnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNXBQKBXNR w KQkq - 0 1",
    "4ke*vr*4/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPNPN/"
    "GDGDGDGDGDGDGDGDGDGD/4VR*5 w u2:AGAMARBACECHDAFAGEHEJUKE*MAQURESPTO - 3",
}


def _family(name: str) -> list[str]:
    from maxima_board.rules import variants
    games = {"maxima.md": ["maxima"], "ultima.md": ["ultima", "ultima-pure"],
             "optima.md": ["optima", "optima-9x9"]}
    return games.get(name) or [v for v in variants.names() if v.endswith("chess") or "chess-" in v]


def _reads_in_one_of(fen: str, games: list[str]) -> bool:
    from maxima_board.rules import Position
    for game in games:
        try:
            Position(fen, game)
            return True
        except ValueError:
            pass
    return False


@pytest.mark.parametrize("name", [name for name, _ in GAMES.values()])
def test_docs_rules_reference_fens_are_positions_of_their_games(name: str):
    """M14, U13, D3, O15/O16: every reference FEN our rule copies print reads in one of the file's games,
    but for the known non-positions, which must still fail (an upstream fix shows up here)."""
    fens = _reference_fens((RULES / name).read_text("utf-8"))
    games = _family(name)
    unreadable = {fen for fen in fens if not _reads_in_one_of(fen, games)}
    assert unreadable == NOT_POSITIONS & fens


# ------------------------------------------------------------------ drawings

SVGS = sorted((ROOT / "docs").rglob("*.svg"))


def test_docs_have_drawings():
    names = {p.name for p in SVGS}
    for expected in ("matrix-maxima.svg", "matrix-10x10.svg", "pico-pins.svg", "pi-header.svg",
                     "topology-a.svg", "topology-b.svg", "ws2812-power.svg", "max7219.svg", "buzzer.svg",
                     "square-section.svg"):
        assert expected in names


@pytest.mark.parametrize("path", SVGS, ids=[p.name for p in SVGS])
def test_svg_is_well_formed_with_a_viewbox(path: Path):
    root = ET.parse(path).getroot()
    assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg")
    box = root.get("viewBox", "").replace(",", " ").split()
    assert len(box) == 4 and float(box[2]) > 0 and float(box[3]) > 0, root.get("viewBox")


def test_drawings_are_generated_by_the_committed_script(tmp_path: Path):
    """docs/drawings/make_drawings.py writes exactly the committed SVGs."""
    import runpy
    script = ROOT / "docs" / "drawings" / "make_drawings.py"
    runpy.run_path(str(script), run_name="drawings")["write_all"](tmp_path)
    made = {p.name: p.read_text("utf-8") for p in tmp_path.glob("*.svg")}
    committed = {p.name: p.read_text("utf-8") for p in (ROOT / "docs" / "drawings").glob("*.svg")}
    assert made == committed, "run: python docs/drawings/make_drawings.py"


# --------------------------------------------------------------------- links

MARKDOWN = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.S)
    return {_slug(m[1]) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, re.M)}


def test_slug_matches_github():
    assert _slug("Which pieces stand for which type") == "which-pieces-stand-for-which-type"
    assert _slug("The 10x10 board") == "the-10x10-board"
    assert _slug("M4 Pawn (pincer)") == "m4-pawn-pincer"


@pytest.mark.parametrize("path", MARKDOWN, ids=[str(p.relative_to(ROOT)) for p in MARKDOWN])
def test_relative_links_reach_a_file(path: Path):
    broken = []
    text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.S)
    for match in LINK.finditer(text):
        target = match[1] or match[2]
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):        # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(target)
    assert not broken, f"{path.relative_to(ROOT)}: broken links {broken}"


def test_docs_do_not_point_to_the_shared_folder():
    """shared/ is not in the repository: the docs link their own copies."""
    offenders = [str(p.relative_to(ROOT)) for p in MARKDOWN if "shared/" in p.read_text("utf-8")]
    assert not offenders


# A document named in prose, in back quotes or as a link: "controller.md",
# `bench/results-strength-*.md`, [O2](rules/optima.md#o2-...); web addresses are not citations.
CITED_MD = re.compile(r"(?<![\w/.*-])((?:\.\./)*[\w*][\w./*-]*\.md)(?![\w-])")
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")
LINK_TEXT = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")     # a link cites its target, whatever its words


def _missing_cited_md(path: Path, text: str) -> list[str]:
    """The .md files ``text`` (the contents of ``path``) names that the
    repository does not hold: a name counts when it is a file (or a glob that
    matches one) under the citing file's folder or the repository's root."""
    missing = []
    for cited in CITED_MD.findall(LINK_TEXT.sub(r" \1 ", URL.sub("", text))):
        found = False
        for base in (path.parent, ROOT):
            hits = list(base.glob(cited)) if "*" in cited else [base / cited]
            found |= any(hit.is_file() and hit.resolve().is_relative_to(ROOT) for hit in hits)
        if not found:
            missing.append(cited)
    return missing


def test_missing_cited_md_finds_the_names_the_repository_lacks():
    path = ROOT / "docs" / "example.md"
    text = ("As controller.md says, [board.md](design/board.md#the-1010-board-deckles-games-optima-ultima) "
            "and `bench/results-strength-*.md`; see ../shared/rules/maxima.md, optima.md O4, "
            "[a](rules/optima.md), `docs/clock.md`, https://example.org/notes.md and board-notes.md.")
    assert _missing_cited_md(path, text) == ["controller.md", "../shared/rules/maxima.md", "optima.md",
                                             "board-notes.md"]


@pytest.mark.parametrize("path", MARKDOWN, ids=[str(p.relative_to(ROOT)) for p in MARKDOWN])
def test_every_cited_md_file_is_in_the_repository(path: Path):
    """A document the docs cite is one a reader of the repository can open."""
    assert _missing_cited_md(path, path.read_text("utf-8")) == []


SHARED = ROOT.parent / "shared"


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} is not here (CI checks it out beside the clone)")
@pytest.mark.parametrize("ours, source", [("design/controller.md", "design/controller.md"),
                                          ("design/board.md", "hardware/board.md")])
def test_docs_design_carry_every_section_of_the_design_notes(ours: str, source: str):
    """docs/design/ is our copy of the project's design notes: every heading and every paragraph's first line."""
    theirs = (SHARED / source).read_text("utf-8")
    copy = (ROOT / "docs" / ours).read_text("utf-8")
    lines = [line for line in theirs.splitlines() if line.startswith("#") or line.startswith("- ")]
    assert lines and [line for line in lines if line not in copy] == []


# ------------------------------------------------- drawings agree with the code

def _drawing_tables():
    import runpy
    return runpy.run_path(str(ROOT / "docs" / "drawings" / "make_drawings.py"), run_name="drawings")


def test_drawn_direct_pins_are_the_code_defaults():
    from maxima_board.cli import config
    t = _drawing_tables()
    assert tuple(t["DIRECT"]["rows"]) == config.DEFAULT_ROWS
    assert tuple(t["DIRECT"]["columns"]) == config.DEFAULT_COLUMNS
    assert (t["DIRECT"]["sda"], t["DIRECT"]["scl"]) == config.I2C1_PINS
    assert {t["DIRECT"][k] for k in ("mosi", "sclk", "ce0")} <= set(config.SPI0_PINS)
    assert t["DIRECT"]["buzzer"] == config.BuzzerConfig().pin
    example = (ROOT / "systemd" / "config.example.toml").read_text("utf-8")
    import tomllib
    parsed = tomllib.loads(example)
    assert parsed["matrix"]["rows"] == t["DIRECT"]["rows"] and parsed["matrix"]["columns"] == t["DIRECT"]["columns"]
    assert parsed["buzzer"]["pin"] == t["DIRECT"]["buzzer"]
    assert [row.split() for row in parsed["matrix"]["layout"]] == [
        [name.lower() for name in row] for row in t["MAXIMA_LAYOUT"]]


def test_drawn_pico_pins_are_the_firmware_defaults():
    import json
    t = _drawing_tables()
    firmware = json.loads((ROOT / "firmware" / "config.json").read_text("utf-8"))
    assert firmware["rows"] == t["PICO_MAXIMA"]["rows"] and firmware["cols"] == t["PICO_MAXIMA"]["cols"]
    assert firmware["led_pin"] == t["PICO_MAXIMA"]["led_pin"] == t["PICO_10X10"]["led_pin"]
    # MENU holds the firmware in maintenance mode: its position is drawn at R9 C6.
    assert t["MAXIMA_LAYOUT"][firmware["maintenance_position"] // 8][firmware["maintenance_position"] % 8] == "MENU"
    # The 10x10 board of board.md: rows GP0-GP10, columns GP11-GP20, LED data GP22, no pin twice.
    ten = t["PICO_10X10"]
    assert ten["rows"] == list(range(11)) and ten["cols"] == list(range(11, 21))
    assert len(set(ten["rows"]) | set(ten["cols"]) | {ten["led_pin"]}) == 22


def test_drawn_pi_header_matches_gpiozero_board_data():
    """gpiozero's own header table (a Pi 4B) gives the same BCM -> physical pin map."""
    from gpiozero.pins.mock import MockFactory
    header = MockFactory(revision="c03114").board_info.headers["J8"].pins
    t = _drawing_tables()
    for number, info in header.items():
        name = t["PI_HEADER"][number]
        if info.name.startswith("GPIO"):
            assert name == f"BCM {info.name[4:]}", number
        else:
            assert name == info.name, number


def test_pico_pinout_is_the_rp2040_pico_pinout():
    """Physical pins of the Pico: GND every fifth pin from 3, GP0-GP22 in order on
    the free pins up to 29, then RUN, GP26-GP28 and the power pins."""
    pins = _drawing_tables()["PICO_PINS"]
    assert [p for p, n in pins.items() if n == "GND"] == [3, 8, 13, 18, 23, 28, 33, 38]
    gp = [p for p, n in pins.items() if n.startswith("GP")]
    assert [pins[p] for p in gp] == [f"GP{i}" for i in [*range(23), 26, 27, 28]]
    assert [p for p in range(1, 30) if p not in gp and pins[p] != "GND"] == []
    assert (pins[30], pins[36], pins[39], pins[40]) == ("RUN", "3V3(OUT)", "VSYS", "VBUS")


def test_pin_tables_in_hardware_md_match_the_drawings():
    """Every "| signal | GP/BCM | pin |" cell pair of docs/hardware.md's
    wiring tables names the physical pin of that GPIO."""
    t = _drawing_tables()
    text = (ROOT / "docs" / "hardware.md").read_text("utf-8")
    pico = text.split("## Wiring: Pico topology", 1)[1].split("\n## ", 1)[0]
    direct = text.split("## Wiring: direct topology", 1)[1].split("\n### ", 1)[0]
    checked = 0
    pico_lines = {"row": t["PICO_MAXIMA"]["rows"], "column": t["PICO_MAXIMA"]["cols"]}
    direct_lines = {"row": t["DIRECT"]["rows"], "column": t["DIRECT"]["columns"]}
    for section, pin_of, lines in ((pico, t["PICO_GP_TO_PIN"], pico_lines), (direct, t["BCM_TO_PIN"], direct_lines)):
        for signal, gpio, pin in re.findall(r"\|\s*((?:row|column) [RC]\d+|WS2812 data|OLED S[DC][AL]|buzzer[^|]*|"
                                            r"MAX7219 (?:DIN|CLK|LOAD))\s*\|\s*(\d+)(?: \(\w+\))?\s*\|\s*(\d+)\s*\|",
                                            section):
            assert pin_of[int(gpio)] == int(pin), (signal, gpio, pin)
            kind, _, line = signal.partition(" ")
            if kind in lines:
                assert lines[kind][int(line[1:])] == int(gpio), signal
            checked += 1
    assert checked == 19 + 18 + 6


def test_led_meanings_table_matches_the_code():
    """docs/hardware.md's LED table: colour and pattern of every state as
    hardware/protocol.py sends them to the Pico, and the single-colour
    pattern as systemd/config.example.toml sets it."""
    import tomllib
    from maxima_board.devices import mbproto, protocol
    from maxima_board.devices.interfaces import LED_STATES
    patterns = {mbproto.STEADY: "steady", mbproto.SLOW_BLINK: "slow blink", mbproto.FAST_BLINK: "fast blink",
                mbproto.PULSE: "pulse"}
    single = {"steady": "steady", "slow": "slow blink", "fast": "fast blink", "off": "off"}
    example = tomllib.loads((ROOT / "systemd" / "config.example.toml").read_text("utf-8"))["leds"]["patterns"]
    text = (ROOT / "docs" / "hardware.md").read_text("utf-8").split("## What the LEDs say", 1)[1].split("\n## ", 1)[0]
    rows = {m[0]: (m[1], m[2]) for m in re.findall(r"^\| ([a-z-]+) \| [^|]+ \| ([^|]+?) \| ([^|]+?) \|$", text, re.M)}
    rows.pop("state")  # the header row
    assert list(rows) == list(LED_STATES)
    for state, (rgb, mono) in rows.items():
        pattern, colour = protocol.LED_STYLE[state]
        assert rgb == f"{mbproto.COLOUR_NAMES[colour]}, {patterns[pattern]}", state
        assert mono == single[example[state]], state


# ------------------------------------------------------ the bills of materials

def _bom(board: str) -> list[dict]:
    """The rows of building.md's bill of materials for ``board`` ("Maxima board", "10×10 board")."""
    text = (ROOT / "docs" / "building.md").read_text("utf-8").split("## Bill of materials", 1)[1]
    section = text.split(f"### {board}\n", 1)[1].split("\n#", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] != "qty" and not re.fullmatch(r"-+", cells[0]):
            qty = re.match(r"\d+", cells[0])
            cost = re.search(r"\d+", cells[3])
            rows.append({"qty": int(qty[0]) if qty else None, "part": cells[1], "cost": int(cost[0]) if cost else None})
    return rows


def _row(rows: list[dict], words: str) -> dict:
    found = [r for r in rows if words in r["part"]]
    assert len(found) == 1, (words, found)
    return found[0]


def _units(game: str) -> int:
    """Pieces of ``game``'s start on the board and in the hands (Optima's placement phase)."""
    from maxima_board.rules import Position
    p = Position("start", game)
    hand = getattr(p, "hand", None)
    return bin(p.occupancy()).count("1") + (len(hand(0)) + len(hand(1)) if callable(hand) else 0)


@pytest.mark.parametrize("board, kind, layout", [("Maxima board", "maxima", "MAXIMA_LAYOUT"),
                                                 ("10×10 board", "10x10", "BOARD_10X10_LAYOUT")])
def test_bill_of_materials_counts_the_board_and_adds_up(board: str, kind: str, layout: str):
    """Switches, diodes and LEDs for every square and button of the drawn matrix, a magnet for
    every piece of the largest game the board plays, and a total that is the sum of its lines."""
    from maxima_board.devices.boards import games_for
    rows = _bom(board)
    names = [name for line in _drawing_tables()[layout] for name in line if name != "spare"]
    buttons = sum(name in ("OK", "BACK", "MENU", "NEW") for name in names)
    squares = len(names) - buttons
    assert _row(rows, "reed switches")["qty"] >= squares
    assert _row(rows, "diodes 1N4148")["qty"] == squares + buttons
    assert _row(rows, "WS2812B")["qty"] == squares + buttons
    largest = max(_units(game) for game in games_for(kind))
    assert _row(rows, "magnets")["qty"] >= largest
    total = _row(rows, "**total**")
    assert total["cost"] == sum(r["cost"] for r in rows if r is not total and r["cost"] is not None)
    for part in ("Raspberry Pi 4", "Raspberry Pi Pico", "OLED", "buzzer", "push buttons", "AWG 24", "AWG 20",
                 "Dupont"):
        assert _row(rows, part)["qty"], part


def test_the_largest_game_of_each_board_is_counted_as_the_rules_say():
    """Maxima: 18 a side (M2); Optima: 10 pawns, 10 guards and 10 pieces a side (O4)."""
    from maxima_board.devices.boards import games_for
    assert max(_units(game) for game in games_for("maxima")) == _units("maxima") == 36
    assert max(_units(game) for game in games_for("10x10")) == _units("optima") == 60


def test_building_md_has_no_stale_software_status():
    text = (ROOT / "docs" / "building.md").read_text("utf-8")
    assert "Software status" not in text and "only Maxima" not in text and "plays Maxima on the Maxima board today" not in text


def test_the_led_of_the_drawn_square_stays_visible_beside_every_kings_base_of_the_size_table():
    """square-section.svg's geometry against building.md's table of square sizes: the light pipe
    lies outside the largest King's base on every square size, the reed switch runs inside the
    square, and the magnet face is 4-8 mm from the glass."""
    g = _drawing_tables()["SQUARE_SECTION"]
    text = (ROOT / "docs" / "building.md").read_text("utf-8").split("## Squares and board size", 1)[1]
    sizes = re.findall(r"^\| (\d+) mm \| [^|]*?(\d+)–(\d+) mm \|", text, re.M)
    assert len(sizes) >= 3
    for side, _, widest in sizes:
        half = int(side) / 2
        pipe_to_centre = (half - g["led_inset"]) * math.sqrt(2)
        assert pipe_to_centre - g["pipe"] / 2 > int(widest) / 2 + 2, (side, widest)   # 2 mm to spare
        assert g["reed"][1] + 3 < half * math.sqrt(2) - 3                             # glass and leads inside
    assert 4 <= g["felt"] + g["top"] <= 8


# ------------------------------------------------------- the README's first walk

README = ROOT / "README.md"


def _walk_step(number: int) -> tuple[str, list[str]]:
    """The prose and the indented code lines of step ``number`` of the README's first walk."""
    text = README.read_text("utf-8").split("## The first ten minutes", 1)[1].split("\n## ", 1)[0]
    step = text.split(f"**{number}. ", 1)[1].split(f"**{number + 1}. ", 1)[0]
    return step, [line[4:] for line in step.splitlines() if line.startswith("    ")]


def _sim(tmp_path: Path, args: list[str], stdin: str) -> str:
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_STATE_HOME=str(tmp_path / "state"))
    env.pop("MAXIMA_BOARD_DB", None)
    tmp_path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "maxima_board.cli.main", *args, "--db", str(tmp_path / "games.db")],
                          input=stdin, text=True, capture_output=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_readme_first_lines_give_the_two_commands():
    first = README.read_text("utf-8").splitlines()[:15]
    assert "    ./start" in first and "    ./run-tests" in first


def test_readme_walk_has_five_steps_each_with_a_command():
    for number, words in enumerate(["Start", "Play a move", "Choose another game", "Play the computer",
                                    "Open the web page"], 1):
        step, _ = _walk_step(number)
        assert step.startswith(words + ".**"), number
        assert re.search(r"`(\./start|maxima-board [a-z]+[^`]*|lift [a-j]\d+|press [a-z]+)`", step), number


def test_readme_walk_move_is_what_the_simulator_prints(tmp_path: Path):
    """Step 2: the typed lines (``> ...``) given to ``sim`` print the lines the README shows, in order."""
    _, code = _walk_step(2)
    typed = [line[2:] for line in code if line.startswith("> ")]
    shown = [line for line in code if not line.startswith("> ")]
    assert typed and shown
    out = _sim(tmp_path, ["sim"], "".join(f"{command}\nwait 400\n" for command in typed) + "quit\n").splitlines()
    at = 0
    for line in shown:
        assert line in out[at:], f"README step 2 shows {line!r}; sim printed {out}"
        at = out.index(line, at) + 1


def test_readme_walk_game_chooser_is_what_the_simulator_prints(tmp_path: Path):
    """Step 3: ``press menu`` shows the game chooser the README shows, and
    the buttons its prose names choose the games it names."""
    step, code = _walk_step(3)
    typed = [line[2:] for line in code if line.startswith("> ")]
    shown = [line for line in code if line.startswith("oled ")]
    assert typed == ["press menu"] and shown
    out = _sim(tmp_path / "m", ["sim"], "press menu\nquit\n").splitlines()
    assert shown[0] in out, out
    assert "`press back` chooses Ultima" in step
    out = _sim(tmp_path / "u", ["sim"], "press menu\npress back\nquit\n")
    assert "set up clhwkhli/" in out, out
    assert "`press menu`, `press new`, `press menu` sets up Swapper" in step
    out = _sim(tmp_path / "s", ["sim", "--board", "10x10"], "press menu\npress new\npress menu\nquit\n")
    assert "Game: Swapper 10x10" in out, out


def test_readme_walk_commands_start_the_simulator(tmp_path: Path):
    """Step 3's command lines start the simulated board on the game they name."""
    _, code = _walk_step(3)
    commands = [line.split("#", 1)[0].split() for line in code if line.startswith("maxima-board sim")]
    assert commands
    for n, command in enumerate(commands):
        args = command[1:]
        if "--board" in args and "--board" not in _sim(tmp_path / f"h{n}", ["sim", "--help"], ""):
            pytest.skip("sim --board is not in this tree yet (issue 21: choosing a game on either board)")
        out = _sim(tmp_path / str(n), args, "quit\n")
        assert "| Game 1: " in out, (command, out)
        if "--variant" in args:
            from maxima_board.rules import variants
            title = variants.get(args[args.index("--variant") + 1]).title
            assert f"| Game 1: {title}" in out, (command, out)
