package io.kgrag.core.exemplar;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the relation chain a type of question follows, from labelled questions and the knowledge graph:
 * every chain of h steps leaving the topic's node(s) is scored by the F1 between the labels of the nodes
 * it reaches and the gold answers, and the chain with the highest F1 summed over a group of questions of
 * one type wins. The winning chain becomes the exemplars' query pattern ({@link Chain#toPattern()}), so
 * the pattern is read off the data rather than written by hand for each question type.
 *
 * <p><b>Paths.</b> A chain is walked as SimGRAG matches a pattern: injectively, a path never visits a node
 * twice (so {@code movie_to_director_to_movie} does not count the topic movie among the answers). For
 * speed the walk expands the <i>set</i> of nodes a chain prefix reaches, not each path, so that a hub
 * (a year, a genre, a language with thousands of movies) is expanded once per prefix. Sets lose which
 * path led where; what is kept: the topic's nodes are never visited again, and each reached node
 * remembers its predecessor when it has exactly one, so a step back to that node is refused. For chains
 * of up to three steps this is exactly injectivity (a path t, a, b, c needs b ≠ t, c ≠ t and c ≠ a; c ≠ a
 * fails for every path through b only when a is b's single predecessor). For four steps and more, a
 * path may come back to a node three or more steps behind it: the compromise is documented, not hidden.
 * A topic label that names several nodes starts from all of them, and no path visits any of them again.
 *
 * <p><b>Labels.</b> Reached nodes and gold answers are compared by label key ({@link
 * StableIds#labelKey}, case and accents folded), each distinct key counted once: precision is the share
 * of the reached keys that are gold, recall the share of the gold keys reached.
 *
 * <p><b>Cost.</b> Scoring all chains of a question costs the adjacency entries of every prefix's frontier,
 * at most about {@code 2 · edges} per prefix; a group is scored on a seeded sample of at most {@code
 * sample} of its questions (the chain a question type follows shows in a few dozen), and the winner is
 * then evaluated on every question of the group, which walks one chain only.
 *
 * <p>Chains are ordered by their steps (relation name, then forward before backward), and ties of the
 * summed F1 go to the first, so the result is deterministic. An instance keeps scratch arrays: it is not
 * thread-safe.
 */
public final class ChainInducer {
  /** Questions per group scored against every chain, unless configured. */
  public static final int DEFAULT_SAMPLE = 50;
  /** Seed of the sampling, unless configured. */
  public static final long DEFAULT_SEED = 7;

  private static final int MULTI = -2;
  private static final int START = -3;

  private final KnowledgeGraph graph;
  private final int sample;
  private final long seed;
  private final String[] stepRelation;
  private final boolean[] stepForward;
  private final int stepCount;
  private final int[] offsets;
  private final int[] neighbour;
  private final int[] step;
  private final int[] labelClass;
  private final Map<Long, Integer> classOfKey;
  private Scratch scratch;

  /** The result for a group of questions. */
  public record Induction(
      Chain chain, double meanF1, double coverage, int questions, int sampled, int topicsFound, List<Double> f1) {
    /**
     * @param chain the best chain, or null when no chain reaches a gold answer of any sampled question
     * @param meanF1 the chain's F1 averaged over every question of the group (0 for a question whose topic
     *     is not in the graph)
     * @param coverage the share of the group's questions for which the chain reaches a gold answer
     * @param questions the group's size
     * @param sampled how many questions the chains were scored on
     * @param topicsFound how many questions' topics name a node of the graph
     * @param f1 the chain's F1 for each question of the group, in the group's order
     */
    public Induction {
      f1 = List.copyOf(f1);
    }
  }

  /** An inducer sampling {@value #DEFAULT_SAMPLE} questions per group with seed {@value #DEFAULT_SEED}. */
  public ChainInducer(KnowledgeGraph graph) {
    this(graph, DEFAULT_SAMPLE, DEFAULT_SEED);
  }

  /**
   * @param sample the most questions of a group scored against every chain (≥ 1)
   * @param seed the seed choosing them when a group has more
   */
  public ChainInducer(KnowledgeGraph graph, int sample, long seed) {
    if (sample < 1) {
      throw new IllegalArgumentException("sample must be at least 1, got " + sample);
    }
    this.graph = graph;
    this.sample = sample;
    this.seed = seed;
    int n = graph.nodeCount();
    Set<String> names = new TreeSet<>();
    for (int v = 0; v < n; v++) {
      for (int k = 0; k < graph.entryCount(v); k++) {
        names.add(graph.entryRelation(v, k));
      }
    }
    Map<String, Integer> relIndex = new HashMap<>();
    for (String r : names) {
      relIndex.put(r, relIndex.size());
    }
    stepCount = 2 * names.size();
    stepRelation = new String[stepCount];
    stepForward = new boolean[stepCount];
    for (Map.Entry<String, Integer> e : relIndex.entrySet()) {
      stepRelation[2 * e.getValue()] = e.getKey();
      stepForward[2 * e.getValue()] = true;
      stepRelation[2 * e.getValue() + 1] = e.getKey();
    }
    offsets = new int[n + 1];
    for (int v = 0; v < n; v++) {
      offsets[v + 1] = offsets[v] + graph.entryCount(v);
    }
    neighbour = new int[offsets[n]];
    step = new int[offsets[n]];
    for (int v = 0; v < n; v++) {
      for (int k = 0; k < graph.entryCount(v); k++) {
        neighbour[offsets[v] + k] = graph.entryNeighbour(v, k);
        step[offsets[v] + k] = 2 * relIndex.get(graph.entryRelation(v, k)) + (graph.entryOutgoing(v, k) ? 0 : 1);
      }
    }
    labelClass = new int[n];
    classOfKey = new HashMap<>(n * 2);
    for (int v = 0; v < n; v++) {
      labelClass[v] = classOfKey.computeIfAbsent(graph.labelKey(v), k -> classOfKey.size());
    }
  }

  /** Whether {@code topic} names a node of the graph (by label key). */
  public boolean knows(String topic) {
    return graph.nodesWithLabelKey(StableIds.labelKey(topic)).length > 0;
  }

  /**
   * The best chain of {@code hops} steps for a group of questions of one type: the highest F1 summed over
   * a seeded sample of at most {@code sample} of the questions whose topic is in the graph, ties to the
   * first chain in step order; then its F1 on every question of the group.
   *
   * @param group questions of one type (a single question when there are no types)
   * @param hops the chain length, ≥ 1
   */
  public Induction induce(List<LabelledQuestion> group, int hops) {
    checkHops(hops);
    List<Integer> eligible = new ArrayList<>();
    for (int i = 0; i < group.size(); i++) {
      if (knows(group.get(i).topic()) && !group.get(i).answers().isEmpty()) {
        eligible.add(i);
      }
    }
    int found = 0;
    for (LabelledQuestion q : group) {
      found += knows(q.topic()) ? 1 : 0;
    }
    if (eligible.size() > sample) {
      Collections.shuffle(eligible, new Random(seed));
      eligible = new ArrayList<>(eligible.subList(0, sample));
      Collections.sort(eligible);
    }
    Map<Long, Double> sums = new HashMap<>();
    for (int i : eligible) {
      LabelledQuestion q = group.get(i);
      Scratch s = scratch(hops);
      int g = s.markGold(q.answers());
      walk(s, starts(s, q.topic()), hops, null, (key, ends, count) -> {
        double f1 = f1(s, ends, count, g);
        if (f1 > 0) {
          sums.merge(key, f1, Double::sum);
        }
      });
    }
    long best = -1;
    double bestSum = 0;
    for (Map.Entry<Long, Double> e : sums.entrySet()) {
      double v = e.getValue();
      if (v > bestSum || v == bestSum && best >= 0 && e.getKey() < best) {
        best = e.getKey();
        bestSum = v;
      }
    }
    Chain chain = best < 0 ? null : decode(best, hops);
    List<Double> f1 = new ArrayList<>(group.size());
    double total = 0;
    int covered = 0;
    for (LabelledQuestion q : group) {
      double v = chain == null ? 0 : f1(chain, q);
      f1.add(v);
      total += v;
      covered += v > 0 ? 1 : 0;
    }
    int n = group.size();
    return new Induction(chain, n == 0 ? 0 : total / n, n == 0 ? 0 : (double) covered / n, n, eligible.size(), found, f1);
  }

  /** The F1 of one chain for one question: 0 when the topic is not in the graph or nothing is reached. */
  public double f1(Chain chain, LabelledQuestion q) {
    int[] only = encode(chain);
    if (only == null || q.answers().isEmpty()) {
      return 0;
    }
    Scratch s = scratch(chain.length());
    int g = s.markGold(q.answers());
    double[] out = {0};
    walk(s, starts(s, q.topic()), chain.length(), only, (key, ends, count) -> out[0] = f1(s, ends, count, g));
    return out[0];
  }

  /** The labels a chain reaches from {@code topic}, distinct and sorted: what the pattern would answer. */
  public List<String> answers(Chain chain, String topic) {
    int[] only = encode(chain);
    if (only == null) {
      return List.of();
    }
    Scratch s = scratch(chain.length());
    Set<String> out = new TreeSet<>();
    walk(s, starts(s, topic), chain.length(), only, (key, ends, count) -> {
      for (int i = 0; i < count; i++) {
        out.add(graph.label(ends[i]));
      }
    });
    return new ArrayList<>(out);
  }

  /** Every chain of {@code hops} steps with a positive F1 for one question, in step order. */
  public Map<Chain, Double> scores(LabelledQuestion q, int hops) {
    checkHops(hops);
    Map<Long, Double> byKey = new java.util.TreeMap<>();
    if (!q.answers().isEmpty()) {
      Scratch s = scratch(hops);
      int g = s.markGold(q.answers());
      walk(s, starts(s, q.topic()), hops, null, (key, ends, count) -> {
        double f1 = f1(s, ends, count, g);
        if (f1 > 0) {
          byKey.put(key, f1);
        }
      });
    }
    Map<Chain, Double> out = new LinkedHashMap<>();
    byKey.forEach((k, v) -> out.put(decode(k, hops), v));
    return out;
  }

  // ---- the walk

  private interface Visitor {
    void chain(long key, int[] ends, int count);
  }

  /**
   * Walks every chain of {@code hops} steps from {@code starts} (only the steps of {@code only} when it is
   * not null) and hands each chain's reached end nodes to {@code v}, chains in step order.
   */
  private void walk(Scratch s, int[] starts, int hops, int[] only, Visitor v) {
    if (starts.length == 0) {
      return;
    }
    for (int i = 0; i < starts.length; i++) {
      s.nodes[0][i] = starts[i];
      s.parents[0][i] = START;
    }
    descend(s, 0, starts.length, hops, only, 0L, v);
  }

  private void descend(Scratch s, int d, int count, int hops, int[] only, long key, Visitor v) {
    int[] nodes = s.nodes[d];
    if (d == hops) {
      v.chain(key, nodes, count);
      return;
    }
    int[] par = s.parents[d];
    int[][] bucket = s.bucket[d];
    int[] size = s.bucketSize[d];
    Arrays.fill(size, 0);
    int want = only == null ? -1 : only[d];
    int[] startStamp = s.startStamp;
    int startEpoch = s.startEpoch;
    for (int i = 0; i < count; i++) {
      int x = nodes[i];
      int px = par[i];
      for (int k = offsets[x], end = offsets[x + 1]; k < end; k++) {
        int st = step[k];
        if (want >= 0 && st != want) {
          continue;
        }
        int y = neighbour[k];
        // injectivity: never back to the topic, never back to a node's only predecessor
        if (y == px || startStamp[y] == startEpoch) {
          continue;
        }
        int[] b = bucket[st];
        int sz = size[st];
        if (b == null) {
          b = bucket[st] = new int[32];
        } else if (sz + 2 > b.length) {
          b = bucket[st] = Arrays.copyOf(b, b.length * 2);
        }
        b[sz] = y;
        b[sz + 1] = x;
        size[st] = sz + 2;
      }
    }
    int[] seen = s.seen[d + 1];
    int[] pos = s.pos[d + 1];
    int[] next = s.nodes[d + 1];
    int[] nextPar = s.parents[d + 1];
    for (int st = 0; st < stepCount; st++) {
      int sz = size[st];
      if (sz == 0) {
        continue;
      }
      int e = s.next();
      int[] b = bucket[st];
      int c = 0;
      for (int j = 0; j < sz; j += 2) {
        int y = b[j];
        int x = b[j + 1];
        if (seen[y] != e) {
          seen[y] = e;
          pos[y] = c;
          next[c] = y;
          nextPar[c] = x;
          c++;
        } else if (nextPar[pos[y]] != x) {
          nextPar[pos[y]] = MULTI;
        }
      }
      descend(s, d + 1, c, hops, only, key * stepCount + st, v);
    }
  }

  /** F1 of the end nodes' distinct label keys against the gold marked in {@code s} ({@code g} distinct keys). */
  private double f1(Scratch s, int[] ends, int count, int g) {
    int e = s.next();
    int reached = 0;
    int hits = 0;
    for (int i = 0; i < count; i++) {
      int c = labelClass[ends[i]];
      if (s.classStamp[c] != e) {
        s.classStamp[c] = e;
        reached++;
        if (s.goldStamp[c] == s.goldEpoch) {
          hits++;
        }
      }
    }
    return hits == 0 ? 0 : 2.0 * hits / (reached + g);
  }

  /** The topic's nodes, marked in {@code s} as never to be visited again. */
  private int[] starts(Scratch s, String topic) {
    int[] nodes = graph.nodesWithLabelKey(StableIds.labelKey(topic));
    s.startEpoch = s.next();
    for (int n : nodes) {
      s.startStamp[n] = s.startEpoch;
    }
    return nodes;
  }

  /** The chain's step ids, or null when one of its relations is not in the graph. */
  private int[] encode(Chain chain) {
    int[] out = new int[chain.length()];
    for (int i = 0; i < out.length; i++) {
      Chain.Step st = chain.steps().get(i);
      int found = -1;
      for (int id = st.forward() ? 0 : 1; id < stepCount; id += 2) {
        if (stepRelation[id].equals(st.relation())) {
          found = id;
          break;
        }
      }
      if (found < 0) {
        return null;
      }
      out[i] = found;
    }
    return out;
  }

  private Chain decode(long key, int hops) {
    Chain.Step[] steps = new Chain.Step[hops];
    for (int i = hops - 1; i >= 0; i--) {
      int st = (int) (key % stepCount);
      key /= stepCount;
      steps[i] = new Chain.Step(stepRelation[st], stepForward[st]);
    }
    return new Chain(Arrays.asList(steps));
  }

  private void checkHops(int hops) {
    if (hops < 1) {
      throw new IllegalArgumentException("a chain has at least one step, got " + hops);
    }
    long m = 1;
    try {
      for (int i = 0; i < hops; i++) {
        m = Math.multiplyExact(m, Math.max(1, stepCount));
      }
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(hops + " steps over " + stepCount / 2 + " relations are too many chains to enumerate", e);
    }
  }

  /** Per-call state: stamps instead of clearing, one level of frontier arrays per depth. */
  private final class Scratch {
    final int hops;
    final int[][] seen;
    final int[][] pos;
    final int[][] nodes;
    final int[][] parents;
    final int[][][] bucket; // [depth][step] -> (node, from) pairs
    final int[][] bucketSize;
    final int[] startStamp;
    final int[] classStamp;
    final int[] goldStamp;
    int epoch;
    int goldEpoch;
    int startEpoch;

    Scratch(int hops) {
      int n = graph.nodeCount();
      this.hops = hops;
      seen = new int[hops + 1][n];
      pos = new int[hops + 1][n];
      nodes = new int[hops + 1][n];
      parents = new int[hops + 1][n];
      bucket = new int[hops][stepCount][];
      bucketSize = new int[hops][stepCount];
      startStamp = new int[n];
      classStamp = new int[classOfKey.size()];
      goldStamp = new int[classOfKey.size()];
    }

    /** A fresh stamp value. */
    int next() {
      return ++epoch;
    }

    /** Clears every stamp when the counter nears its end; only between walks. */
    void resetIfWorn() {
      if (epoch > Integer.MAX_VALUE / 2) {
        for (int[] a : seen) {
          Arrays.fill(a, 0);
        }
        Arrays.fill(startStamp, 0);
        Arrays.fill(classStamp, 0);
        Arrays.fill(goldStamp, 0);
        epoch = 0;
      }
    }

    /** Marks the gold answers' label classes; returns how many distinct label keys they have. */
    int markGold(List<String> answers) {
      goldEpoch = next();
      Set<Long> keys = new HashSet<>();
      for (String a : answers) {
        keys.add(StableIds.labelKey(a));
      }
      for (long k : keys) {
        Integer c = classOfKey.get(k);
        if (c != null) {
          goldStamp[c] = goldEpoch;
        }
      }
      return keys.size();
    }
  }

  private Scratch scratch(int hops) {
    if (scratch == null || scratch.hops < hops) {
      scratch = new Scratch(hops);
    }
    scratch.resetIfWorn();
    return scratch;
  }
}
