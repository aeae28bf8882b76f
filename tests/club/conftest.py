"""Fixtures of the club tests: a real Mosquitto broker on a free loopback
port (mosquitto.py), headless Chromium driven by Selenium (Debian's
chromium and chromedriver, no downloads). Games to play on simulated
boards are in games.py.

Where the machine has no Mosquitto or no Chromium (``./run-tests`` installs
them when it runs as root on Debian), the tests that need them are skipped
with a message saying what is missing.
"""
from __future__ import annotations

import os
import shutil
import sys
import time

import pytest

from .mosquitto import Broker

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
MAXIMA_BOARD = [sys.executable, "-m", "maxima_board.cli.main"]


def wait_for(predicate, timeout: float = 15.0, what: str = "condition"):
    """The first true value of ``predicate()``, polled every 50 ms. A page
    element replaced while it was read (the live pages redraw) counts as
    not yet."""
    end = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except Exception as exc:
            if type(exc).__name__ != "StaleElementReferenceException":
                raise
            value = None
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def mosquitto_binary() -> str:
    binary = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if os.path.exists(p)), None)
    if binary is None or not shutil.which("mosquitto_passwd"):
        pytest.skip("mosquitto is not installed (./run-tests installs it as root: apt-get install mosquitto)")
    return binary


@pytest.fixture(scope="session")
def broker(tmp_path_factory):
    b = Broker(mosquitto_binary(), tmp_path_factory.mktemp("mosquitto"))
    b.start()
    yield b
    b.stop()


SECURE_TABLES = [str(n) for n in range(1, 21)] + ["live", "run"]


@pytest.fixture(scope="session")
def secure_broker(tmp_path_factory):
    """Mosquitto as docs/club.md sets it up for club ``round``: users
    ``dashboard`` (reads) and one per table of SECURE_TABLES (writes its own)."""
    b = Broker(mosquitto_binary(), tmp_path_factory.mktemp("mosquitto-secure"), secure=True,
               tables=SECURE_TABLES, club="round")
    b.start()
    yield b
    b.stop()


@pytest.fixture(scope="session")
def browser():
    chromium = next((p for p in CHROMIUM if os.path.exists(p)), None)
    driver_path = next((p for p in CHROMEDRIVER if os.path.exists(p)), None)
    if chromium is None or driver_path is None:
        pytest.skip("chromium and chromium-driver are not installed "
                    "(./run-tests installs them as root: apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=420,900", "--no-first-run", "--disable-extensions"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
