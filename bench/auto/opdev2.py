#!/usr/bin/env python3
"""opdev2: a development set of operator questions over the MetaQA movie knowledge base.

What it is
    A generator of questions that need an operation on top of a lookup in the MetaQA "full" KB
    (kb.txt, triples `head|relation|tail`): counting, counting distinct collaborators, finding the
    most frequent collaborator, earliest/latest film, year filters, yes/no comparisons of two
    counts, which of two films is older/newer, and small arithmetic on counts. Eight types:
    count, distinct_count, group_count, argmax_argmin, filter_literal, compare_sets,
    compare_entities, arithmetic. Every gold answer is computed by this script from the triples
    alone (exact kb.txt labels, a number string such as "7", or "yes"/"no").

What it is for
    Tuning. This is a DEVELOPMENT set: use it to tune and debug the question-answering system.
    The separate check set bench/ownwords is never tuned on; it is kept for checking only.

Who wrote it, and how
    A helper session wrote this file, including every question wording, in its own everyday English
    (questions, commands, bare fragments, some lower case, some without a question mark).
    Independence rule followed while writing it: nothing under core/, batch-jobs/, udfs/ or bench/
    of the project was opened or read (other than writing this file), no MetaQA question file
    (qa_*.txt) and nothing in erqa-sample/ was read, and no git log/grep was used on the
    repository. The only inputs consulted were shared/data/README.md and shared/data/metaqa/kb.txt.

Command (from the project root)
    python3 bench/auto/opdev2.py --kb ../shared/data/metaqa/kb.txt --out <file.jsonl> [--seed 5150]

Output: one JSON object per line
    {"qid": "opdev2-<type>-<nnn>", "question": ..., "answers": [sorted strings], "type": <type>}
Deterministic for a given seed (a single random.Random(seed); sorted collections before sampling).
At the end it prints, per type, the number of questions and of distinct wording templates used,
and exits 1 if any type has fewer than 15 questions.
"""
import argparse
import json
import random
import sys
from collections import Counter, defaultdict

PERSON_RELS = ("directed_by", "written_by", "starred_actors")
TYPES = ("count", "distinct_count", "group_count", "argmax_argmin", "filter_literal",
         "compare_sets", "compare_entities", "arithmetic")
PER_TYPE = 24
MIN_FILMS, MAX_FILMS = 2, 12

# Verb families per relation; one index is drawn per question so the forms agree.
VERBS = {
    "directed_by": dict(
        base=["direct", "make", "helm"], past=["directed", "made", "helmed"],
        part=["directed", "made", "helmed"], pres3=["directs", "makes", "helms"],
        passive=["directed by", "made by", "helmed by"], credit=["directing", "directing", "directorial"],
        role="director", roles=["directors", "filmmakers", "directors"],
        tverb=["directed", "made", "helmed"]),
    "written_by": dict(
        base=["write", "pen", "script"], past=["wrote", "penned", "scripted"],
        part=["written", "penned", "scripted"], pres3=["writes", "pens", "scripts"],
        passive=["written by", "penned by", "scripted by"], credit=["writing", "writing", "screenwriting"],
        role="writer", roles=["writers", "screenwriters", "writers"],
        tverb=["wrote", "penned", "scripted"]),
    "starred_actors": dict(
        base=["star in", "act in", "appear in"], past=["starred in", "acted in", "appeared in"],
        part=["starred in", "acted in", "appeared in"], pres3=["stars in", "acts in", "appears in"],
        passive=["starring", "featuring", "with"], credit=["acting", "acting", "acting"],
        role="actor", roles=["actors", "cast members", "actors"],
        tverb=["starred in", "acted in", "appeared in"]),
}
FILM = ["film", "movie", "picture", "movie", "film"]
NUM_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

