#!/usr/bin/env python3
"""The most Hit@1 and answer-set F1 any chain reader can get on MetaQA's held-out dev questions.

For every question it walks the question type's own relation chain (induced by `kgrag exemplars`, read from its
exemplar file) from the bracketed topic entity over kb.txt, without stepping straight back (as kgrag's
ProgramExecutor does, unless that leaves nothing), and compares the answer set with the gold: F1 of the set, and Hit@1 when the set's
first member is gold, for three orders of the members (by label, by degree ascending, by degree descending).
It uses no kgrag code.

    python3 bench/auto/metaqa_ceiling.py --kb ../shared/data/metaqa/kb.txt \
        --exemplars bench/out/simgrag/exemplars.jsonl --heldout bench/out/simgrag/heldout
"""
import argparse
import collections
import json
import re


def chains_by_type(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        e = json.loads(line)
        if e["qtype"] in out:
            continue
        left, at, steps = list(e["pattern"]), "[0]", []
        while left:
            t = next((t for t in left if at in (t[0], t[2])), None)
            if t is None:
                break
            forward = t[0] == at
            steps.append((t[1], forward))
            at = t[2] if forward else t[0]
            left.remove(t)
        out[e["qtype"]] = steps
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kb", required=True)
    ap.add_argument("--exemplars", required=True)
    ap.add_argument("--heldout", required=True)
    a = ap.parse_args()
    kb = collections.defaultdict(lambda: collections.defaultdict(set))
    degree = collections.Counter()
    for line in open(a.kb, encoding="utf-8"):
        h, r, t = line.rstrip("\n").split("|")
        kb[h][(r, True)].add(t)
        kb[t][(r, False)].add(h)
        degree[h] += 1
        degree[t] += 1
    chains = chains_by_type(a.exemplars)

    def walk(topic, steps, back=False):
        cur = {(topic, None)}
        for step in steps:
            cur = {(m, n) for n, prev in cur for m in kb[n].get(step, ()) if back or m != prev}
        found = {n for n, _ in cur} - {topic}
        # as kgrag's auto: a chain steps straight back only when there is no other way
        return found if found or back else walk(topic, steps, True)

    for hop in (1, 2, 3):
        qs = open(f"{a.heldout}/qa_dev_{hop}hop.txt", encoding="utf-8").read().splitlines()
        ts = open(f"{a.heldout}/qa_dev_{hop}hop_qtype.txt", encoding="utf-8").read().splitlines()
        n = f1 = 0
        hits = collections.Counter()
        for q, t in zip(qs, ts):
            text, answers = q.split("\t")
            gold = set(answers.split("|"))
            topic = re.search(r"\[(.*?)\]", text).group(1)
            found = walk(topic, chains[t])
            n += 1
            if not found:
                continue
            tp = len(found & gold)
            f1 += 0 if tp == 0 else 2 * tp / (len(found) + len(gold))
            hits["label"] += min(found) in gold
            hits["degree ascending"] += min(found, key=lambda x: (degree[x], x)) in gold
            hits["degree descending"] += max(found, key=lambda x: (degree[x], x)) in gold
        print(f"{hop}-hop: {n} questions, set F1 {f1 / n:.3f}, Hit@1 " + ", ".join(f"{k} {100 * v / n:.1f} %" for k, v in hits.items()))


if __name__ == "__main__":
    main()
