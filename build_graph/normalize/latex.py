"""LaTeX math in abstracts, rendered as readable Unicode text.

arXiv abstracts carry ``$3\\times$``, ``$10^{32}$`` and ``$17\\%$``. The site has
no JavaScript math library (it must work offline and stay light), so the
common notation is turned into text: ``3×``, ``10³²``, ``17%``. A ``$...$``
span is only treated as math when it looks like math (a backslash, ``^``,
``_`` or braces, or a lone symbol or variable), so ``costs $5 and $10`` is left
alone. Unknown commands lose their backslash but keep their name, so nothing
is silently dropped.
"""

from __future__ import annotations

import re
import unicodedata

SYMBOLS = {
    "times": "×", "cdot": "·", "pm": "±", "mp": "∓", "approx": "≈", "sim": "~", "simeq": "≃",
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "ll": "≪", "gg": "≫",
    "infty": "∞", "to": "→", "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒",
    "leftrightarrow": "↔", "ldots": "…", "dots": "…", "cdots": "⋯", "in": "∈", "notin": "∉",
    "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩", "forall": "∀", "exists": "∃",
    "sum": "∑", "prod": "∏", "int": "∫", "partial": "∂", "nabla": "∇", "sqrt": "√",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ",
    "Lambda": "Λ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "log": "log", "ln": "ln", "max": "max", "min": "min", "exp": "exp",
    "%": "%", "$": "$", "&": "&", "#": "#", "_": "_", "{": "{", "}": "}",
    ",": "\u2009", ";": " ", ":": " ", "!": "", " ": " ", "quad": " ", "qquad": "  ",
}
WRAPPERS = {"text", "textrm", "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "textbf", "textit",
            "emph", "mathcal", "mathbb", "operatorname", "boldsymbol", "bm"}
SUPERSCRIPT = str.maketrans("0123456789+-=()niTkx", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀᵏˣ")
SUBSCRIPT = str.maketrans("0123456789+-=()ijknmx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ᵢⱼₖₙₘₓ")

_MATH = re.compile(r"(?<!\\)\$([^$\n]{1,200}?)(?<!\\)\$")
_COMMAND = re.compile(r"\\([A-Za-z]+|[%$&#_{},;:! ])")
_WRAPPED = re.compile(r"\\(" + "|".join(sorted(WRAPPERS)) + r")\s*\{([^{}]*)\}")
_SCRIPT = re.compile(r"([\^_])(\{([^{}]*)\}|([A-Za-z0-9+\-]))")


def _looks_like_math(inner: str) -> bool:
    if any(c in inner for c in "\\^_{}"):
        return True
    stripped = inner.strip()
    return len(stripped) <= 3 and " " not in stripped


def _script(match: re.Match) -> str:
    mark, body = match.group(1), match.group(3) if match.group(3) is not None else match.group(4)
    table = SUPERSCRIPT if mark == "^" else SUBSCRIPT
    if all(ord(c) in table for c in body):
        return body.translate(table)
    return mark + ("(" + body + ")" if len(body) > 1 else body)


def render_math(inner: str) -> str:
    text = inner
    for _ in range(3):                       # nested wrappers: \mathbf{\mathrm{x}}
        text = _WRAPPED.sub(lambda m: m.group(2), text)
    text = re.sub(r"\\sqrt\s*\{([^{}]*)\}", lambda m: "√" + m.group(1), text)
    text = re.sub(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", lambda m: f"{m.group(1)}/{m.group(2)}", text)
    text = _COMMAND.sub(lambda m: SYMBOLS.get(m.group(1), m.group(1)), text)
    text = _SCRIPT.sub(_script, text)
    text = text.replace("{", "").replace("}", "")
    return re.sub(r"\s+", " ", text).strip() if text.strip() else text


def render_latex(text: str) -> str:
    """Replace math spans in ``text`` by readable Unicode; leave the rest as is."""
    def replace(match: re.Match) -> str:
        inner = match.group(1)
        return render_math(inner) if _looks_like_math(inner) else match.group(0)
    return _MATH.sub(replace, text)


# --- BibTeX text: accents, special letters, escapes and grouping braces ------------
#
# BibTeX fields are LaTeX source, not just math: ``Kydl\'{\i}\v{c}ek``,
# ``{RDMA}`` (braces that only protect case), ``\&``. ``bibtex_text`` turns
# them into plain Unicode. Math spans (``$...$``) are left for ``render_latex``,
# which the normaliser applies to every title and abstract, so the two layers
# never fight over the same characters. It also reads back the escapes that
# ``build_graph/bibtex.py`` writes (``\textbraceleft{}``, ``\textbackslash{}``),
# which is what makes ``assets/atlas.bib`` re-import to the same text.

ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
    "r": "\u030a", "d": "\u0323", "b": "\u0331", "t": "\u0361",
}
LETTERS = {
    "i": "ı", "j": "ȷ", "ss": "ß", "SS": "SS", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å",
    "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "l": "ł", "L": "Ł", "dh": "ð", "DH": "Ð",
    "th": "þ", "TH": "Þ", "ng": "ŋ", "NG": "Ŋ",
    "textbraceleft": "{", "textbraceright": "}", "textbackslash": "\\",
    "textasciicircum": "^", "textasciitilde": "~", "textunderscore": "_", "textendash": "–",
    "textemdash": "—", "textquoteright": "’", "textquoteleft": "‘", "textquotedblleft": "“",
    "textquotedblright": "”", "textbar": "|", "textless": "<", "textgreater": ">",
    "textregistered": "®", "texttrademark": "™", "textdegree": "°", "copyright": "©",
    "S": "§", "P": "¶", "dag": "†", "ddag": "‡", "ldots": "…", "dots": "…", "textellipsis": "…",
    "LaTeX": "LaTeX", "TeX": "TeX", "BibTeX": "BibTeX", "noopsort": "",
}
_ESCAPED = {"%": "%", "&": "&", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}", " ": " ",
            ",": "\u2009", "\\": " ", "-": ""}
