"""Fixtures for the browser tests: a real MkDocs build, served locally, driven by Chromium.

The site is built once per session exactly as a user builds it
(``mkdocs build --strict``), from a config that inherits the project's
``mkdocs.yml`` and only points the atlas plugin's ``seeds``/``curation``
elsewhere. That config is written next to ``mkdocs.yml`` (under a unique
name, removed right after the build) because MkDocs resolves ``docs_dir``
relative to the config file.

Chromium is Debian's (``/usr/bin/chromium``), driven by Playwright's Python
package. Where it is missing the tests skip with the install command, except
under ``CI=true``, where a missing browser is a failure: CI must never pass by
skipping its browser tests.

A failing test leaves a screenshot in ``test-artifacts/<test name>.png``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from build_graph.devtools.localserver import LocalServer

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "test-artifacts"
HOSTILE_SEEDS = ROOT / "tests" / "fixtures" / "graph"


def data_dir() -> Path:
    """The curated data to build with; ``ATLAS_TEST_DATA`` overrides it while data/ is in flux."""
    return Path(os.environ.get("ATLAS_TEST_DATA") or ROOT / "data").resolve()


def build_site(seeds: Path, out: Path, site_url: str) -> Path:
    config = ROOT / f".pytest-mkdocs-{uuid.uuid4().hex[:12]}.yml"
    # The served URL as site_url, as a deployment has one: Material's instant
    # navigation only follows links listed in sitemap.xml (empty without a
    # site_url), and matches them by host and port.
    config.write_text(f"INHERIT: mkdocs.yml\nsite_url: {site_url!r}\nplugins:\n  mlsys-atlas:\n"
                      f"    seeds: {seeds.resolve().as_posix()!r}\n"
                      f"    curation: {data_dir().as_posix()!r}\n", encoding="utf-8")
    try:
        run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                              "-f", str(config), "-d", str(out)],
                             cwd=ROOT, capture_output=True, text=True, timeout=900,
                             env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    finally:
        config.unlink(missing_ok=True)
    if run.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{run.stdout}\n{run.stderr}", pytrace=False)
    return out


def _site(seeds: Path, folder: Path):
    site = LocalServer(folder)        # bound first: the build needs its URL
    try:
        build_site(seeds, folder, site.url)
        site.start()
        yield site
    finally:
        site.stop()


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The project's own site: real seeds, real data."""
    yield from _site(ROOT / "seeds", tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="session")
def site_dir(site) -> Path:
    return site.dir


@pytest.fixture(scope="session")
def site_url(site) -> str:
    return site.url


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory):
    """A site from one listing whose titles are HTML, script and template syntax."""
    yield from _site(HOSTILE_SEEDS, tmp_path_factory.mktemp("hostile-site"))


@pytest.fixture(scope="session")
def untrusted_site(tmp_path_factory):
    """A site from tests/fixtures/hostile/seeds: payloads in every kind of field."""
    yield from _site(ROOT / "tests" / "fixtures" / "hostile" / "seeds",
                     tmp_path_factory.mktemp("untrusted-site"))


@pytest.fixture(scope="session")
def hostile_site_dir(hostile_site) -> Path:
    return hostile_site.dir


@pytest.fixture(scope="session")
def hostile_site_url(hostile_site) -> str:
    return hostile_site.url


@pytest.fixture(scope="session")
def atlas():
    """The atlas the site was built from, to know what the graph must hold."""
    from build_graph.pipeline import build_atlas
    return build_atlas(ROOT / "seeds", data_dir(), strict=True)


@pytest.fixture(scope="module")
def browser():
    """Module-scoped: a running sync Playwright owns an event loop, and another
    test module starting its own Playwright while this one lives would fail."""
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"Chromium not found at {CHROMIUM}, and CI=true: the browser tests "
                        "must run in CI (apt-get install -y chromium)", pytrace=False)
        pytest.skip(f"Chromium not found at {CHROMIUM}; install it with apt-get install -y chromium")
    from playwright.sync_api import sync_playwright
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()
    playwright.stop()


class Watched:
    """A page plus what it did: console errors, uncaught exceptions, requests to other hosts."""

    def __init__(self, page):
        self.page = page
        self.errors: list[str] = []
        self.external: list[str] = []
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        page.on("console", lambda msg: self.errors.append(f"console: {msg.text}")
                if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"exception: {exc}"))
        page.on("request", self._request)
        page.on("dialog", self._dialog)

    def _request(self, request) -> None:
        self.requests.append(request.url)
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname != "127.0.0.1":
            self.external.append(request.url)

    def _dialog(self, dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def assert_clean(self) -> None:
        assert self.errors == [], "console errors: " + "; ".join(self.errors)
        assert self.external == [], "requests to other hosts: " + ", ".join(self.external)
        assert self.dialogs == [], "dialogs opened (script ran?): " + ", ".join(self.dialogs)


@pytest.fixture
def watched(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  color_scheme="light", service_workers="block")
    page = context.new_page()
    page.set_default_timeout(20_000)
    result = Watched(page)
    yield result
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = "".join(c if c.isalnum() or c in "-_." else "_" for c in request.node.name)
        try:
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        except Exception as err:     # the page may be gone; the test's own error matters more
            print(f"could not save a screenshot: {err}", file=sys.stderr)
    context.close()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
