package io.kgrag.core.stem.gnn;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The Triple-GNN's synthetic training data: App. C.2 "Structure-to-Query Reverse Generation", phase 1
 * (reasoning-path subgraph sampling) without the LLM phase. Its only inputs are the graph and a seed: it
 * takes no questions of any kind, so no evaluation question can leak into training.
 *
 * <p>Per sample: a start node uniform over the nodes with at least one edge; a walk of 1..maxHops steps
 * (uniform) over the undirected adjacency, never revisiting a node, each step a uniform choice among the
 * current node's entries to unvisited nodes; with probability 0.1 per step (as the public code) a branch:
 * a second edge from the current node to another unvisited node, which joins the walk as a leaf. The walk
 * stops early where it cannot move. Triples keep the graph's stored direction.
 *
 * <p>Masking: the question entities are the start node and, when the walk has at least 3 nodes, with
 * probability 0.3 one other node that is not the final one. Every other node is masked as {@code [ENTk]},
 * k from 1 in walk order (a node keeps its placeholder in every triple). The answer is the last masked
 * node, i.e. the walk's final node. Training labels (eq 42): 1 for every walk node, 0 for the other nodes
 * of the sample's {@link GnnSubgraph}.
 *
 * <p>Stars (kgrag's addition): with probability {@value #STAR} a sample is instead a star, the shape of
 * multi-constraint questions ("which disease is treated with massage and causes hypertension"), which a
 * walk branching with probability 0.1 rarely gives: a centre uniform over the nodes with at least two
 * neighbours, 2 to 4 of its neighbours (uniform entries to distinct nodes) as the question entities, the
 * centre masked as [ENT1] and the answer.
 */
public final class RandomWalkSampler {

  /** Probability of a branch per step (public code: two branches with p 0.1). */
  static final double BRANCH = 0.1;
  /** Probability of a second question entity on walks of 3 or more nodes. */
  static final double SECOND_QUESTION = 0.3;
  /** Share of star samples. */
  static final double STAR = 0.3;

  private RandomWalkSampler() {}

  /**
   * {@code count} walk samples, deterministic for the same graph, count, maxHops and seed. Fewer only when
   * the graph has no edge (then none) or, in degenerate graphs, when 20·count + 100 attempts do not
   * yield enough walks.
   *
   * @throws IllegalArgumentException on count &lt; 0 or maxHops &lt; 1
   */
  public static List<WalkSample> sample(KnowledgeGraph g, int count, int maxHops, long seed) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0: " + count);
    }
    if (maxHops < 1) {
      throw new IllegalArgumentException("maxHops must be >= 1: " + maxHops);
    }
    int[] starts = new int[g.nodeCount()];
    int n = 0;
    for (int v = 0; v < g.nodeCount(); v++) {
      if (g.entryCount(v) > 0) {
        starts[n++] = v;
      }
    }
    List<WalkSample> out = new ArrayList<>(count);
    if (n == 0) {
      return out;
    }
    SplittableRandom r = new SplittableRandom(seed);
    long attempts = 20L * count + 100;
    for (long a = 0; a < attempts && out.size() < count; a++) {
      WalkSample s = r.nextDouble() < STAR ? star(g, starts[r.nextInt(n)], r) : walk(g, starts[r.nextInt(n)], 1 + r.nextInt(maxHops), r);
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  private static WalkSample walk(KnowledgeGraph g, int start, int hops, SplittableRandom r) {
    LinkedHashSet<Integer> nodes = new LinkedHashSet<>();
    nodes.add(start);
    List<KnowledgeGraph.Edge> triples = new ArrayList<>();
    int cur = start;
    for (int step = 0; step < hops; step++) {
      int k = pick(g, cur, nodes, r);
      if (k < 0) {
        break;
      }
      int next = g.entryNeighbour(cur, k);
      triples.add(edge(g, cur, k));
      nodes.add(next);
      if (r.nextDouble() < BRANCH) {
        int k2 = pick(g, cur, nodes, r);
        if (k2 >= 0) {
          triples.add(edge(g, cur, k2));
          nodes.add(g.entryNeighbour(cur, k2));
        }
      }
      cur = next;
    }
    if (triples.isEmpty()) {
      return null; // cannot move
    }
    int[] order = nodes.stream().mapToInt(Integer::intValue).toArray();
    int last = cur;
    List<Integer> question = new ArrayList<>();
    question.add(start);
    if (order.length >= 3 && r.nextDouble() < SECOND_QUESTION) {
      List<Integer> candidates = new ArrayList<>();
      for (int i = 1; i < order.length; i++) {
        if (order[i] != last) {
          candidates.add(order[i]);
        }
      }
      question.add(candidates.get(r.nextInt(candidates.size())));
    }
    List<Integer> masked = new ArrayList<>();
    for (int v : order) {
      if (!question.contains(v) && v != last) {
        masked.add(v);
      }
    }
    masked.add(last); // the final node is never a question entity: masked, last, the answer
    Map<Integer, Integer> placeholder = new HashMap<>();
    for (int i = 0; i < masked.size(); i++) {
      placeholder.put(masked.get(i), i + 1);
    }
    List<SchemaTriple> schema = new ArrayList<>(triples.size());
    for (KnowledgeGraph.Edge e : triples) {
      schema.add(new SchemaTriple(term(e.src(), placeholder), e.relation(), term(e.dst(), placeholder)));
    }
    return new WalkSample(
        triples,
        question.stream().mapToInt(Integer::intValue).toArray(),
        masked.stream().mapToInt(Integer::intValue).toArray(),
        last,
        schema);
  }

  /** A star around {@code centre}: 2 to 4 distinct neighbours as question entities, the centre the answer; null below 2. */
  private static WalkSample star(KnowledgeGraph g, int centre, SplittableRandom r) {
    int distinct = g.degree(centre);
    if (distinct < 2) {
      return null;
    }
    int want = 2 + r.nextInt(Math.min(3, distinct - 1));
    LinkedHashSet<Integer> visited = new LinkedHashSet<>();
    visited.add(centre);
    List<KnowledgeGraph.Edge> triples = new ArrayList<>();
    List<Integer> question = new ArrayList<>();
    for (int i = 0; i < want; i++) {
      int k = pick(g, centre, visited, r);
      if (k < 0) {
        break;
      }
      int q = g.entryNeighbour(centre, k);
      visited.add(q);
      question.add(q);
      triples.add(edge(g, centre, k));
    }
    Map<Integer, Integer> placeholder = Map.of(centre, 1);
    List<SchemaTriple> schema = new ArrayList<>(triples.size());
    for (KnowledgeGraph.Edge e : triples) {
      schema.add(new SchemaTriple(term(e.src(), placeholder), e.relation(), term(e.dst(), placeholder)));
    }
    return new WalkSample(triples, question.stream().mapToInt(Integer::intValue).toArray(), new int[] {centre}, centre, schema);
  }

  private static SchemaTriple.Term term(int node, Map<Integer, Integer> placeholder) {
    Integer k = placeholder.get(node);
    return k == null ? SchemaTriple.Term.entity(node) : SchemaTriple.Term.placeholder(k);
  }

  /** A uniform entry of {@code v} to an unvisited node, or -1. */
  private static int pick(KnowledgeGraph g, int v, LinkedHashSet<Integer> visited, SplittableRandom r) {
    int n = g.entryCount(v);
    int fresh = 0;
    for (int k = 0; k < n; k++) {
      if (!visited.contains(g.entryNeighbour(v, k))) {
        fresh++;
      }
    }
    if (fresh == 0) {
      return -1;
    }
    int want = r.nextInt(fresh);
    for (int k = 0; k < n; k++) {
      if (!visited.contains(g.entryNeighbour(v, k)) && want-- == 0) {
        return k;
      }
    }
    throw new AssertionError();
  }

  private static KnowledgeGraph.Edge edge(KnowledgeGraph g, int v, int k) {
    int nb = g.entryNeighbour(v, k);
    String rel = g.entryRelation(v, k);
    return g.entryOutgoing(v, k) ? new KnowledgeGraph.Edge(v, rel, nb) : new KnowledgeGraph.Edge(nb, rel, v);
  }
}
