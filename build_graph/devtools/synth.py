"""Synthetic listings for benchmarks: N papers in the project's real listing formats.

``write_synthetic_seeds(folder, papers, seed)`` writes a seeds folder that the
real parsers read, so a benchmark exercises every stage the way real input
does. Everything is recombined from the real listings in ``seeds/``:

* **titles**: a made-up system name ("Flintpack: ...") in front of a real
  description, or two halves of real descriptions joined at a connective
  ("... for ...", "... with ..."); every title is unique, so every entry
  becomes its own paper;
* **abstracts**: 5-9 real abstract sentences (an opening, middle sentences, a
  closing one), with the original system's name replaced by the new one, so
  the tagger sees real wording and tags a realistic mix of techniques;
* **authors**: 6.5 per paper on average, drawn by a Simon (preferential
  attachment) process from real first and family names: about 70% of people
  write one paper, a few write dozens, and co-authors tend to write together
  again, as in real programmes (the rates are fitted to 2,100 papers of real
  systems-conference metadata);
* **formats**: about 85% papers.cool listings (``VENUE.YEAR`` header, a few
  hundred entries per file, spread over venues and years), 8% arXiv listings
  (no titles, no authors: untitled papers) and 7% conference session schedules
  with their ``.meta.yaml`` sidecars.

Deterministic: the only randomness is ``random.Random(seed)``, and the seed
material is read in sorted order, so the same seed and the same ``seeds/``
give byte-identical files on every machine.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path

from ..sources import listing_kind, parse_text, seed_files
from ..sources.text import decode_listing

SOURCE_SEEDS = Path(__file__).resolve().parents[2] / "seeds"

# Venue keys of venues.yaml whose upper-case spelling is an accepted alias
# (papers.cool headers are ``OSDI.2022``, ``EUROSYS.2023``, ...).
VENUES = ("MLSys", "OSDI", "SOSP", "NSDI", "EuroSys", "ASPLOS", "ATC", "ISCA", "MICRO",
          "NeurIPS", "ICML", "ICLR", "SIGCOMM")
YEARS = tuple(range(2018, 2026))
SESSIONS = ("Distributed Training", "Inference Serving", "Compilers and Kernels",
            "Hardware Efficient ML", "Memory Management", "Federated and Edge Learning",
            "Sparsity and Compression", "Scheduling", "Data Pipelines", "Reliability")
ROOMS = ("Exhibit Hall A", "Ballroom B", "Room 101", "Grand Hall", "Auditorium")
CONNECTIVES = ("for", "with", "via", "through", "on", "using", "in", "under")
ARXIV_SHARE = 0.08
SCHEDULE_SHARE = 0.07
NEW_AUTHOR = 0.60           # Simon process: a slot is a new person with this probability
COAUTHOR_AGAIN = 0.35       # ... else, this often a previous co-author of the first author
AUTHORS_PER_PAPER = (1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 7, 7, 8, 8, 9, 10, 11, 13, 16)

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class _Material:
    """Titles, sentences and names taken from the real listings."""

    def __init__(self, source: Path):
        entries = []
        for path in seed_files(source):
            if listing_kind(path) != "listing":
                continue
            name = path.relative_to(source).as_posix()
            entries += parse_text(decode_listing(path.read_bytes(), name), name).entries
        if not entries:
            raise ValueError(f"no listings to take material from in {source}")
        self.names: list[str] = []          # real system names ("XRBench")
        self.descriptions: list[str] = []   # what follows the colon, or the whole title
        self.heads: list[str] = []          # description halves before a connective
        self.tails: list[tuple[str, str]] = []  # (connective, rest)
        for entry in entries:
            if not entry.title:
                continue
            title = " ".join(entry.title.split())
            name, sep, rest = title.partition(":")
            if sep and len(name.split()) <= 2:
                self.names.append(name.strip())
                description = rest.strip()
            else:
                description = title
            if description.isupper():
                description = description.title()
            self.descriptions.append(description)
            words = description.split()
            for i, word in enumerate(words[1:-1], start=1):
                if word.lower() in CONNECTIVES:
                    self.heads.append(" ".join(words[:i]))
                    self.tails.append((word.lower(), " ".join(words[i + 1:])))
                    break
        self.openings: list[str] = []
        self.middles: list[str] = []
        self.closings: list[str] = []
        own_names = sorted(set(self.names), key=len, reverse=True)
        for entry in entries:
            sentences = [s for s in _SENTENCE.split(" ".join(entry.abstract.split())) if len(s) > 30]
            sentences = [_placeholder(s, own_names) for s in sentences]
            if len(sentences) < 3:
                self.middles += sentences
                continue
            self.openings.append(sentences[0])
            self.middles += sentences[1:-1]
            self.closings.append(sentences[-1])
        firsts, lasts = {}, {}
        for entry in entries:
            for author in entry.authors:
                words = [w.title() if w.isupper() and len(w) > 1 else w for w in author.split()]
                if len(words) >= 2 and all(w[:1].isupper() for w in words):
                    firsts.setdefault(words[0], None)
                    lasts.setdefault(words[-1], None)
        self.firsts = sorted(firsts)
        self.lasts = sorted(lasts)
        self.syllables = sorted({s for n in self.names for s in _syllables(n)}) or ["Sys", "tem"]


def _placeholder(sentence: str, names: list[str]) -> str:
    for name in names:
        if len(name) > 2 and name in sentence:
            sentence = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", "{NAME}", sentence)
    return sentence.replace("{", "{{").replace("}", "}}").replace("{{NAME}}", "{name}")


def _syllables(name: str) -> list[str]:
    letters = re.sub(r"[^A-Za-z]", "", name).lower()
    return [letters[i:i + 3] for i in range(0, len(letters) - 2, 3)]


class _People:
    """Author lists by a Simon process, with repeated collaborations."""

    def __init__(self, rng: random.Random, material: _Material):
        self.rng = rng
        self.firsts, self.lasts = material.firsts, material.lasts
        self.order = list(range(len(self.firsts) * len(self.lasts)))
        rng.shuffle(self.order)
        self.made = 0
        self.people: list[str] = []
        self.slots: list[int] = []          # one item per authorship: choice is preferential
        self.coauthors: list[list[int]] = []

    def _new(self) -> int:
        i = self.made
        self.made += 1
        first_last = self.order[i % len(self.order)]
        first = self.firsts[first_last // len(self.lasts)]
        last = self.lasts[first_last % len(self.lasts)]
        rounds = i // len(self.order)       # pool used up: add middle initials
        middle = "" if rounds == 0 else " " + "ABCDEFGHJKLMNPRSTW"[(rounds - 1) % 18] + "."
        if rounds > 18:
            middle += " " + "ABCDEFGHJKLMNPRSTW"[(rounds - 1) // 18 % 18] + "."
        self.people.append(f"{first}{middle} {last}")
        self.coauthors.append([])
        return len(self.people) - 1

    def paper(self) -> list[str]:
        rng = self.rng
        count = rng.choice(AUTHORS_PER_PAPER)
        chosen: list[int] = []
        for _ in range(count * 3):
            if len(chosen) == count:
                break
            if not self.slots or rng.random() < NEW_AUTHOR:
                person = self._new()
            elif chosen and self.coauthors[chosen[0]] and rng.random() < COAUTHOR_AGAIN:
                person = rng.choice(self.coauthors[chosen[0]])
            else:
                person = rng.choice(self.slots)
            if person not in chosen:
                chosen.append(person)
        for person in chosen:
            self.slots.append(person)
            self.coauthors[person] += [p for p in chosen if p != person]
        names = []
        for person in chosen:
            name = self.people[person]
            if rng.random() < 0.005:        # listings sometimes shout a name
                name = name.upper()
            names.append(name)
        return names


class _Papers:
    def __init__(self, rng: random.Random, material: _Material):
        self.rng = rng
        self.m = material
        self.seen: set[str] = set()
        self.people = _People(rng, material)

    def system_name(self) -> str:
        rng = self.rng
        parts = [rng.choice(self.m.syllables) for _ in range(rng.choice((2, 2, 3)))]
        style = rng.random()
        if style < 0.2:
            return "".join(parts).upper()
        if style < 0.35:
            return "".join(p.capitalize() for p in parts)
        return "".join(parts).capitalize()

    def description(self) -> str:
        rng = self.rng
        if self.m.heads and rng.random() < 0.6:
            connective, rest = rng.choice(self.m.tails)
            return f"{rng.choice(self.m.heads)} {connective} {rest}"
        return rng.choice(self.m.descriptions)

    def title_and_name(self) -> tuple[str, str]:
        for attempt in range(1000):
            name = self.system_name()
            named = attempt > 3 or self.rng.random() < 0.75
            title = f"{name}: {self.description()}" if named else self.description()
            key = re.sub(r"[^a-z0-9]+", " ", title.lower()).strip()
            if key not in self.seen:
                self.seen.add(key)
                return title, name
        raise RuntimeError("could not make a unique title")      # pragma: no cover

    def abstract(self, name: str) -> str:
        rng = self.rng
        m = self.m
        middle = rng.randint(3, 7)
        sentences = ([rng.choice(m.openings)] if m.openings else []) \
            + [rng.choice(m.middles) for _ in range(middle)] \
            + ([rng.choice(m.closings)] if m.closings else [])
        return " ".join(s.format(name=name) for s in sentences)

    def paper(self) -> dict:
        title, name = self.title_and_name()
        return {"title": title, "authors": self.people.paper(), "abstract": self.abstract(name)}


def _sizes(total: int, rng: random.Random, low: int, high: int) -> list[int]:
    sizes = []
    while total > 0:
        size = min(total, rng.randint(low, high))
        sizes.append(size)
        total -= size
    return sizes


def _papers_cool(venue: str, year: int, papers: list[dict], rng: random.Random) -> str:
    out = [f"{venue.upper()}.{year}", "", f"| Total: {len(papers)}", ""]
    for number, paper in enumerate(papers, start=1):
        out += [f"#{number} {paper['title']} [PDF{rng.randint(0, 9)}] [Copy] "
                f"[Kimi{rng.randint(0, 20)}] [REL]", ""]
        if paper["authors"]:
            out += ["Authors: " + ", ".join(paper["authors"]), ""]
        out += [paper["abstract"], "", ""]
    return "\n".join(out)


def _arxiv(papers: list[dict], ids: list[str], dates: list[dt.date], venues: list[str | None]) -> str:
    out = []
    for paper, arxiv, date, venue in zip(papers, ids, dates, venues):
        out += [paper["abstract"], ""]
        if venue:
            out += [f"Accepted to {venue} {date.year}", ""]
        out += [f"arXiv:{arxiv}", f"Created: {date.isoformat()}", ""]
    return "\n".join(out)


def _schedule(session: str, room: str, moderator: str, date: dt.date, papers: list[dict]) -> str:
    day = f"{_WEEKDAYS[date.weekday()]} {date.day} {_MONTHS[date.month - 1]}"
    out = [session, "", room, "", f"Moderator: {moderator}", "", "", "Chat is not available.", ""]
    start = 8 * 60
    for paper in papers:
        end = start + 15
        out += [f"{day}. {start // 60:02d}:{start % 60:02d} - {end // 60:02d}:{end % 60:02d} PDT", "",
                paper["title"], "", " · ".join(paper["authors"]), "", paper["abstract"], ""]
        start = end
    return "\n".join(out)


def _sidecar(listing: str, venue: str, date: dt.date, session: str) -> str:
    return (f"# Synthetic: facts the session schedule {listing} does not state.\n"
            f"venue: {venue}\nyear: {date.year}\ndate: {date.isoformat()}\n"
            f"session: {session}\n"
            "source: >-\n  build_graph.devtools.synth (synthetic benchmark data, not a real programme)\n")


def _listings(files: list[tuple[str, str]]) -> int:
    return sum(1 for name, _ in files if name.endswith(".txt"))


def write_synthetic_seeds(folder: Path, papers: int, seed: int = 0) -> None:
    """Write listings holding ``papers`` distinct papers into ``folder``.

    ``folder`` is created if needed; files already there are left alone, so
    use an empty folder. The same ``seed`` gives byte-identical files.
    """
    if papers < 0:
        raise ValueError("papers must be >= 0")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    material = _Material(SOURCE_SEEDS)
    maker = _Papers(rng, material)
    n_arxiv = round(papers * ARXIV_SHARE)
    n_schedule = round(papers * SCHEDULE_SHARE)
    n_cool = papers - n_arxiv - n_schedule
    pairs = [(v, y) for v in VENUES for y in YEARS]
    rng.shuffle(pairs)
    files: list[tuple[str, str]] = []
    for i, size in enumerate(_sizes(n_cool, rng, 120, 400)):
        venue, year = pairs[i % len(pairs)]
        batch = [maker.paper() for _ in range(size)]
        files.append((f"syn_{_listings(files):03d}_{venue.lower()}_{year}.txt",
                      _papers_cool(venue, year, batch, rng)))
    serial = 0
    for size in _sizes(n_arxiv, rng, 80, 300):
        batch, ids, dates, venues = [], [], [], []
        for _ in range(size):
            paper = maker.paper()
            date = dt.date(rng.choice(YEARS), 1, 1) + dt.timedelta(days=rng.randint(0, 364))
            serial += 1
            batch.append(paper)
            ids.append(f"{date.year % 100:02d}{date.month:02d}.{serial:05d}")
            dates.append(date)
            venues.append(rng.choice(VENUES) if rng.random() < 0.3 else None)
        files.append((f"syn_{_listings(files):03d}_arxiv.txt", _arxiv(batch, ids, dates, venues)))
    for size in _sizes(n_schedule, rng, 10, 40):
        batch = [maker.paper() for _ in range(size)]
        venue = rng.choice(VENUES)
        date = dt.date(rng.choice(YEARS), rng.randint(1, 12), rng.randint(1, 28))
        session = rng.choice(SESSIONS)
        name = f"syn_{_listings(files):03d}_session.txt"
        moderator = maker.people.people[rng.randrange(len(maker.people.people))]
        files.append((name, _schedule(session, rng.choice(ROOMS), moderator, date, batch)))
        files.append((name[: -len(".txt")] + ".meta.yaml", _sidecar(name, venue, date, session)))
    for name, text in files:
        (folder / name).write_text(text + "\n", encoding="utf-8", newline="\n")
