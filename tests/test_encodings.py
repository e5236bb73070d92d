"""Encodings and malformed files (issue 7).

* every real seed re-encoded (BOM, CRLF, bare CR, decomposed accents, all at
  once) parses to exactly the same ``ParsedListing``, findings included, and
  the whole atlas built from re-encoded seeds exports the same graph;
* bytes that are not UTF-8 fail with the file, the byte offset and the line;
* a binary file, a 50 MB file, a YAML bomb, a huge YAML file and a YAML file
  with Python tags each fail cleanly, quickly and without reading it all.

Static broken inputs live in ``tests/fixtures/broken/``; big files are made
sparse (``truncate``) so no test writes 50 MB of real data.
"""

from __future__ import annotations

import dataclasses
import shutil
import time
import tracemalloc
import unicodedata
from pathlib import Path

import pytest

from build_graph.errors import AtlasError, CurationError, EncodingError
from build_graph.graph import export_json
from build_graph.pipeline import build_atlas, read_sources
from build_graph.sources import parse_listing, structured
from build_graph.sources.sidecar import load_sidecar
from build_graph.sources.text import MAX_LISTING_BYTES, decode_listing, read_listing
from build_graph.yamlio import MAX_YAML_BYTES, load_yaml_file, load_yaml_text

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
DATA = ROOT / "data"
BROKEN = Path(__file__).resolve().parent / "fixtures" / "broken"
SEED_LISTINGS = sorted(p for p in SEEDS.iterdir() if p.suffix == ".txt")
SEED_SIDECARS = sorted(SEEDS.glob("*.meta.yaml"))
HUGE = 50 * 1024 * 1024
FAST = 2.0          # seconds: every refusal below must come at least this quickly

BOM = "\ufeff"


def _bom(text: str) -> bytes:
    return (BOM + text).encode("utf-8")


def _crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode("utf-8")


def _cr(text: str) -> bytes:
    return text.replace("\n", "\r").encode("utf-8")


def _nfd(text: str) -> bytes:
    return unicodedata.normalize("NFD", text).encode("utf-8")


def _everything(text: str) -> bytes:
    return _bom(unicodedata.normalize("NFD", text).replace("\n", "\r\n"))


VARIANTS = {"bom": _bom, "crlf": _crlf, "bare-cr": _cr, "nfd": _nfd, "all-at-once": _everything}


def _fields(listing) -> dict:
    return dataclasses.asdict(listing)        # entries, skips, findings, totals: nothing ignored


def test_seeds_are_clean_utf8_with_accents():
    """The variants below are only meaningful if the seeds have something to vary."""
    texts = [p.read_bytes().decode("utf-8") for p in SEED_LISTINGS]
    assert all("\r" not in t and not t.startswith(BOM) for t in texts)
    assert any(unicodedata.normalize("NFD", t) != t for t in texts)      # accents to decompose


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seed", SEED_LISTINGS, ids=lambda p: p.name[:3])
def test_reencoded_seed_parses_to_the_same_entries(seed, variant, tmp_path):
    original = parse_listing(seed, seed.name)
    copy = tmp_path / seed.name
    copy.write_bytes(VARIANTS[variant](seed.read_text(encoding="utf-8")))
    if variant != "nfd" or unicodedata.normalize("NFD", seed.read_text(encoding="utf-8")) != \
            seed.read_text(encoding="utf-8"):
        assert copy.read_bytes() != seed.read_bytes()
    again = parse_listing(copy, seed.name)
    assert _fields(again) == _fields(original)
    assert again.entries, "the seed must hold entries for this test to mean anything"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("sidecar", SEED_SIDECARS, ids=lambda p: p.name[:3])
def test_reencoded_sidecar_reads_the_same(sidecar, variant, tmp_path):
    copy = tmp_path / sidecar.name
    copy.write_bytes(VARIANTS[variant](sidecar.read_text(encoding="utf-8")))
    assert load_sidecar(copy, sidecar.name) == load_sidecar(sidecar, sidecar.name)


