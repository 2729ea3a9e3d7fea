#!/usr/bin/env python3
"""Replays kgrag's passage walk outside the JVM, to try restart weights without a QA run (bench/RESULTS.md, "Supporting
passages"). Input: JSON lines dumped with `bin/kgrag sql --format json --limit 1000000 --warehouse <wh> "<query>"`:

  chunks.json    SELECT chunk_id, doc_id FROM kgrag.chunks
  mentions.json  SELECT DISTINCT entity_id, chunk_id FROM kgrag.entity_mentions
  relations.json SELECT src_id, dst_id FROM kgrag.relations
  nodes.json     SELECT method, qid, n.entity_ids AS ids FROM (SELECT method, qid, explode(nodes) AS n
                   FROM kgrag.query_graphs WHERE run_id = '<run>')
  dense.json     SELECT qid, rank, chunk_id, score FROM kgrag.retrieved_passages WHERE run_id = '<run>' AND method = 'dense'
  gold.json      SELECT qid, meta['supporting_docs'] AS g FROM kgrag.questions WHERE dataset = '<set>'

Usage: walk_simulation.py <dir with those files> <method> <dense weight>...   prints recall@2/5/10 % per weight.
"""
import collections
import json
import sys

import numpy as np
import scipy.sparse as sp


def lines(d, name):
    with open(f"{d}/{name}") as f:
        return [json.loads(l) for l in f]


def main(d, method, weights):
    chunks = lines(d, "chunks.json")
    cidx = {c["chunk_id"]: i for i, c in enumerate(chunks)}
    cdoc = [c["doc_id"] for c in chunks]
    men = [m for m in lines(d, "mentions.json") if m["chunk_id"] in cidx]
    rel = lines(d, "relations.json")
    ents = sorted({m["entity_id"] for m in men} | {r["src_id"] for r in rel} | {r["dst_id"] for r in rel})
    eidx = {e: i for i, e in enumerate(ents)}
    ne, n = len(ents), len(ents) + len(chunks)
    rows, cols = [], []
    for r in rel:  # entity - entity, both ways, parallel edges add up
        a, b = eidx[r["src_id"]], eidx[r["dst_id"]]
        if a != b:
            rows += [a, b]
            cols += [b, a]
    mcount = np.zeros(ne)
    for m in men:  # entity - chunk, both ways
        a, b = eidx[m["entity_id"]], ne + cidx[m["chunk_id"]]
        rows += [a, b]
        cols += [b, a]
        mcount[a] += 1
    adj = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    deg = np.asarray(adj.sum(1)).ravel()
    step = (sp.diags(np.where(deg > 0, 1 / np.maximum(deg, 1e-12), 0)) @ adj).T.tocsr()

    def ppr(restart, damping=0.5, iterations=50):
        restart = restart / restart.sum()
        p = restart.copy()
        for _ in range(iterations):
            p = damping * (step @ p) + (1 - damping + damping * p[deg == 0].sum()) * restart
        return p

    nodes = collections.defaultdict(list)
    for r in lines(d, "nodes.json"):
        if r.get("ids") and r["method"] == method:
            nodes[r["qid"]].append(r["ids"])
    dense = collections.defaultdict(list)
    for r in lines(d, "dense.json"):
        dense[r["qid"]].append((r["rank"], r["chunk_id"], r["score"]))
    gold = {r["qid"]: set(json.loads(r["g"])) for r in lines(d, "gold.json") if r.get("g")}
    for w in weights:
        recall = np.zeros(3)
        for q, g in gold.items():
            s = np.zeros(n)
            for ids in nodes.get(q, []):
                for e in ids:
                    if e in eidx:
                        s[eidx[e]] += (1 / len(ids)) / max(1, mcount[eidx[e]])
            top = sorted(dense[q])
            if top and w > 0:
                hi, lo = max(x[2] for x in top), min(x[2] for x in top)
                for _, c, score in top:
                    s[ne + cidx[c]] += w * ((score - lo) / (hi - lo) if hi > lo else 1)
            if s.sum() == 0:
                continue
            order = np.argsort(-ppr(s)[ne:], kind="stable")
            docs = [cdoc[i] for i in order[:10]]
            for j, k in enumerate((2, 5, 10)):
                recall[j] += len(set(docs[:k]) & g) / len(g)
        print(method, w, " / ".join("%.1f" % (100 * x / len(gold)) for x in recall))


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3:]])