# ---------------------------------------------------------------- wording templates (own words)
T_COUNT = [
    ("c1", "how many {films} did {p} {base}?", None),
    ("c2", "number of {films} {passive} {p}", None),
    ("c3", "count the {films} {p} {past}", None),
    ("c4", "How many {films} has {p} {part}?", None),
    ("c5", "tell me how many {films} {p} {past}", None),
    ("c6", "what's the total number of {films} {passive} {p}?", None),
    ("c7", "in how many {films} did {p} {bare}", ("starred_actors",)),
    ("c8", "give me a count of the {films} {p} has {part}", None),
    ("c9", "how many {films} {passive} {p} are there", None),
]
T_DISTINCT = [
    ("d1", "how many different {tns} has {p} worked with?"),
    ("d2", "how many distinct {tns} {tverb} {films} {spassive} {p}"),
    ("d3", "{p} has worked with how many different {tns}"),
    ("d4", "how many unique {tns} are there across all the {films} {spassive} {p}?"),
    ("d5", "give me the number of distinct {tns} who {tverb} {p}'s {films}"),
    ("d6", "with how many different {tns} did {sr} {p} collaborate?"),
    ("d7", "count the different {tns} of the {films} {p} {spast}"),
    ("d8", "number of {tns} {sr} {p} has collaborated with"),
]
T_GROUP = [
    ("g1", "which {tn} did {p} work with most often?"),
    ("g2", "who is the {tn} that {p} has made the most {films} with"),
    ("g3", "{tn} that {p} collaborated with most"),
    ("g4", "which {tn} {tverb} the most {films} {spassive} {p}?"),
    ("g5", "which {tn} did {sr} {p} team up with the most"),
    ("g6", "name the {tn} that {p} worked with the most times"),
    ("g7", "most frequent {tn} in {p}'s {films}"),
    ("g8", "Who was {p}'s most frequent {tn} collaborator?"),
]
T_ARG = [
    ("a1", "what was the {sup} {film} {p} {past}?"),
    ("a2", "{p}'s {sup} {film}"),
    ("a3", "which {film} {passive} {p} came out {adv}?"),
    ("a4", "give me the {sup} {film} {passive} {p}"),
    ("a5", "what's the {sup} {film} {p} has {part}"),
    ("a6", "{sup} {film} {passive} {p}"),
    ("a7", "name {p}'s {sup} {film} by release date"),
    ("a8", "which of {p}'s {films} was released {adv}?"),
]
SUP = {"min": ["earliest", "first", "oldest"], "max": ["latest", "most recent", "newest", "last"]}
ADV = {"min": ["first", "earliest"], "max": ["last", "most recently", "latest"]}
T_FILTER = [
    ("f1", "which {films} did {p} {base} {cond}?"),
    ("f2", "list {p}'s {films} released {cond}"),
    ("f3", "{films} {passive} {p} {cond}"),
    ("f4", "what {films} has {p} {part} {cond}"),
    ("f5", "give me the {films} {p} {past} that came out {cond}"),
    ("f6", "{p} {films} {cond}"),
    ("f7", "which of {p}'s {films} came out {cond}?"),
    ("f8", "show me all the {films} {passive} {p} released {cond}"),
]
FILTER_OPS = ("before", "prior to", "after", "since", "in", "between")
T_SETS = [
    ("s1", "did {A} {base} {cmp} {films} than {B}?"),
    ("s2", "has {A} {part} {cmp} {films} than {B}"),
    ("s3", "is it true that {A} {past} {cmp} {films} than {B}?"),
    ("s4", "does {A} have {cmp} {credit} credits than {B}?"),
    ("s5", "did {A} {base} {cmp} {films} than {B} did"),
    ("s6", "{cmp} {films} {passive} {A} than {B}? yes or no"),
    ("s7", "are there {cmp} {films} {passive} {A} than {passive2} {B}"),
    ("s8", "{A} {past} {cmp} {films} than {B}, right?"),
]
T_ENT = [
    ("e1", "which came out first, {X} or {Y}?", "min"),
    ("e2", "which is older: {X} or {Y}", "min"),
    ("e3", "was {X} or {Y} released earlier?", "min"),
    ("e4", "which {film} is newer, {X} or {Y}?", "max"),
    ("e5", "{X} or {Y}, which one came out later", "max"),
    ("e6", "which was released more recently: {X} or {Y}?", "max"),
    ("e7", "between {X} and {Y}, which {film} is the older one", "min"),
    ("e8", "which of {X} and {Y} was made first", "min"),
    ("e9", "what came out more recently {X} or {Y}", "max"),
]
T_ARITH = [
    ("r1", "if {p} {past} {k} more {kfilms}, how many would that make?", "plus"),
    ("r2", "suppose {p} {pres3} {k} more {kfilms}, what's the new total", "plus"),
    ("r3", "how many {films} {passive} {p} would be left if {k} were lost?", "minus"),
    ("r4", "number of {films} {passive} {p} plus {k}", "plus"),
    ("r5", "how many more {films} did {A} {base} than {B}?", "diff"),
    ("r6", "what's the difference between the number of {films} {A} {past} and the number {B} {past}", "diff"),
    ("r7", "if {p} had {part} twice as many {films}, how many would that be", "double"),
    ("r8", "{films} {passive} {p} minus {k}", "minus"),
    ("r9", "if {k} of the {films} {p} {past} had never been released, how many would remain?", "minus"),
]


