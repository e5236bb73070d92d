"""Tagging: the matching rules, the evidence sentences, and accuracy on the hand-labelled seed papers."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from build_graph.devtools.corpus_eval import main as corpus_eval_main
from build_graph.curation import REFERENCE_DIR
from build_graph.suggest import format_suggestions, phrases, suggest
from build_graph.model import Technique
from build_graph.tagging import Tagger, find_term, incidental, normalise, split_sentences
from build_graph.taxonomy import Taxonomy, load_taxonomy
from seed_texts import seed_papers

ROOT = Path(__file__).resolve().parent.parent
GOLD = Path(__file__).resolve().parent / "fixtures" / "gold_techniques.yaml"

# A small taxonomy of our own, so that the matching rules are tested
# independently of what contributors do to data/taxonomy.yaml.
MINI = """\
areas:
  - id: things
    name: Things
    description: Everything in these tests.
techniques:
  - id: moe
    name: Mixture-of-experts
    parent: things
    description: Experts chosen per token.
    aliases: [mixture-of-experts]
    acronyms: [MoE]
    examples: ["A mixture-of-experts (MoE) layer."]
  - id: pipelines
    name: Pipeline parallelism
    parent: things
    description: Layers on different devices.
    aliases: [pipeline schedule, data parallelism]
    examples: ["A pipeline schedule with data parallelism."]
  - id: hierarchy
    name: Memory hierarchy
    parent: things
    description: Levels of memory.
    aliases: [memory hierarchy, co-design]
    examples: ["The memory hierarchy needs co-design."]
  - id: pim
    name: Processing in memory
    parent: things
    description: Compute next to memory.
    aliases: [processing-in-memory]
    acronyms: [PIM]
    examples: ["Processing-in-memory (PIM) chips."]
  - id: quant
    name: Quantization
    parent: things
    description: Fewer bits per value.
    aliases: [quantization]
    examples: ["Quantization to four bits."]
  - id: he
    name: Homomorphic encryption
    parent: things
    description: Computing on ciphertexts.
    aliases: [homomorphic encryption]
    examples: ["Homomorphic encryption is slow."]
  - id: crypto
    name: Cryptography
    parent: things
    description: Ciphers in general.
    aliases: [encryption]
    examples: ["Encryption protects data."]
  - id: dcn
    name: Datacenter networks
    parent: things
    description: Networks inside datacenters.
    aliases: [datacenter network]
    acronyms: [DCN]
    examples: ["A datacenter network (DCN)."]
  - id: gc
    name: Gradient compression
    parent: things
    description: Smaller gradients.
    aliases: [gradient compression]
    examples: ["Gradient compression saves bandwidth."]
