#!/usr/bin/env python3
"""A development set for auto's operations (counting, most frequent, ordering and filtering by release year,
arithmetic) over MetaQA's KB: wordings written for tuning, gold from kb.txt by this script alone (no kgrag code).
Tune on it; measure on bench/ownwords, which nobody tunes on. Standard library only, seeded.

  python3 bench/auto/opdev.py --kb ../shared/data/metaqa/kb.txt --out <file.jsonl>
"""
import argparse, collections, json, random

ap = argparse.ArgumentParser()
ap.add_argument("--kb", required=True)
ap.add_argument("--out", required=True)
ap.add_argument("--seed", type=int, default=11)
ap.add_argument("--per-type", type=int, default=8)
a = ap.parse_args()
rnd = random.Random(a.seed)

films_of = collections.defaultdict(lambda: collections.defaultdict(set))  # relation -> value -> films
of_film = collections.defaultdict(lambda: collections.defaultdict(set))   # film -> relation -> values
for line in open(a.kb, encoding="utf-8"):
    parts = line.rstrip("\n").split("|")
    if len(parts) != 3:
        continue
    f, r, v = parts
    films_of[r][v].add(f)
    of_film[f][r].add(v)

def year(f):
    ys = [int(y) for y in of_film[f]["release_year"] if y.isdigit()]
    return max(ys) if ys else None

people = {r: sorted(v for v, fs in films_of[r].items() if 3 <= len(fs) <= 12) for r in ("directed_by", "written_by", "starred_actors")}
ROLE = {"directed_by": ["directed", "was the director of", "helmed"], "written_by": ["wrote", "scripted", "penned the screenplay of"],
        "starred_actors": ["starred in", "acted in", "was cast in"]}
out = []

def add(kind, q, answers):
    out.append({"qid": f"opdev-{kind}-{sum(1 for o in out if o['type'] == kind):03d}", "question": q, "answers": sorted(answers), "type": kind})

def pick(r):
    return rnd.choice(people[r])

for i in range(a.per_type):  # counts
    r = rnd.choice(list(ROLE)); p = pick(r); n = len(films_of[r][p])
    q = rnd.choice([f"what is the total number of films {p} {ROLE[r][0]}", f"{p} {ROLE[r][1]} how many films?",
                    f"give me a count of the movies {p} {ROLE[r][2]}", f"tell me the number of pictures {p} {ROLE[r][0]}"])
    add("count", q, [str(n)])
for i in range(a.per_type):  # distinct counts over two hops
    p = pick("directed_by")
    fs = films_of["directed_by"][p]
    r2, noun = rnd.choice([("starred_actors", "actors"), ("written_by", "screenwriters"), ("has_genre", "genres")])
    vals = set().union(*(of_film[f][r2] for f in fs)) - {p}
    if not vals:
        continue
    add("distinct_count", rnd.choice([f"how many different {noun} show up in the films {p} directed", f"what is the number of distinct {noun} across {p}'s films as director"]), [str(len(vals))])
for i in range(4 * a.per_type):  # most frequent
    if sum(1 for o in out if o["type"] == "most_frequent") >= a.per_type:
        break
    r = rnd.choice(["starred_actors", "written_by"]); p = pick(r)
    c = collections.Counter(v for f in films_of[r][p] for v in of_film[f]["directed_by"])
    if not c or max(c.values()) < 2:
        continue
    top = max(c.values())
    add("most_frequent", rnd.choice([f"which director has {p} worked with on the largest number of films", f"who directed {p} most often",
                                     f"name the director who made the most films with {p}"]), [v for v, k in c.items() if k == top])
for i in range(4 * a.per_type):  # earliest / latest
    if sum(1 for o in out if o["type"] == "order") >= a.per_type:
        break
    r = rnd.choice(list(ROLE)); p = pick(r)
    ys = {f: year(f) for f in films_of[r][p] if year(f)}
    if len(ys) < 2:
        continue
    late = rnd.random() < 0.5
    best = (max if late else min)(ys.values())
    word = rnd.choice(["newest", "most recent"] if late else ["oldest", "first released"])
    add("order", rnd.choice([f"what is the {word} film that {p} {ROLE[r][0]}", f"among the movies {p} {ROLE[r][0]}, which is the {word}"]),
        [f for f, y in ys.items() if y == best])
for i in range(4 * a.per_type):  # filters by year
    if sum(1 for o in out if o["type"] == "filter") >= a.per_type:
        break
    r = rnd.choice(list(ROLE)); p = pick(r)
    ys = sorted({year(f) for f in films_of[r][p] if year(f)})
    if len(ys) < 3:
        continue
    y = ys[len(ys) // 2]
    kind = rnd.choice(["after", "before"])
    keep = [f for f in films_of[r][p] if year(f) and (year(f) > y if kind == "after" else year(f) < y)]
    if not keep:
        continue
    word = rnd.choice(["after", "since the end of"] if kind == "after" else ["before", "prior to"])
    add("filter", rnd.choice([f"list the films {p} {ROLE[r][0]} that came out {word} {y}", f"which movies that {p} {ROLE[r][0]} were released {word} {y}"]), keep)
for i in range(a.per_type):  # arithmetic
    r = rnd.choice(list(ROLE)); p = pick(r); n = len(films_of[r][p]); k = rnd.choice([2, 3, 4])
    words = {2: "two", 3: "three", 4: "four"}
    form = rnd.choice(["plus", "minus", "times"])
    if form == "plus":
        add("arithmetic", f"suppose {p} {ROLE[r][0]} {words[k]} additional films, what would the total be", [str(n + k)])
    elif form == "minus":
        add("arithmetic", f"if {k} of the films {p} {ROLE[r][0]} were lost, how many would remain", [str(n - k)])
    else:
        add("arithmetic", f"what do you get when you multiply the number of films {p} {ROLE[r][0]} by {k}", [str(n * k)])
for i in range(4 * a.per_type):  # comparisons of two people's sets
    if sum(1 for o in out if o["type"] == "compare_sets") >= a.per_type:
        break
    r = rnd.choice(list(ROLE)); p, q = pick(r), pick(r)
    na, nb = len(films_of[r][p]), len(films_of[r][q])
    if p == q or na == nb:
        continue
    more = rnd.random() < 0.5
    verb = {"directed_by": ("direct", "directed"), "written_by": ("write", "written"), "starred_actors": ("appear in", "appeared in")}[r]
    add("compare_sets", rnd.choice([f"did {p} {verb[0]} {'more' if more else 'fewer'} films than {q}?", f"has {p} {verb[1]} {'more' if more else 'fewer'} movies than {q}"]),
        ["yes" if (na > nb if more else na < nb) else "no"])
dated = sorted(f for f in of_film if len(of_film[f]["release_year"]) == 1 and len(films_of["directed_by"]) and of_film[f]["directed_by"])
for i in range(4 * a.per_type):  # comparisons of two films' years
    if sum(1 for o in out if o["type"] == "compare_entities") >= a.per_type:
        break
    f1, f2 = rnd.choice(dated), rnd.choice(dated)
    if f1 == f2 or year(f1) == year(f2):
        continue
    early = rnd.random() < 0.5
    add("compare_entities", rnd.choice([f"which was released {'earlier' if early else 'later'}, {f1} or {f2}?", f"of {f1} and {f2}, which one is {'older' if early else 'more recent'}"]),
        [min(f1, f2, key=year) if early else max(f1, f2, key=year)])
with open(a.out, "w", encoding="utf-8") as w:
    for o in out:
        w.write(json.dumps(o, ensure_ascii=False) + "\n")
print(collections.Counter(o["type"] for o in out))