_BIB_WRAPPERS = frozenset(WRAPPERS | {"textsc", "textsf", "texttt", "textup", "textsl", "url",
                                      "mbox", "hbox", "textnormal", "protect"})
_TOKEN = re.compile(
    r"""\\(?P<mark>[`'^"~=.])\s*(?P<base>\{\\?[A-Za-z]\}|\\?[A-Za-z])"""
    r"|\\(?P<wmark>[uvHckrdbt])(?:\s*\{(?P<wbase>\\?[A-Za-z])\}|\s+(?P<sbase>\\?[A-Za-z]))"
    r"|\\(?P<command>[A-Za-z]+)(?:\s*\{\}|\s?)"
    r"|\\(?P<escaped>.)"
    r"|(?P<brace>[{}])"
    r"|(?P<tilde>~)", re.DOTALL)
_DOTLESS = {"\\i": "i", "\\j": "j"}


def _token(match: re.Match) -> str:
    mark = match.group("mark") or match.group("wmark")
    if mark:
        base = (match.group("base") or match.group("wbase") or match.group("sbase")).strip("{}")
        base = _DOTLESS.get(base, LETTERS.get(base[1:], base[1:]) if base.startswith("\\") else base)
        return unicodedata.normalize("NFC", base + ACCENTS[mark])
    command = match.group("command")
    if command:
        if command in LETTERS:
            return LETTERS[command]
        if command in _BIB_WRAPPERS:
            return ""
        return command + (" " if match.group(0)[-1:].isspace() else "")   # unknown: keep its name
    if match.group("escaped") is not None:
        char = match.group("escaped")
        return _ESCAPED.get(char, char)
    if match.group("brace"):
        return ""
    return " "


def _text_outside_math(text: str) -> str:
    return _TOKEN.sub(_token, text)


_SPLIT_MATH = re.compile(r"((?<!\\)\$[^$]*(?<!\\)\$)")


def bibtex_text(text: str) -> str:
    """Plain Unicode for a BibTeX field value; ``$...$`` math is kept for ``render_latex``.

    ``~`` is BibTeX's non-breaking space and becomes a space; ``--`` stays as
    written (titles use it for a dash, and the atlas writes titles back verbatim).
    """
    if not any(c in text for c in "\\{}~$"):        # plain text: most fields of most files
        return " ".join(text.split())
    parts = _SPLIT_MATH.split(text)
    rendered = [part if i % 2 else _text_outside_math(part) for i, part in enumerate(parts)]
    return " ".join("".join(rendered).replace("\u00a0", " ").split())
