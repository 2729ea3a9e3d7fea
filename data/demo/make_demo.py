#!/usr/bin/env python3
"""Builds the bundled demo slices in data/demo/ from ../shared/data (run from the repository root).

    python3 data/demo/make_demo.py [--shared ../shared/data]

Deterministic (fixed seed, sorted inputs), so re-running it reproduces the committed files byte for byte.

metaqa/   kb.txt: every triple touching the topic entity of 20 sampled MetaQA 1-hop dev questions, plus every
          triple of the movies among those neighbours (so 2-hop context exists); questions_1hop.txt and
          questions_1hop_qtype.txt: those 20 questions in MetaQA's format. Gold answers stay valid in the
          slice because the topic entity's whole star is kept.
fb15k237/ triples.tsv: the star of the answer of 12 ERQA dev questions whose answer has at most 150 edges, plus
          up to 5 other edges of 30 of each answer's neighbours (other entities that share constraints, so
          the questions are not trivial); entity2name.tsv: names of exactly the entities in the slice;
          questions.csv: those ERQA questions.
"""
import argparse
import csv
import io
import os
import random
import tarfile
from collections import defaultdict

SEED = 20261121


def write(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line + "\n")


def metaqa(shared, out):
    rng = random.Random(SEED)
    kb = [l.rstrip("\n") for l in open(os.path.join(shared, "metaqa/kb.txt"), encoding="utf-8") if l.strip()]
    triples = [tuple(l.split("|")) for l in kb]
    by_entity = defaultdict(list)
    heads = set()
    for t in triples:
        by_entity[t[0]].append(t)
        by_entity[t[2]].append(t)
        heads.add(t[0])  # MetaQA heads are movies
    qs = [l.rstrip("\n") for l in open(os.path.join(shared, "metaqa/qa_dev_1hop.txt"), encoding="utf-8")]
    qt = [l.rstrip("\n") for l in open(os.path.join(shared, "metaqa/qa_dev_1hop_qtype.txt"), encoding="utf-8")]
    idx = list(range(len(qs)))
    rng.shuffle(idx)
    chosen, keep = [], set()
    for i in idx:
        q = qs[i]
        topic = q[q.index("[") + 1 : q.index("]")]
        star = by_entity.get(topic, [])
        if not star or len(star) > 60:
            continue
        extra = set(star)
        for t in star:
            for e in (t[0], t[2]):
                if e != topic and e in heads and len(by_entity[e]) <= 40:
                    extra.update(by_entity[e])
        if len(keep | extra) > 2500:
            continue
        keep |= extra
        chosen.append(i)
        if len(chosen) == 20:
            break
    chosen.sort()
    write(os.path.join(out, "metaqa/kb.txt"), sorted("|".join(t) for t in keep))
    write(os.path.join(out, "metaqa/questions_1hop.txt"), [qs[i] for i in chosen])
    write(os.path.join(out, "metaqa/questions_1hop_qtype.txt"), [qt[i] for i in chosen])
    return len(keep), len(chosen)


def fb15k237(shared, out):
    rng = random.Random(SEED)
    with tarfile.open(os.path.join(shared, "fb15k-237/FB15k-237.tar.gz")) as tar:
        triples = []
        for name in sorted(tar.getnames()):
            if name.endswith((".txt",)):
                data = tar.extractfile(name).read().decode("utf-8")
                for line in data.splitlines():
                    if line.strip():
                        triples.append(tuple(line.strip().split("\t")))
    names = {}
    for line in open(os.path.join(shared, "fb15k-237/entity2name.tsv"), encoding="utf-8"):
        k, v = line.rstrip("\n").split("\t")
        names[k] = v
    by_name = defaultdict(list)
    for k, v in names.items():
        by_name[v].append(k)
    star = defaultdict(list)
    for t in triples:
        star[t[0]].append(t)
        star[t[2]].append(t)
    rows = list(csv.DictReader(open(os.path.join(shared, "erqa-sample/dev.csv"), encoding="utf-8")))
    rows.sort(key=lambda r: r["qid"])
    rng.shuffle(rows)
    keep, chosen = set(), []
    for r in rows:
        mids = by_name.get(r["answer"], [])
        if len(mids) != 1 or not (20 <= len(star[mids[0]]) <= 150):
            continue
        a = mids[0]
        part = set(star[a])
        neighbours = sorted({t[0] if t[2] == a else t[2] for t in star[a]} - {a})
        for n in rng.sample(neighbours, min(30, len(neighbours))):
            others = sorted(set(star[n]) - part)
            part.update(rng.sample(others, min(5, len(others))))
        keep |= part
        chosen.append(r)
        if len(chosen) == 12:
            break
    ents = sorted({t[0] for t in keep} | {t[2] for t in keep})
    write(os.path.join(out, "fb15k237/triples.tsv"), sorted("\t".join(t) for t in keep))
    write(os.path.join(out, "fb15k237/entity2name.tsv"), [k + "\t" + names[k] for k in ents if k in names])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["qid", "query", "answer"])
    for r in sorted(chosen, key=lambda r: r["qid"]):
        w.writerow([r["qid"], r["query"], r["answer"]])
    write(os.path.join(out, "fb15k237/questions.csv"), buf.getvalue().rstrip("\n").split("\n"))
    return len(keep), len(ents), len(chosen)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shared", default=os.path.join(here, "..", "..", "..", "shared", "data"))
    a = p.parse_args()
    print("metaqa: %d triples, %d questions" % metaqa(a.shared, here))
    print("fb15k237: %d triples, %d entities, %d questions" % fb15k237(a.shared, here))


if __name__ == "__main__":
    main()