# ---------------------------------------------------------------- knowledge base
class KB:
    def __init__(self, path):
        self.films_by = {r: defaultdict(set) for r in PERSON_RELS}   # person -> films
        self.people_of = {r: defaultdict(set) for r in PERSON_RELS}  # film -> people
        self.years = defaultdict(set)
        heads, ents, person_or_genre = set(), set(), set()
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                line = line.rstrip("\n")
                if not line:
                    continue
                parts = line.split("|")
                if len(parts) != 3:
                    continue
                h, r, t = parts
                heads.add(h)
                ents.add(h)
                ents.add(t)
                if r in PERSON_RELS:
                    self.films_by[r][t].add(h)
                    self.people_of[r][h].add(t)
                    person_or_genre.add(t.lower())
                elif r == "release_year":
                    self.years[h].add(t)
                elif r == "has_genre":
                    person_or_genre.add(t.lower())
        self.heads = heads
        lower_count = Counter(e.lower() for e in ents)
        head_lower = {h.lower() for h in heads}

        def good_person(p):
            return (len(p.split()) >= 2 and lower_count[p.lower()] == 1
                    and p.lower() not in head_lower)

        self.roles_of = defaultdict(set)
        for r in PERSON_RELS:
            for p in self.films_by[r]:
                self.roles_of[p].add(r)
        self.pool, self.pure, self.pure_year = {}, {}, {}
        for r in PERSON_RELS:
            ok = sorted(p for p, fs in self.films_by[r].items()
                        if MIN_FILMS <= len(fs) <= MAX_FILMS and good_person(p))
            self.pool[r] = ok
            self.pure[r] = [p for p in ok if len(self.roles_of[p]) == 1]
            self.pure_year[r] = [p for p in self.pure[r]
                                 if all(self.year(f) is not None for f in self.films_by[r][p])]
        self.title_pool = sorted(
            f for f in heads
            if self.year(f) is not None and len(f.split()) >= 2
            and lower_count[f.lower()] == 1 and f.lower() not in person_or_genre
            and " or " not in f.lower() and " and " not in f.lower())

    def year(self, film):
        ys = self.years.get(film)
        if ys is None or len(ys) != 1:
            return None
        return int(next(iter(ys)))

    def films(self, rel, person):
        return self.films_by[rel][person]

    def count(self, rel, person):
        return len(self.films_by[rel][person])


# ---------------------------------------------------------------- helpers
def plural(noun):
    return noun + "s"


def verb_ctx(rng, rel):
    v = VERBS[rel]
    k = rng.randrange(3)
    film = rng.choice(FILM)
    passive = v["passive"][rng.randrange(3)]
    passive2 = "by" if passive.endswith(" by") else passive
    return dict(base=v["base"][k], bare=v["base"][k].replace(" in", ""), past=v["past"][k], part=v["part"][k],
                pres3=v["pres3"][k], passive=passive, passive2=passive2,
                credit=rng.choice(v["credit"]), film=film, films=plural(film))


def num_text(rng, n):
    if n in NUM_WORDS and rng.random() < 0.5:
        return NUM_WORDS[n]
    return str(n)


def style(rng, text):
    r = rng.random()
    if r < 0.25:
        text = text.lower()
    elif r < 0.45:
        text = text[0].upper() + text[1:]
    if text.endswith("?") and rng.random() < 0.2:
        text = text[:-1]
    return text


def target_nouns(rng, src, tgt):
    if src == tgt == "starred_actors":
        sing = rng.choice(["co-star", "fellow actor"])
        return sing, plural(sing)
    v = VERBS[tgt]
    k = rng.randrange(3)
    tns = v["roles"][k]
    return tns[:-1], tns


SRC_TGT = [("starred_actors", "directed_by"), ("starred_actors", "written_by"),
           ("starred_actors", "starred_actors"), ("directed_by", "starred_actors"),
           ("directed_by", "written_by"), ("written_by", "directed_by"),
           ("written_by", "starred_actors")]


def pick(rng, kb, rel, people):
    """Pick a person so that film counts are spread out: a count level first, then a person."""
    by_level = defaultdict(list)
    for q in people:
        by_level[kb.count(rel, q)].append(q)
    level = rng.choice(sorted(by_level))
    return rng.choice(by_level[level])


def cycle_order(rng, items):
    order = list(items)
    rng.shuffle(order)
    return order


