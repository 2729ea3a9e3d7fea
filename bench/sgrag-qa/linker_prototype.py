import csv, re, collections, unicodedata, sys, math
def fold(s):
    s = unicodedata.normalize('NFKD', s)
    s = ''.join(c for c in s if not unicodedata.combining(c)).lower()
    s = re.sub(r"[^a-z0-9]+", " ", s)
    return s.strip()
names = {}
for l in open('/work/shared/data/fb15k-237/entity2name.tsv', encoding='utf-8'):
    m, n = l.rstrip('\n').split('\t'); names[m] = n
adj = collections.defaultdict(set); types = collections.defaultdict(set)
for f in ['train','valid','test']:
    for l in open(f'/tmp/fb/{f}.txt'):
        h, r, t = l.strip().split('\t'); adj[h].add(t); adj[t].add(h)
        p = r.split('/')
        types[h].add(p[2]); types[h].add(p[1])
        # object type guess: last segment of relation
        last = p[-1].split('.')[-1]
        types[t].add('~'+last)
byname = collections.defaultdict(list)
for m, n in names.items(): byname[fold(n)].append(m)
def sing(w): return w[:-1] if w.endswith('s') and not w.endswith('ss') and len(w) > 3 else w
bysing = collections.defaultdict(list)
for k, v in byname.items(): bysing[' '.join(sing(w) for w in k.split())] += v
maxlen = max(len(k.split()) for k in byname)
N = len(names)
def lookup(s):
    if s in byname: return byname[s]
    ss = ' '.join(sing(w) for w in s.split())
    return bysing.get(ss)
STOPW = set('which what who where when is was the a an and of in on to for by with from as has have had both also its it that this at be been are were known associated featured features'.split())
def typephrase(q):
    m = re.match(r'\s*(?:which|what)\s+((?:[a-z-]+\s+){0,2}?)([a-z-]+)\b', q, re.I)
    return m
def mentions(q):
    toks = fold(q).split()
    # type word: tokens after which/what up to first verb-ish stop
    skip = set()
    if toks and toks[0] in ('which','what'):
        j = 1
        while j < len(toks) and toks[j] not in STOPW and j < 4: skip.add(j); j += 1
    tw = [toks[j] for j in sorted(skip)]
    i = 0; out = []
    while i < len(toks):
        found = None
        if i not in skip:
          for L in range(min(maxlen, len(toks)-i), 0, -1):
            s = ' '.join(toks[i:i+L])
            if L == 1 and (s in STOPW or s.isdigit()): continue
            r = lookup(s)
            if r: found = (s, L, r); break
        if found:
            out.append((found[0], found[2], i, found[1])); i += found[1]
        else: i += 1
    # coordination: "2004 and 2008 summer olympics" -> conjunct + tail
    extra = []
    for (s, r, i, L) in out:
        words = s.split()
        j = i - 1
        while j >= 1 and toks[j] in ('and', 'or'):
            # conjunct before
            for cl in (1, 2):
                c = toks[j-cl:j]
                for k in range(1, len(words)):
                    cand = ' '.join(c + words[k:])
                    rr = lookup(cand)
                    if rr: extra.append((cand, rr, j-cl, cl)); break
            j -= 2
    out += extra
    return tw, out
def tscore(tw, x):
    if not tw: return 0
    ts = set()
    for t in types[x]:
        ts |= set(sing(w) for w in t.lstrip('~').split('_'))
    return sum(1 for w in tw if sing(w) in ts) / len(tw)
rows = list(csv.DictReader(open('/work/shared/data/erqa-sample/dev.csv', encoding='utf-8')))
hit = 0
for r in rows:
    tw, ms = mentions(r['query'])
    score = collections.Counter(); cnt = collections.Counter()
    seen = set()
    for s, nodes, i, L in ms:
        if s in seen: continue
        seen.add(s)
        nb = set()
        for m in nodes: nb |= adj[m]
        deg = len(nb)
        w = 1.0 + 0.0*(L > 1)
        for x in nb: score[x] += w; cnt[x] += 1
    for s, nodes, i, L in ms:
        for m in nodes: score.pop(m, None)
    best = sorted(score.items(), key=lambda kv: (-(kv[1] + 0.9*tscore(tw, kv[0])), -len(adj[kv[0]])))
    pred = names[best[0][0]] if best else None
    ok = pred is not None and fold(pred) == fold(r['answer'])
    hit += ok
    if not ok and len(sys.argv) > 1:
        print(r['query'], '|', r['answer'], '| pred', pred, [(names[b], s, round(tscore(tw,b),2)) for b, s in best[:4]], '| ments', [m[0] for m in ms], tw)
print(hit, len(rows), hit/len(rows))
