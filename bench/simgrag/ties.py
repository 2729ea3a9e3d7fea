#!/usr/bin/env python3
"""Tie-break check for SimGRAG on MetaQA 1-hop, on the drawn exemplar questions only (never the held-out ones).

For each 1-hop exemplar question, the answers at GSD 0 are the topic's neighbours over the exemplar's relation;
where they are not all gold, counts how often the highest-degree, lowest-degree and first-by-name answer is gold.
Run from the project root after bench/simgrag/run:  python3 bench/simgrag/ties.py
"""
import json, collections
kb = collections.defaultdict(lambda: collections.defaultdict(set))
deg = collections.Counter()
for line in open('../shared/data/metaqa/kb.txt', encoding='utf-8'):
    p = line.rstrip('\n').split('|')
    if len(p) != 3: continue
    h, r, t = p
    kb[h][r].add(t); kb[t][r].add(h)
    deg[h] += 1; deg[t] += 1
# exemplar 1-hop questions with gold answers from the source lines
src = {}
for h in (1,):
    for i, line in enumerate(open(f'../shared/data/metaqa/qa_dev_{h}hop.txt', encoding='utf-8'), 1):
        q, a = line.rstrip('\n').split('\t')
        src[f'qa_dev_{h}hop.txt:{i}'] = (q, a.split('|'))
tot = tied = maxdeg = mindeg = first = 0
for line in open('bench/out/simgrag/exemplars.jsonl', encoding='utf-8'):
    e = json.loads(line)
    if e['source'] not in src: continue
    q, gold = src[e['source']]
    topic = q[q.index('[')+1:q.index(']')]
    rel = e['pattern'][0][1]
    cands = sorted(kb[topic][rel] - {topic})
    if not cands: continue
    tot += 1
    if len(cands) == 1 or set(cands) <= set(gold):
        continue
    tied += 1
    g = set(gold)
    maxdeg += max(cands, key=lambda c: (deg[c], c)) in g
    mindeg += min(cands, key=lambda c: (deg[c], c)) in g
    first += cands[0] in g
print(tot, 'questions;', tied, 'with a tie containing non-gold; hits by max degree', maxdeg, 'min degree', mindeg, 'alphabetical', first)