# ---------------------------------------------------------------- generators
# Each generator takes (kb, rng, template, i) and returns (question_text, answers, named_entities)
# or None; a person or film is named at most once per type.

def gen_count(kb, rng, tpl, i):
    tid, text, rels = tpl
    rel = rng.choice(rels or PERSON_RELS)
    p = pick(rng, kb, rel, kb.pool[rel])
    ctx = verb_ctx(rng, rel)
    ctx["p"] = p
    return text.format(**ctx), [str(kb.count(rel, p))], (p,)


def collab_counts(kb, src, tgt, p):
    c = Counter()
    for f in sorted(kb.films(src, p)):
        for q in kb.people_of[tgt].get(f, ()):
            if q != p:
                c[q] += 1
    return c


def collab_ctx(rng, src, tgt, p):
    tn, tns = target_nouns(rng, src, tgt)
    ctx = verb_ctx(rng, src)
    k = rng.randrange(3)
    return dict(p=p, tn=tn, tns=tns, tverb=VERBS[tgt]["tverb"][k], spassive=ctx["passive"],
                spast=ctx["past"], sr=VERBS[src]["role"], film=ctx["film"], films=ctx["films"])


def gen_distinct(kb, rng, tpl, i):
    tid, text = tpl
    src, tgt = SRC_TGT[i % len(SRC_TGT)]
    p = pick(rng, kb, src, kb.pure[src])
    c = collab_counts(kb, src, tgt, p)
    if len(c) < 2:
        return None
    return text.format(**collab_ctx(rng, src, tgt, p)), [str(len(c))], (p,)


def gen_group(kb, rng, tpl, i):
    tid, text = tpl
    src, tgt = SRC_TGT[i % len(SRC_TGT)]
    p = pick(rng, kb, src, kb.pure[src])
    c = collab_counts(kb, src, tgt, p)
    if not c:
        return None
    top = max(c.values())
    tied = sorted(q for q, n in c.items() if n == top)
    if top < 2 or len(tied) > 3:
        return None
    return text.format(**collab_ctx(rng, src, tgt, p)), tied, (p,)


def gen_arg(kb, rng, tpl, i):
    tid, text = tpl
    rel = PERSON_RELS[i % 3]
    p = pick(rng, kb, rel, kb.pure_year[rel])
    films = sorted(kb.films(rel, p))
    ys = {f: kb.year(f) for f in films}
    if len(set(ys.values())) < 2:
        return None
    d = "min" if i % 2 == 0 else "max"
    target = min(ys.values()) if d == "min" else max(ys.values())
    gold = sorted(f for f in films if ys[f] == target)
    ctx = verb_ctx(rng, rel)
    ctx.update(p=p, sup=rng.choice(SUP[d]), adv=rng.choice(ADV[d]))
    return text.format(**ctx), gold, (p,)


def gen_filter(kb, rng, tpl, i):
    tid, text = tpl
    rel = PERSON_RELS[i % 3]
    op = FILTER_OPS[i % len(FILTER_OPS)]
    p = pick(rng, kb, rel, kb.pure_year[rel])
    films = sorted(kb.films(rel, p))
    ys = {f: kb.year(f) for f in films}
    S = sorted(set(ys.values()))
    if len(S) < 2:
        return None
    lo, hi = S[0], S[-1]
    total = len(films)
    options = []  # (condition text, gold)
    if op == "in":
        for y in S:
            g = [f for f in films if ys[f] == y]
            options.append(("in %d" % y, g))
    elif op in ("before", "prior to", "after", "since"):
        # thresholds that match no film year, so strict/inclusive readings agree
        for y in range(lo + 1, hi + 1):
            if y in S:
                continue
            if op in ("before", "prior to"):
                g = [f for f in films if ys[f] < y]
            else:
                g = [f for f in films if ys[f] > y]
            options.append(("%s %d" % (op, y), g))
    else:
        for y1 in range(lo - 3, hi + 1):
            if y1 in S:
                continue
            for y2 in range(y1 + 2, hi + 4):
                if y2 in S:
                    continue
                g = [f for f in films if y1 < ys[f] < y2]
                options.append(("between %d and %d" % (y1, y2), g))
    options = [(c, g) for c, g in options if 1 <= len(g) <= 10 and len(g) < total]
    if not options:
        return None
    cond, gold = rng.choice(options)
    ctx = verb_ctx(rng, rel)
    ctx.update(p=p, cond=cond)
    return text.format(**ctx), sorted(gold), (p,)