"""


@pytest.fixture(scope="module")
def mini(tmp_path_factory) -> Tagger:
    path = tmp_path_factory.mktemp("mini") / "taxonomy.yaml"
    path.write_text(MINI, encoding="utf-8")
    return Tagger(load_taxonomy(path))


@pytest.fixture(scope="module")
def real() -> Tagger:
    return Tagger(load_taxonomy(REFERENCE_DIR / "taxonomy.yaml"))


def _ids(tags) -> list[str]:
    return [t.technique for t in tags]


# -- matching rules -----------------------------------------------------------

MATCHING = [
    # (case, title, abstract, expected techniques, expected matched text of the first tag)
    ("plural-s", "Better pipeline schedules", "", ["pipelines"], "pipeline schedules"),
    ("plural-ies", "Deep memory hierarchies", "", ["hierarchy"], "memory hierarchies"),
    ("hyphen-alias-space-text", "Sparse mixture of experts at scale", "", ["moe"], "mixture of experts"),
    ("hyphen-alias-hyphen-text", "Mixture-of-Experts at scale", "", ["moe"], "Mixture-of-Experts"),
    # ``matched`` is cut from the original text, not from the lower-cased copy aliases are matched on.
    ("matched-keeps-capitals", "Mixture-Of-Experts Routing", "", ["moe"], "Mixture-Of-Experts"),
    ("matched-keeps-unicode-hyphens", "Mixture\u2010Of\u2011Experts Routing", "", ["moe"],
     "Mixture\u2010Of\u2011Experts"),
    ("unicode-hyphen-dropped", "Hardware co\u2013design", "", ["hierarchy"], "co\u2013design"),
    ("dotted-capital-i-before-alias", "\u0130\u0130 Mixture-Of-Experts", "", ["moe"], "Mixture-Of-Experts"),
    ("space-alias-hyphen-text", "Faster data-parallelism", "", ["pipelines"], "data-parallelism"),
    ("hyphen-dropped", "Hardware codesign", "", ["hierarchy"], "codesign"),
    ("case-insensitive-alias", "PROCESSING-IN-MEMORY CHIPS", "", ["pim"], "PROCESSING-IN-MEMORY"),
    ("acronym-plural", "Routing in MoEs", "", ["moe"], "MoEs"),
    ("acronym-case-sensitive", "A moe and a pim walk in", "", [], None),
    ("acronym-whole-token", "MoEx, SPIM and PIMO", "", [], None),
    ("acronym-with-suffix-hyphen", "PIM-based graph analytics", "", ["pim"], "PIM"),
    ("whole-words-only", "Dequantization kernels and requantizations", "", [], None),
    ("not-after-hyphenated-prefix", "Inter-datacenter networks", "", [], None),
    ("not-after-unicode-hyphenated-prefix", "Inter\u2010datacenter networks", "", [], None),
    ("longer-match-of-other-technique-wins", "Fast homomorphic encryption", "", ["he"], "homomorphic encryption"),
    ("other-mention-still-counts", "Homomorphic encryption and encryption at rest", "", ["he", "crypto"],
     "Homomorphic encryption"),
    ("acronyms-ignored-in-all-caps-title", "GRAPH LEARNING ON DCN AND PIM HARDWARE", "", [], None),
    ("acronym-spelled-out-differently", None,
     "We study the data center network (DCN) and design a digital circuit network. "
     "We propose a new DCN scheduler. The DCN works.", [], None),
    ("acronym-spelled-out-by-alias", None,
     "A datacenter network (DCN) carries traffic. We propose a DCN scheduler.", ["dcn"], "datacenter network"),
]


@pytest.mark.parametrize("case, title, abstract, expected, matched", MATCHING, ids=[m[0] for m in MATCHING])
def test_matching_rules(mini, case, title, abstract, expected, matched):
    tags = mini.tag(title, abstract)
    assert _ids(tags) == expected
    if matched:
        assert tags[0].matched == matched


def test_normalise_keeps_every_position():
    assert normalise("Co\u2010Design\u2011And\u2013MoE") == "co-design-and-moe"
    text = "\u0130stanbul \u0130\u0130 Mixture\u2010Of-Experts \u0130"      # "İ".lower() is two characters
    folded = normalise(text)
    assert len(folded) == len(text)
    assert folded.index("mixture-of-experts") == text.index("Mixture\u2010Of-Experts")


# A text and its normalised copy must match alike (acronyms aside, which are case-sensitive):
# Unicode hyphens are hyphens everywhere, and "İ", whose lower case is two characters, shifts nothing.
SAME_AS_NORMALISED = [
    "Sparse Mixture\u2010of\u2010Experts and data\u2011parallelism",
    "Inter\u2010datacenter networks, inter\u2013datacenter networks and a datacenter network",
    "Hardware co\u2011design of the memory\u2013hierarchy",
    "\u0130 mixture-of-experts, \u0130\u0130 homomorphic encryption and \u0130stanbul quantization",
    "\u0130NTER-DATACENTER NETWORKS, MEMORY HIERARCHIES \u0130N CO\u2010DESIGN",
]


@pytest.mark.parametrize("text", SAME_AS_NORMALISED)
def test_text_and_normalised_copy_match_alike(mini, text):
    spans = mini.matched_spans(text)
    assert spans and spans == mini.matched_spans(normalise(text))
    ascii_hyphens = text.translate(str.maketrans("\u2010\u2011\u2013", "---"))
    assert mini.matched_spans(ascii_hyphens) == spans
    tags = mini.tag(text, "")
    assert [t.technique for t in tags] == [t.technique for t in mini.tag(ascii_hyphens, "")]
    for tag in tags:
        assert tag.matched in text          # cut from the original, so it keeps capitals, "İ" and dashes


def test_matched_spans_are_positions_in_the_original_text(mini):
    text = "\u0130\u0130 Fast Homomorphic Encryption"
    assert [text[a:b] for a, b in mini.matched_spans(text)] == ["Homomorphic Encryption"]


def test_areas_are_never_tagged(mini):
    assert "things" not in _ids(mini.tag("Things about things", "Things."))


def test_order_follows_the_taxonomy_not_the_text(mini):
    tags = mini.tag("Quantization, then processing-in-memory, then mixture-of-experts", "")
    assert _ids(tags) == ["moe", "pim", "quant"]


def test_title_wins_over_abstract(mini):
    tags = mini.tag("Quantization for all", "We propose quantization. Quantization helps.")
    assert tags[0].field == "title" and tags[0].evidence == "Quantization for all"


# -- evidence -----------------------------------------------------------------

EVIDENCE = [
    ("abbreviation-eg", "Models run on accelerators (e.g. TPUs). We propose quantization for them, e.g. to 4 bits. "
     "It works.", "We propose quantization for them, e.g. to 4 bits."),
    ("decimal", "Prior systems reach 3.9x. We propose quantization reaching 2.5x on Fig. 3 workloads. End.",
     "We propose quantization reaching 2.5x on Fig. 3 workloads."),
    ("et-al-and-vs", "Smith et al. tried it. This paper applies quantization vs. pruning. Done.",
     "This paper applies quantization vs. pruning."),
    ("glued-sentences", "Training is slow.We propose quantization here.It helps.", "We propose quantization here."),
    ("question-and-newlines", "Why?\nWe propose\n  quantization. Yes.", "We propose quantization."),
]


@pytest.mark.parametrize("case, abstract, sentence", EVIDENCE, ids=[e[0] for e in EVIDENCE])
def test_evidence_is_the_whole_sentence(mini, case, abstract, sentence):
    (tag,) = mini.tag(None, abstract)
    assert (tag.technique, tag.field, tag.evidence) == ("quant", "abstract", sentence)


@pytest.mark.parametrize("text, sentences", [
    ("We use e.g. caches. It works.", ["We use e.g. caches.", "It works."]),
    ("A 3.9x speedup, i.e. faster. Next.", ["A 3.9x speedup, i.e. faster.", "Next."]),
    ("See Fig. 3 and Eq. 2 here. Next.", ["See Fig. 3 and Eq. 2 here.", "Next."]),
    ("Smith et al. show it. Then vs. that.", ["Smith et al. show it.", "Then vs. that."]),
    ("Misguided. E.g., it has been shown. T. S. Ng agrees.", ["Misguided.", "E.g., it has been shown.",
                                                              "T. S. Ng agrees."]),
    ('He said "stop." Then left!', ['He said "stop."', "Then left!"]),
    ("As of Oct. 2022, many. Version 2.1 ships.", ["As of Oct. 2022, many.", "Version 2.1 ships."]),
    ("", []),
])
def test_sentence_splitter(text, sentences):
    assert split_sentences(text) == sentences


# -- incidental single mentions -------------------------------------------------

@pytest.mark.parametrize("abstract, tagged", [
    ("We propose a new scheduler. It speeds up a quantization workload by 3x.", False),
    ("Existing systems rely on quantization. We propose a new scheduler.", False),
    ("Hardware keeps growing (e.g., quantization units). We propose a new scheduler.", False),
    ("We propose a scheduler that uses quantization. It is fast.", True),
    ("Our scheduler relies on quantization to fit models. It speeds things up by 3x.", True),
    ("Quantization matters. It speeds up models by 3x with quantization.", True),
    ("Many gradient compression (GC) algorithms have been proposed. GC is slow. We fix GC.", True),
])
def test_single_incidental_mentions_are_not_tagged(mini, abstract, tagged):
    tags = mini.tag(None, abstract)
    assert bool({"quant", "gc"} & set(_ids(tags))) is tagged


def test_incidental_filter_can_be_switched_off(tmp_path):
    path = tmp_path / "taxonomy.yaml"
    path.write_text(MINI, encoding="utf-8")
    tagger = Tagger(load_taxonomy(path), skip_incidental=False)
    assert _ids(tagger.tag(None, "It speeds up a quantization workload by 3x.")) == ["quant"]


def test_incidental_cues():
    assert incidental("Our evaluation shows 2x gains on MoE models.", 30)
    assert not incidental("In this paper, we present a MoE system.", 30)
    assert incidental("Accelerators (e.g., TPUs) are common.", 19)
    assert not incidental("TPUs are common.", 0)



EXAMPLE_LISTS = [
    # (sentence, the mentioned word, incidental?)
    ("Accelerators such as GPUs, TPUs, FPGAs, and custom ASICs are deployed to train models.", "FPGAs", True),
    ("Accelerators such as GPUs, TPUs, FPGAs, and custom ASICs are deployed to train models.", "custom", True),
    ("Accelerators such as GPUs, TPUs, FPGAs, and custom ASICs are deployed to train deep models.", "deep", False),
    ("Workloads, e.g., databases, key-value stores or web servers, share the host.", "key-value", True),
    ("Apps including video analytics, AR, and speech share one GPU.", "video", True),
    ("Systems such as Spark and Flink process streams.", "Spark", False),      # two items: not a list
    ("Quantization, pruning, and distillation shrink models.", "pruning", False),   # no "such as"
]


@pytest.mark.parametrize("sentence, word, expected", EXAMPLE_LISTS)
def test_one_item_of_a_list_of_examples_is_incidental(sentence, word, expected):
    assert incidental(sentence, sentence.index(word)) is expected


# -- the hand-labelled seed papers ----------------------------------------------

@pytest.fixture(scope="module")
def rules() -> Tagger:
    return Tagger(load_taxonomy(REFERENCE_DIR / "taxonomy.yaml"), model=None)


@pytest.fixture(scope="module")
def seed_tags(real):
    return {key: real.tag(title, abstract) for key, title, abstract in seed_papers()}


@pytest.fixture(scope="module")
def seed_rule_tags(rules):
    return {key: rules.tag(title, abstract) for key, title, abstract in seed_papers()}


def test_seed_reader_finds_all_51_papers():
    papers = seed_papers()
    assert len(papers) == 51
    gold = yaml.safe_load(GOLD.read_text(encoding="utf-8"))
    assert [k for k, _, _ in papers] == list(gold)
    assert all(abstract for _, _, abstract in papers)


def test_gold_labels_exist_in_the_taxonomy(real):
    gold = yaml.safe_load(GOLD.read_text(encoding="utf-8"))
    for key, entry in gold.items():
        assert entry["techniques"], key
        for tid in entry["techniques"]:
            assert tid in real.order, (key, tid)


# (tagger, precision floor, recall floor). The gold labels are lenient ("what a
# reader would say the paper is about or substantively uses"), the fixtures the
# ranker learnt from are strict (only what the contribution is about), so the
# ranker drops setting techniques the gold set counts: on these 51 papers the
# phrase rules score 0.952 / 0.814 and the ranker 0.910 / 0.766 (docs/tagging.md,
# "Round 4" and "Round 5"); its recall floor is 0.75, not 0.8, for that reason.
GOLD_FLOORS = [("rules", 0.9, 0.8), ("ranker", 0.9, 0.75)]


@pytest.mark.parametrize("which, min_precision, min_recall", GOLD_FLOORS, ids=[g[0] for g in GOLD_FLOORS])
def test_precision_and_recall_on_the_gold_set(seed_tags, seed_rule_tags, which, min_precision, min_recall):
    gold = yaml.safe_load(GOLD.read_text(encoding="utf-8"))
    tagged = seed_tags if which == "ranker" else seed_rule_tags
    tp = fp = fn = 0
    for key, tags in tagged.items():
        got, want = set(_ids(tags)), set(gold[key]["techniques"])
        tp, fp, fn = tp + len(got & want), fp + len(got - want), fn + len(want - got)
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print(f"\ngold set ({which}): {len(tagged)} papers, {tp + fn} labels; tagger: {tp + fp} tags; "
          f"TP {tp}, FP {fp}, FN {fn}; micro precision {precision:.3f}, recall {recall:.3f}")
    assert precision >= min_precision
    assert recall >= min_recall


def test_every_seed_paper_gets_a_technique(seed_tags):
    assert [key for key, tags in seed_tags.items() if not tags] == []


def test_every_tag_carries_its_evidence(seed_tags):
    for tags in seed_tags.values():
        for tag in tags:
            assert tag.field in ("title", "abstract")
            assert tag.matched and tag.matched.lower() in tag.evidence.lower()


SHARED = [
    ("003_582fbc6f8791162a.txt#16", "003_582fbc6f8791162a.txt#17", "mixture-of-experts"),     # Tutel, MegaBlocks
    ("003_582fbc6f8791162a.txt#6", "003_582fbc6f8791162a.txt#2", "federated-learning"),       # FedTree, FLINT
    ("003_582fbc6f8791162a.txt#22", "004_d682a2c69557955b.txt#3", "gradient-compression"),   # Cupcake, utility of GC
    ("004_d682a2c69557955b.txt#1", "003_582fbc6f8791162a.txt#3", "quantization"),            # ULPPACK, ViT kernels
    ("003_582fbc6f8791162a.txt#20", "003_582fbc6f8791162a.txt#25", "activation-checkpointing"),
    ("003_582fbc6f8791162a.txt#23", "003_582fbc6f8791162a.txt#12", "graph-neural-networks"),  # HyperGef, AdaQP
]


@pytest.mark.parametrize("first, second, technique", SHARED, ids=[s[2] for s in SHARED])
def test_related_seed_papers_share_a_technique(seed_tags, first, second, technique):
    assert technique in _ids(seed_tags[first])
    assert technique in _ids(seed_tags[second])


def test_tagging_is_deterministic_and_fast(real):
    papers = seed_papers()
    first = [real.tag(t, a) for _, t, a in papers]
    start = time.perf_counter()
    for _ in range(10):
        again = [real.tag(t, a) for _, t, a in papers]
    per_paper = (time.perf_counter() - start) / (10 * len(papers))
    assert again == first
    assert per_paper < 0.005      # a generous bound for busy CI machines; typically well under 1 ms


def _variants(text: str) -> list[str]:
    dashes = str.maketrans("-", "\u2010")
    return [text, text.title(), text.translate(dashes), text.replace("-", "\u2013"),
            text.replace(" ", " \u0130\u0130 ", 1).upper(), "x-" + text, text.replace("-", "")]


def test_find_term_and_the_tagger_agree_on_every_real_term(real):
    """The taxonomy check (``find_term``) and the tagger's index find the same first match.

    Each alias and acronym of the real taxonomy gets a tagger of its own, so no
    other technique's longer match hides it, and both are run on the technique's
    examples and counterexamples, each also in title case, with Unicode
    hyphens, in capitals after an "İ", glued to "x-" and without hyphens, and on
    the next technique's examples.
    """
    taxonomy = real.taxonomy
    leaves = taxonomy.leaves()
    checked = matched = 0
    for i, tech in enumerate(leaves):
        texts = [v for t in taxonomy.examples[tech.id] + taxonomy.counterexamples[tech.id] for v in _variants(t)]
        texts += taxonomy.examples[leaves[(i + 1) % len(leaves)].id]
        for term, acronym in [(a, False) for a in tech.aliases] + [(a, True) for a in tech.acronyms]:
            lone = Technique("t", "T", None, "One term.", aliases=[] if acronym else [term],
                             acronyms=[term] if acronym else [])
            tagger = Tagger(Taxonomy(techniques={"t": lone}))
            for text in texts:
                hit = find_term(term, text, acronym)
                spans = tagger.matched_spans(text)
                assert (hit[:2] if hit else None) == (spans[0] if spans else None), (term, text)
                checked, matched = checked + 1, matched + bool(hit)
    assert checked > 20000 and matched > 10000


# -- suggest and corpus_eval ------------------------------------------------------

def test_phrases_are_trimmed_and_stay_inside_clauses():
    found = phrases("We study the tail latency of RPCs, and learned indexes.")
    assert "tail latency" in found and "learned indexes" in found
    assert "the tail latency" not in found and "rpcs and learned" not in found
    assert "we study" not in found


def test_suggest_finds_shared_unknown_phrases(mini):
    texts = [("paper A", "Learned indexes beat B-trees. We use quantization."),
             ("paper B", "Learned indexes are small. Quantization again."),
             ("paper C", "Nothing shared here, only quantization.")]
    found = suggest(texts, mini, min_papers=2)
    assert [s.phrase for s in found] == ["learned indexes"]
    assert found[0].papers == 2 and found[0].examples == ("paper A", "paper B")
    assert "learned indexes" in format_suggestions(found)
    assert suggest(texts, mini, min_papers=3) == []
    assert "No candidate" in format_suggestions([])


def test_suggest_skips_phrases_inside_known_aliases(mini):
    texts = [("A", "Fast homomorphic encryption schemes."), ("B", "Cheap homomorphic encryption schemes.")]
    assert [s.phrase for s in suggest(texts, mini)] == []
    assert mini.matched_spans("Fast homomorphic encryption schemes.") == [(5, 27)]


def test_corpus_eval_reports_and_samples(tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    rows = [{"title": f"Paper {i} on quantization", "authors": [], "abstract": "We propose quantization.",
             "venue": "X", "year": 2024} for i in range(30)]
    rows.append({"title": "Unrelated", "authors": [], "abstract": "Nothing to see.", "venue": "X", "year": 2024})
    corpus.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    sample = tmp_path / "sample.md"
    taxonomy = tmp_path / "taxonomy.yaml"
    taxonomy.write_text(MINI, encoding="utf-8")
    args = [str(corpus), "--taxonomy", str(taxonomy), "--sample", "5", "--sample-out", str(sample), "--repeat", "1"]
    assert corpus_eval_main(args) == 0
    out = capsys.readouterr().out
    assert "coverage (>=1 tag):     30/31 = 96.8%" in out
    first = sample.read_text(encoding="utf-8")
    assert first.count("| quant |") == 5
    corpus_eval_main(args)
    assert sample.read_text(encoding="utf-8") == first          # seeded: the same sample every time


def test_corpus_eval_rejects_bad_json_with_line(tmp_path):
    from build_graph.errors import ParseError
    corpus = tmp_path / "bad.jsonl"
    corpus.write_text('{"title": "ok", "abstract": ""}\n{not json\n', encoding="utf-8")
    with pytest.raises(ParseError, match=r"bad.jsonl:2"):
        corpus_eval_main([str(corpus), "--sample-out", str(tmp_path / "s.md")])


# -- matching with its sense, strength, covered_by, require_strong -------------------

SENSE = """\
areas:
  - id: things
    name: Things
    description: Everything in these tests.
