package io.kgrag.core.simgrag;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference for {@link GsdSearch}: every injective mapping (as the problem's injectivity says) of pattern nodes to candidate KG nodes,
 * and for each pattern edge every KG edge (either direction) between the mapped ends whose relation is
 * a candidate; GSD summed nodes-then-edges in index order; all matches sorted by its own copy of the
 * total order, identical matches (an edge listed twice in the graph) counted once, the first k kept.
 * Written for obviousness, not speed: tests only.
 */
final class ExhaustiveGsdSearch {
  /** gsd, then nodes lexicographically, then per pattern edge: src, relation, dst. */
  static final Comparator<SubgraphMatch> ORDER = (x, y) -> {
    int c = Double.compare(x.gsd(), y.gsd());
    int[] a = x.nodes();
    int[] b = y.nodes();
    for (int i = 0; c == 0 && i < a.length; i++) {
      c = Integer.compare(a[i], b[i]);
    }
    KnowledgeGraph.Edge[] p = x.edges();
    KnowledgeGraph.Edge[] q = y.edges();
    for (int e = 0; c == 0 && e < p.length; e++) {
      c = Integer.compare(p[e].src(), q[e].src());
      if (c == 0) {
        c = p[e].relation().compareTo(q[e].relation());
      }
      if (c == 0) {
        c = Integer.compare(p[e].dst(), q[e].dst());
      }
    }
    return c;
  };

  private final KnowledgeGraph graph;
  /** Complete injective node mappings looked at by the last call. */
  long mappings;

  ExhaustiveGsdSearch(KnowledgeGraph graph) {
    this.graph = graph;
  }

  List<SubgraphMatch> topK(GsdProblem p, int k) {
    List<SubgraphMatch> all = all(p);
    return new ArrayList<>(all.subList(0, Math.min(k, all.size())));
  }

  /** Every match, sorted, without repeats. */
  List<SubgraphMatch> all(GsdProblem p) {
    mappings = 0;
    List<Map<Integer, Double>> nodeDistances = new ArrayList<>();
    for (int v = 0; v < p.patternNodes(); v++) {
      if (!p.knownNode(v)) {
        nodeDistances.add(null);
        continue;
      }
      Map<Integer, Double> m = new HashMap<>();
      int[] c = p.candidateNodes(v);
      double[] d = p.candidateDistances(v);
      for (int i = 0; i < c.length; i++) {
        m.put(c[i], d[i]);
      }
      nodeDistances.add(m);
    }
    List<SubgraphMatch> found = new ArrayList<>();
    assign(p, nodeDistances, new int[p.patternNodes()], new int[graph.nodeCount()], new int[graph.nodeCount()], 0, found);
    found.sort(ORDER);
    List<SubgraphMatch> distinct = new ArrayList<>();
    for (SubgraphMatch m : found) {
      if (distinct.isEmpty() || !distinct.get(distinct.size() - 1).equals(m)) {
        distinct.add(m);
      }
    }
    return distinct;
  }

  /** {@code uses[g]}: pattern nodes mapped to g so far; {@code knownUses[g]}: known ones among them. */
  private void assign(GsdProblem p, List<Map<Integer, Double>> nd, int[] f, int[] uses, int[] knownUses, int v, List<SubgraphMatch> out) {
    if (v == f.length) {
      mappings++;
      chooseEdges(p, nd, f, new KnowledgeGraph.Edge[p.edgeCount()], 0, out);
      return;
    }
    for (int g = 0; g < graph.nodeCount(); g++) {
      boolean all = p.injectivity() == GsdProblem.Injectivity.ALL || p.knownNode(v);
      if ((all ? uses[g] > 0 : knownUses[g] > 0) || (nd.get(v) != null && !nd.get(v).containsKey(g))) {
        continue;
      }
      int known = p.knownNode(v) ? 1 : 0;
      uses[g]++;
      knownUses[g] += known;
      f[v] = g;
      assign(p, nd, f, uses, knownUses, v + 1, out);
      uses[g]--;
      knownUses[g] -= known;
    }
  }

  private void chooseEdges(
      GsdProblem p, List<Map<Integer, Double>> nd, int[] f, KnowledgeGraph.Edge[] chosen, int e, List<SubgraphMatch> out) {
    if (e == chosen.length) {
      double gsd = 0;
      for (int v = 0; v < f.length; v++) {
        if (nd.get(v) != null) {
          gsd += nd.get(v).get(f[v]);
        }
      }
      for (int i = 0; i < chosen.length; i++) {
        if (p.knownRelation(i)) {
          gsd += p.relationCandidates(i).get(chosen[i].relation());
        }
      }
      out.add(new SubgraphMatch(f, chosen, gsd));
      return;
    }
    for (KnowledgeGraph.Edge edge : graph.edgesBetween(f[p.edgeA(e)], f[p.edgeB(e)])) {
      if (p.knownRelation(e) && !p.relationCandidates(e).containsKey(edge.relation())) {
        continue;
      }
      chosen[e] = edge;
      chooseEdges(p, nd, f, chosen, e + 1, out);
    }
  }
}