def gen_sets(kb, rng, tpl, i):
    tid, text = tpl
    rel = PERSON_RELS[i % 3]
    a, b = pick(rng, kb, rel, kb.pool[rel]), pick(rng, kb, rel, kb.pool[rel])
    ca, cb = kb.count(rel, a), kb.count(rel, b)
    if ca == cb:
        return None
    want_yes = (i % 2 == 0)
    cmp_word = rng.choice(["more", "fewer"])
    # for "more": yes iff A has more; for "fewer": yes iff A has fewer
    holds = (ca > cb) if cmp_word == "more" else (ca < cb)
    if holds != want_yes:
        a, b = b, a
    ca, cb = kb.count(rel, a), kb.count(rel, b)
    ans = "yes" if ((ca > cb) if cmp_word == "more" else (ca < cb)) else "no"
    assert ans == ("yes" if want_yes else "no")
    ctx = verb_ctx(rng, rel)
    ctx.update(A=a, B=b, cmp=cmp_word)
    return text.format(**ctx), [ans], (a, b)


def gen_ent(kb, rng, tpl, i):
    tid, text, d = tpl
    x, y = rng.sample(kb.title_pool, 2)
    yx, yy = kb.year(x), kb.year(y)
    if yx == yy or x.lower() in y.lower() or y.lower() in x.lower():
        return None
    if d == "min":
        gold = x if yx < yy else y
    else:
        gold = x if yx > yy else y
    return text.format(X=x, Y=y, film=rng.choice(FILM)), [gold], (x, y)


def gen_arith(kb, rng, tpl, i):
    tid, text, kind = tpl
    rel = PERSON_RELS[i % 3]
    ctx = verb_ctx(rng, rel)
    if kind == "diff":
        a, b = pick(rng, kb, rel, kb.pool[rel]), pick(rng, kb, rel, kb.pool[rel])
        ca, cb = kb.count(rel, a), kb.count(rel, b)
        if ca == cb:
            return None
        if ca < cb:
            a, b, ca, cb = b, a, cb, ca
        ctx.update(A=a, B=b)
        return text.format(**ctx), [str(ca - cb)], (a, b)
    p = pick(rng, kb, rel, kb.pool[rel])
    c = kb.count(rel, p)
    ctx["p"] = p
    if kind == "double":
        return text.format(**ctx), [str(2 * c)], (p,)
    if kind == "plus":
        k = rng.randint(1, 5)
        ctx["k"] = num_text(rng, k)
        ctx["kfilms"] = ctx["film"] if k == 1 else ctx["films"]
        return text.format(**ctx), [str(c + k)], (p,)
    k = rng.randint(1, 4)
    if c - k < 1:
        return None
    ctx["k"] = num_text(rng, k)
    return text.format(**ctx), [str(c - k)], (p,)


GENERATORS = {
    "count": (gen_count, T_COUNT),
    "distinct_count": (gen_distinct, T_DISTINCT),
    "group_count": (gen_group, T_GROUP),
    "argmax_argmin": (gen_arg, T_ARG),
    "filter_literal": (gen_filter, T_FILTER),
    "compare_sets": (gen_sets, T_SETS),
    "compare_entities": (gen_ent, T_ENT),
    "arithmetic": (gen_arith, T_ARITH),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kb", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=5150)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    kb = KB(args.kb)
    rows, seen_q, stats = [], set(), {}
    for qtype in TYPES:
        gen, templates = GENERATORS[qtype]
        order = cycle_order(rng, templates)
        used_tids, used_entities = set(), set()
        n, attempts = 0, 0
        while n < PER_TYPE and attempts < 5000:
            attempts += 1
            tpl = order[n % len(order)]
            res = gen(kb, rng, tpl, n)
            if res is None:
                continue
            text, answers, keys = res
            q = style(rng, text)
            if q.lower() in seen_q or any(k in used_entities for k in keys):
                continue
            seen_q.add(q.lower())
            used_entities.update(keys)
            n += 1
            used_tids.add(tpl[0])
            rows.append({"qid": "opdev2-%s-%03d" % (qtype, n), "question": q,
                         "answers": sorted(answers), "type": qtype})
        stats[qtype] = (n, len(used_tids), len(templates))

    with open(args.out, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")

    print("%-18s %9s %9s %9s" % ("type", "questions", "wordings", "defined"))
    bad = False
    for qtype in TYPES:
        n, w, d = stats[qtype]
        print("%-18s %9d %9d %9d" % (qtype, n, w, d))
        bad = bad or n < 15
    print("%-18s %9d" % ("total", len(rows)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