@pytest.mark.parametrize("variant", ["bom", "crlf", "bare-cr", "nfd"])
def test_reencoded_structured_entry_reads_the_same(variant, tmp_path):
    text = ("title: \"Gonçalves: Über-fast Café Systems\"\n"
            "authors: [Larissa Rozales Gonçalves, José García]\n"
            "year: 2023\nabstract: >-\n  We présent a système.\n  It is fast.\n")
    clean = structured.parse(decode_listing(text.encode("utf-8"), "s.yaml"), "s.yaml")
    path = tmp_path / "s.yaml"
    path.write_bytes(VARIANTS[variant](text))
    again = structured.parse(read_listing(path, "s.yaml"), "s.yaml")
    assert _fields(again) == _fields(clean)
    assert again.entries[0].authors[0] == "Larissa Rozales Gonçalves"


def test_atlas_from_reencoded_seeds_is_identical(tmp_path, atlas):
    """Every listing and sidecar re-encoded at once: same graph, byte for byte."""
    folder = tmp_path / "seeds"
    folder.mkdir()
    for path in sorted(SEEDS.iterdir()):
        folder.joinpath(path.name).write_bytes(_everything(path.read_text(encoding="utf-8")))
    again = build_atlas(folder, DATA, strict=True)
    assert export_json(again.graph) == export_json(atlas.graph)
    assert [dataclasses.asdict(r) for r in again.corpus.ledger] == \
        [dataclasses.asdict(r) for r in atlas.corpus.ledger]


# --- bytes that are not UTF-8 ---------------------------------------------------------

def _first_bad_byte(raw: bytes) -> int:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return err.start
    raise AssertionError("fixture is valid UTF-8")


@pytest.mark.parametrize("name", ["latin1.txt", "cp1252.txt"])
def test_not_utf8_names_file_byte_offset_and_line(name):
    raw = (BROKEN / name).read_bytes()
    offset = _first_bad_byte(raw)
    line = raw.count(b"\n", 0, offset) + 1
    with pytest.raises(EncodingError) as info:
        parse_listing(BROKEN / name, f"broken/{name}")
    err = info.value
    assert err.file == f"broken/{name}" and err.line == line
    message = str(err)
    assert message.startswith(f"broken/{name}:{line}: ")
    assert f"byte offset {offset}" in message and f"0x{raw[offset]:02x}" in message
    assert "UTF-8" in message


def test_latin1_fixture_fails_on_the_author_line():
    """Pin the numbers, so a message that names the wrong place is caught."""
    with pytest.raises(EncodingError, match=r"latin1\.txt:5: not valid UTF-8 at byte offset 61 "
                                            r"\(byte 0xe9\)"):
        parse_listing(BROKEN / "latin1.txt", "latin1.txt")


def test_bad_byte_offset_counts_the_bom(tmp_path):
    raw = b"\xef\xbb\xbfAbstract: one\nAbstract: tw\xff\n"
    with pytest.raises(EncodingError, match=r"x\.txt:2: .*byte offset 29\b"):
        decode_listing(raw, "x.txt")
    yaml_file = tmp_path / "x.meta.yaml"
    yaml_file.write_bytes(b"\xef\xbb\xbfvenue: MLSys\nsource: caf\xe9\n")
    with pytest.raises(CurationError) as info:
        load_yaml_file(yaml_file, "x.meta.yaml")
    assert info.value.line == 2 and "byte offset 27" in str(info.value)