techniques:
  - id: quant
    name: Quantization
    parent: things
    description: Fewer bits per value.
    aliases: [quantization, low-bit]
    context: [weights, bits, model]
    context_terms: [quantization]
    examples: ["Quantization of the weights to four bits; low-bit kernels."]
    counterexamples: ["Music scores are cleaned by quantization and by removing voices."]
  - id: repl
    name: Replication
    parent: things
    description: Copies of data on many machines.
    aliases: [replication, replica]
    exclude: [replica exchange]
    examples: ["Each replica of the log is kept by replication."]
    counterexamples: ["Replica exchange Monte Carlo swaps the temperature of each replica."]
  - id: serving
    name: Model serving
    parent: things
    description: Answering inference requests.
    aliases: [model serving]
    covered_by: [llm-serving]
    examples: ["Model serving answers requests."]
  - id: llm-serving
    name: LLM serving
    parent: serving
    description: Serving large language models.
    aliases: [LLM serving]
    examples: ["LLM serving batches tokens."]
  - id: cnn
    name: Vision models
    parent: things
    description: Convolutional networks for images.
    aliases: [image classification]
    require_strong: true
    examples: ["Image classification labels images."]
"""


@pytest.fixture(scope="module")
def sensed(tmp_path_factory) -> Tagger:
    path = tmp_path_factory.mktemp("sense") / "taxonomy.yaml"
    path.write_text(SENSE, encoding="utf-8")
    return Tagger(load_taxonomy(path), skip_incidental=False)


SENSE_CASES = [
    # (case, title, abstract, expected technique ids)
    ("context-word-near", None, "We apply quantization to the model weights.", ["quant"]),
    ("no-context-word", None, "Scores are cleaned by quantization and by removing voices.", []),
    ("context-word-too-far", None,
     "Quantization is one of eleven steps applied to scores before anything else happens here at all; "
     "the weights come later.", []),
    ("context-free-term", None, "Low-bit kernels run fast.", ["quant"]),
    ("title-finds-context-in-abstract", "Fast Quantization", "We shrink the model by four times.", ["quant"]),
    ("title-without-context", "Fast Quantization", "Music scores get cleaner.", []),
    ("excluded-phrase", None, "Replica exchange runs one replica per temperature.", []),
    ("exclusion-is-local", None,
     "Replica exchange is a sampling method used in physics and in chemistry for many years now. "
     "Our store keeps each replica consistent by replication.", ["repl"]),
    ("covered-by-more-specific", "LLM serving and model serving", "", ["llm-serving"]),
    ("not-covered-alone", "Model serving at scale", "", ["serving"]),
    ("require-strong-single-sentence", "Low-bit kernels", "We evaluate on image classification.", ["quant"]),
    ("require-strong-never-leaves-a-paper-bare", None, "We evaluate on image classification.", ["cnn"]),
    ("require-strong-two-sentences", None,
     "We study image classification. Image classification needs many images.", ["cnn"]),
    ("require-strong-title", "Faster Image Classification", "", ["cnn"]),
]


@pytest.mark.parametrize("case, title, abstract, expected", SENSE_CASES, ids=[c[0] for c in SENSE_CASES])
def test_matching_with_its_sense(sensed, case, title, abstract, expected):
    assert _ids(sensed.tag(title, abstract)) == expected


STRENGTH = [
    # (case, title, abstract, strength of the "quant" tag)
    ("title", "Low-bit Kernels", "Nothing else.", "strong"),
    ("three-sentences", None, "Low-bit kernels are fast. Low-bit weights are small. Low-bit math is hard.", "strong"),
    ("contribution-sentence", None, "We build low-bit kernels. They are fast.", "strong"),
    ("this-paper", None, "This paper presents low-bit kernels. They are fast.", "strong"),
    ("two-sentences-in-passing", None, "Low-bit kernels are fast. Low-bit weights are small.", "weak"),
    ("same-sentence-twice", None, "Low-bit kernels and low-bit weights.", "weak"),
    ("repeated-sentence-text", None, "Low-bit kernels are fast. Low-bit kernels are fast. Low-bit kernels are fast.",
     "weak"),
    ("one-sentence", None, "Servers run low-bit kernels. They are fast.", "weak"),
]


@pytest.mark.parametrize("case, title, abstract, strength", STRENGTH, ids=[s[0] for s in STRENGTH])
def test_strength_rule(sensed, case, title, abstract, strength):
    tags = {t.technique: t for t in sensed.tag(title, abstract)}
    assert tags["quant"].strength == strength


def test_held_back_single_mentions_are_weak(sensed):
    (tag,) = sensed.tag(None, "We evaluate on image classification.")
    assert tag.technique == "cnn" and tag.strength == "weak"


def test_strength_on_the_seed_papers(seed_rule_tags):
    """The phrase rules' strength: a title tag is always strong (the ranker's is its probability: test_ranker.py)."""
    tags = [t for ts in seed_rule_tags.values() for t in ts]
    assert {t.strength for t in tags} == {"strong", "weak"}
    assert all(t.strength == "strong" for t in tags if t.field == "title")
