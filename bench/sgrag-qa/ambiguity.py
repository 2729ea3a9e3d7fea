import csv, re, collections, unicodedata
exec(open(__file__.replace('ambiguity.py', 'linker_prototype.py')).read().split("rows = list")[0])
rows = list(csv.DictReader(open('/work/shared/data/erqa-sample/dev.csv', encoding='utf-8')))
GEN = set('film language of the a in and united states award for best'.split())
def present(name, q):
    toks = [t for t in fold(name).replace(' gb',' ').split() if t not in STOPW]
    qt = set(fold(q).split()) | set(sing(w) for w in fold(q).split())
    if not toks: return False
    return all(t in qt or sing(t) in qt for t in toks) or (len(toks) > 1 and all(t in qt or sing(t) in qt for t in toks[:2]) and toks[0] not in GEN)
hist = collections.Counter(); top = 0
for r in rows:
    gold = set(byname.get(fold(r['answer']), []))
    g = next(iter(gold))
    cons = [n for n in adj[g] if present(names[n], r['query'])]
    if not cons: hist['none'] += 1; continue
    cand = set.intersection(*[adj[n] for n in cons]) - set(cons)
    tw, _ = mentions(r['query'])
    gmax = tscore(tw, g)
    tc = [x for x in cand if tscore(tw, x) >= gmax]
    hist[min(len(tc), 10)] += 1
    best = min(tc, key=lambda x: len(adj[x])) if tc else None
    top += best in gold
print(sorted(hist.items(), key=str), top)