def test_not_utf8_listing_does_not_stop_the_others(tmp_path, capsys):
    from build_graph.cli import main
    folder = tmp_path / "seeds"
    folder.mkdir()
    shutil.copy(BROKEN / "latin1.txt", folder / "broken.txt")
    shutil.copy(SEEDS / SEED_LISTINGS[0].name, folder / SEED_LISTINGS[0].name)
    assert main(["check", "--seeds", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "error: broken.txt:5: not valid UTF-8 at byte offset 61 (byte 0xe9)" in out
    assert f"{SEED_LISTINGS[0].name}: bare-abstracts; entries detected 4" in out


# --- binary, huge -----------------------------------------------------------------------

@pytest.mark.parametrize("raw", [
    (BROKEN / "image.txt").read_bytes(),
    "Abstract: hello\n".encode("utf-16"),
    b"Abstract: fine\n\x00\x00\x00",
], ids=["png", "utf16", "trailing-nul"])
def test_binary_file_is_refused_as_binary(raw, tmp_path):
    path = tmp_path / "b.txt"
    path.write_bytes(raw)
    with pytest.raises(EncodingError, match=r"^b\.txt: binary file \(NUL byte at byte offset \d+\)"):
        parse_listing(path, "b.txt")


def _sparse(path: Path, header: bytes, size: int = HUGE) -> Path:
    with open(path, "wb") as handle:
        handle.write(header)
        handle.truncate(size)
    return path


@pytest.fixture
def no_reading(monkeypatch):
    """Fail the test if anything reads a file bigger than the limits."""
    real_read_bytes, real_read_text, real_open = Path.read_bytes, Path.read_text, Path.open

    def guard(path):
        if path.stat().st_size > MAX_LISTING_BYTES:
            raise AssertionError(f"{path.name} ({path.stat().st_size:,} bytes) was read")

    def read_bytes(self):
        guard(self)
        return real_read_bytes(self)

    def read_text(self, *args, **kw):
        guard(self)
        return real_read_text(self, *args, **kw)

    def open_(self, *args, **kw):
        guard(self)
        return real_open(self, *args, **kw)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(Path, "read_text", read_text)
    monkeypatch.setattr(Path, "open", open_)


def test_huge_listing_fails_fast_without_being_read(tmp_path, no_reading):
    path = _sparse(tmp_path / "huge.txt", b"Abstract: the start of something big\n")
    assert path.stat().st_size == HUGE
    start = time.perf_counter()
    with pytest.raises(EncodingError) as info:
        read_listing(path, "huge.txt")
    assert time.perf_counter() - start < FAST
    message = str(info.value)
    assert message.startswith("huge.txt: ") and "52,428,800 bytes" in message
    assert f"{MAX_LISTING_BYTES:,}" in message


def test_huge_decoded_bytes_are_refused_before_decoding():
    with pytest.raises(EncodingError, match="limited to"):
        decode_listing(b"a" * (MAX_LISTING_BYTES + 1), "big.txt")


def test_pipeline_refuses_huge_files_of_every_kind_in_bounded_time_and_memory(tmp_path, no_reading):
    """A 50 MB listing, sidecar and structured entry beside a good listing: three clean
    errors, the good listing still parsed, nothing big ever loaded into memory."""
    folder = tmp_path / "seeds"
    folder.mkdir()
    shutil.copy(SEED_LISTINGS[0], folder / "good.txt")
    _sparse(folder / "huge.txt", b"Abstract: x\n")
    _sparse(folder / "huge.meta.yaml", b"venue: MLSys\n")
    _sparse(folder / "huge.yaml", b"title: x\n")
    tracemalloc.start()
    start = time.perf_counter()
    try:
        sources = read_sources(folder)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - start < FAST
    assert peak < 8 * 1024 * 1024, f"peak {peak:,} bytes"
    errors = {e.file: e for e in sources.errors}
    assert sorted(errors) == ["huge.meta.yaml", "huge.txt", "huge.yaml"]
    assert isinstance(errors["huge.meta.yaml"], CurationError)
    assert all("52,428,800 bytes" in str(errors[n]) for n in ("huge.txt", "huge.yaml"))
    assert f"larger than {MAX_YAML_BYTES} bytes" in str(errors["huge.meta.yaml"])
    assert [l.file for l in sources.listings] == ["good.txt"]


def test_huge_curated_file_is_refused_without_being_read(tmp_path, no_reading):
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    _sparse(data / "venues.yaml", b"venues:\n")
    start = time.perf_counter()
    with pytest.raises(CurationError, match=f"larger than {MAX_YAML_BYTES}"):
        build_atlas(SEEDS, data)
    assert time.perf_counter() - start < FAST


def test_yaml_over_the_limit_but_under_the_listing_limit(tmp_path):
    """A 3 MB structured entry passes the listing size check, then fails the YAML one."""
    path = tmp_path / "big.yaml"
    path.write_text("title: x\nabstract: " + "word " * (MAX_YAML_BYTES // 5 + 10) + "\n")
    assert MAX_YAML_BYTES < path.stat().st_size < MAX_LISTING_BYTES
    with pytest.raises(CurationError, match=f"larger than {MAX_YAML_BYTES}"):
        structured.parse(read_listing(path, "big.yaml"), "big.yaml")
    with pytest.raises(CurationError, match=f"larger than {MAX_YAML_BYTES}"):
        load_yaml_file(path, "big.yaml")


# --- YAML: bombs, tags, broken values ---------------------------------------------------

def _project(tmp_path: Path) -> tuple[Path, Path]:
    seeds, data = tmp_path / "seeds", tmp_path / "data"
    seeds.mkdir()
    shutil.copy(SEED_LISTINGS[0], seeds / "listing.txt")
    shutil.copytree(DATA, data)
    return seeds, data


@pytest.mark.parametrize("fixture,fragment", [
    ("bomb.yaml", "aliases"),
    ("python_tag.yaml", "python/object"),
    ("deep.yaml", "nested too deeply"),
    ("bad_date.yaml", "out of range"),
])
@pytest.mark.parametrize("role", ["sidecar", "structured", "curated"])
def test_hostile_yaml_fails_cleanly_and_fast(tmp_path, monkeypatch, fixture, fragment, role):
    monkeypatch.chdir(tmp_path)            # a python tag that ran would write PWNED here
    seeds, data = _project(tmp_path)
    body = (BROKEN / fixture).read_bytes()
    if role == "sidecar":
        target, name = seeds / "listing.meta.yaml", "listing.meta.yaml"
    elif role == "structured":
        target, name = seeds / "entry.yaml", "entry.yaml"
    else:
        target, name = data / "venues.yaml", "venues.yaml"
    target.write_bytes(body)
    start = time.perf_counter()
    if role == "curated":
        with pytest.raises(CurationError) as info:
            build_atlas(seeds, data)
        error = info.value
    else:
        sources = read_sources(seeds)
        assert [type(e) for e in sources.errors] == [CurationError]
        error = sources.errors[0]
        assert [l.file for l in sources.listings] == ["listing.txt"]     # the rest goes on
        if fixture == "bomb.yaml":                                     # and the site refuses
            with pytest.raises(CurationError):
                build_atlas(seeds, data, strict=True)
    assert time.perf_counter() - start < FAST
    assert error.file.endswith(name) and fragment in str(error)
    assert not (tmp_path / "PWNED").exists()


def test_billion_laughs_is_refused_before_expansion():
    text = (BROKEN / "bomb.yaml").read_text()
    start = time.perf_counter()
    with pytest.raises(CurationError, match=r"bomb\.yaml:2: YAML aliases"):
        load_yaml_text(text, "bomb.yaml")
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize("text", [
    "!!python/object/apply:os.system ['echo pwned > PWNED']",
    "title: !!python/name:os.system\n",
    "title: !!python/object:build_graph.model.Provenance {file: x, entry: 1}\n",
    "title: !!python/object/new:subprocess.Popen [['touch', 'PWNED']]\n",
])
def test_only_the_safe_loader_is_used(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CurationError, match="constructor"):
        load_yaml_text(text, "t.yaml")
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("text,fragment", [
    ("title: x\ndate: 2022-02-30\n", "out of range"),
    ("title: x\nyear: " + "1" * 5000 + "\n", "invalid YAML value"),
    ("title: !!timestamp foo\n", "invalid YAML value"),
    ("title: " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
])
def test_invalid_yaml_values_are_curation_errors(text, fragment):
    with pytest.raises(CurationError, match=fragment) as info:
        structured.parse(text, "s.yaml")
    assert info.value.file == "s.yaml"


def test_every_refusal_is_an_atlas_error():
    assert issubclass(EncodingError, AtlasError) and issubclass(CurationError, AtlasError)
