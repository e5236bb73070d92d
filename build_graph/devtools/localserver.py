"""Serve a built site on 127.0.0.1, quietly, for a browser to load.

The graph benchmark (``graph_bench``) and the browser tests
(``tests/browser/conftest.py``) both open a built site in Chromium. A real
HTTP server is needed, not ``file://`` URLs, because the pages fetch their
graph JSON and Material's search index. This is the one place that server is
written; the test fixtures around it live in ``tests/``.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without logging every request, and without a traceback
    when the browser closes a page mid-transfer."""

    def log_message(self, format, *args):    # noqa: A002 - the stdlib's name
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass


class GzipHandler(QuietHandler):
    """Sends text files gzipped to a browser that accepts it, as GitHub Pages
    does, so that page-weight and Lighthouse figures are those a visitor of
    the hosted site sees (``http.server`` alone sends every byte raw)."""

    COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".bib", ".wasm"}

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (path.suffix not in self.COMPRESSED or not path.is_file()
                or "gzip" not in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        import gzip
        import io
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


class LocalServer:
    """A folder served on an ephemeral 127.0.0.1 port. The port is bound at
    construction, so ``url`` is known before the site is built (a build may
    need it as ``site_url``); ``start`` begins serving in a daemon thread."""

    def __init__(self, folder: Path, gzip: bool = False, port: int = 0):
        self.dir = Path(folder)
        handler = GzipHandler if gzip else QuietHandler
        self._server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", port), functools.partial(handler, directory=str(self.dir)))
        self.url = f"http://127.0.0.1:{self._server.server_port}/"

    def start(self) -> None:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        # shutdown() waits for serve_forever() to return: only ask a server that
        # runs, or a failed build would hang the caller instead of failing it.
        if getattr(self, "_thread", None) is not None:
            self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LocalServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
