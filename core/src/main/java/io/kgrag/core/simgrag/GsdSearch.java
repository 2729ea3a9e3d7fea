package io.kgrag.core.simgrag;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * SimGRAG's exact top-k retrieval (paper §5.1 Algorithm 1 with the optimisations of §5.2): the k KG
 * subgraphs that match a {@link GsdProblem} pattern with the smallest Graph Semantic Distance.
 *
 * <h2>Semantics</h2>
 *
 * <ul>
 *   <li>GSD (eq. 2/3) = Σ over known pattern nodes of the chosen candidate's distance + Σ over known
 *       pattern relations of the chosen relation's distance; unknowns add 0. A match's reported gsd is
 *       summed canonically as a double: pattern nodes in index order, then pattern edges in index
 *       order, so any other search summing the same way gets the same bits.
 *   <li>Direction is ignored (§4.2): pattern edge a–b matches KG edge f(a)→f(b) or f(b)→f(a).
 *   <li>Injective: two pattern nodes never map to the same KG node (Definition 1 says bijective); with
 *       {@link GsdProblem.Injectivity#KNOWN}, only a known node's KG node is exclusive and unknowns may share.
 *   <li>Non-induced: further KG edges between mapped nodes are allowed (Algorithm 1 checks only the
 *       pattern's edges).
 *   <li>Each KG edge between the two mapped nodes whose relation is a candidate is its own match
 *       (Algorithm 1 line 13 enumerates (r_G, t_G) pairs); a directed edge that the graph lists twice
 *       counts once.
 *   <li>Top-k uses the total order {@link SubgraphMatch#ORDER} (gsd, then nodes, then edges), so ties
 *       at the k-th place are decided, and the result equals a brute-force enumeration's exactly.
 * </ul>
 *
 * <h2>Algorithm</h2>
 *
 * The start node is the pattern node with the fewest candidates (an unknown node counts as every KG
 * node; ties go to the lowest index) (line 1). L lists the pattern edges in DFS order from it, pattern
 * edges incident to a node taken in index order, each oriented from its already-mapped end (line 2); an
 * edge whose both ends are already mapped closes a cycle and only chooses a KG edge joining the two
 * mapped nodes. Expand(i, f) maps L[i] through every KG adjacency entry of f(h) whose relation and
 * neighbour are candidates (lines 11–16).
 *
 * <p>Pruning (§5.2): with f the partial mapping after choosing a KG edge for L[i], the lower bound is
 * B = mapped node cost + mapped relation cost + X + Y (eq. 11), X = Σ over still-unmapped pattern nodes
 * of their smallest candidate distance (eq. 9; each node once, so a cycle-closing edge adds no node
 * term) and Y = Σ over L's remaining edges of their smallest candidate relation distance (eq. 10). Once
 * k matches are held, a branch is cut when B &gt; (k-th best gsd) + {@value #TOLERANCE}: strictly, and
 * with a tolerance for the bound's different summation order, so a match tying the k-th gsd can still
 * enter through the tie-break. Greedy order (§5.2): start candidates ascending by distance (the loop
 * stops at the first that fails the bound), and each Expand's choices ascending by node distance +
 * relation distance (sorted on the sum rounded to float, which only affects the order of visits; the
 * bound is checked on each choice exactly).
 *
 * <p>Instances hold only the graph; every call keeps its state to itself, so one instance may serve
 * many threads. A call allocates per-level buffers that grow to the largest adjacency it scans.
 */
public final class GsdSearch {
  /** Slack on the pruning comparison, far above the rounding of a sum of a few distances. */
  public static final double TOLERANCE = 1e-9;

  private static final int CLOCK_MASK = 255; // read the clock every 256 expansions

  private final KnowledgeGraph graph;

  public GsdSearch(KnowledgeGraph graph) {
    this.graph = Objects.requireNonNull(graph, "graph");
  }

  /**
   * The top-k matches of {@code problem} in {@link SubgraphMatch#ORDER}, with no expansion budget.
   *
   * @see #topK(GsdProblem, int, long, long)
   */
  public GsdResult topK(GsdProblem problem, int k, long timeoutNanos) {
    return topK(problem, k, 0, timeoutNanos);
  }

  /**
   * The top-k matches of {@code problem} in {@link SubgraphMatch#ORDER}.
   *
   * @param k how many matches, at least 1
   * @param maxExpansions stop after this many expansions and return the best found so far with {@code
   *     complete == false}; 0 or less means no limit. A budget of expansions gives the same result on any
   *     machine, fast or slow, loaded or idle.
   * @param timeoutNanos stop after about this long and return the best found so far with {@code
   *     complete == false}; 0 or less means no limit. A time limit makes the result depend on the machine.
   * @throws IllegalArgumentException when k &lt; 1 or a candidate is not a node of the graph
   */
  public GsdResult topK(GsdProblem problem, int k, long maxExpansions, long timeoutNanos) {
    Objects.requireNonNull(problem, "problem");
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
    int n = graph.nodeCount();
    for (int v = 0; v < problem.patternNodes(); v++) {
      if (!problem.knownNode(v)) {
        continue;
      }
      for (int c : problem.candidateNodes(v)) {
        if (c >= n) {
          throw new IllegalArgumentException("pattern node " + v + ": candidate " + c + " is not a node of the graph (" + n + " nodes)");
        }
      }
      if (problem.minNodeDistance(v) == Double.POSITIVE_INFINITY) {
        return new GsdResult(List.of(), true, 0); // a known node without candidates matches nothing
      }
    }
    for (int e = 0; e < problem.edgeCount(); e++) {
      if (problem.minRelationDistance(e) == Double.POSITIVE_INFINITY) {
        return new GsdResult(List.of(), true, 0);
      }
    }
    Search s = new Search(graph, problem, k, maxExpansions, timeoutNanos);
    s.run();
    return new GsdResult(s.best, !s.stopped, s.expansions);
  }

  /** The state of one call. */
  private static final class Search {
    private final KnowledgeGraph graph;
    private final GsdProblem problem;
    private final int k;
    private final long maxExpansions;
    private final long timeoutNanos;
    private final long startNanos;

    // the plan: L as (from, to, pattern edge, closes a cycle), and rest[i] = X + Y once L[0..i) is mapped
    private int start;
    private int[] lFrom;
    private int[] lTo;
    private int[] lEdge;
    private boolean[] lCloses;
    private double[] rest;
    private final NodeDistances[] nodeTables;
    private final RelationDistances[] relationTables;

    // the partial mapping
    private final int[] map;
    private final double[] nodeCost;
    private final int[] used;
    private final boolean[] usedKnown;
    private int usedCount;
    private final int[] edgeSrc;
    private final int[] edgeDst;
    private final String[] edgeRelation;
    private final double[] relationCost;

    // per level of L: the admissible choices (adjacency entry, node cost, relation cost) and their order
    private final int[][] choiceEntry;
    private final double[][] choiceNode;
    private final double[][] choiceRelation;
    private final long[][] choiceOrder;

    private final List<SubgraphMatch> best;
    long expansions;
    boolean stopped;

    Search(KnowledgeGraph graph, GsdProblem problem, int k, long maxExpansions, long timeoutNanos) {
      this.graph = graph;
      this.problem = problem;
      this.k = k;
      this.maxExpansions = maxExpansions;
      this.timeoutNanos = timeoutNanos;
      this.startNanos = timeoutNanos > 0 ? System.nanoTime() : 0;
      int nodes = problem.patternNodes();
      int edges = problem.edgeCount();
      nodeTables = new NodeDistances[nodes];
      for (int v = 0; v < nodes; v++) {
        nodeTables[v] = problem.nodeTable(v);
      }
      relationTables = new RelationDistances[edges];
      for (int e = 0; e < edges; e++) {
        relationTables[e] = problem.relationTable(e);
      }
      map = new int[nodes];
      Arrays.fill(map, -1);
      nodeCost = new double[nodes];
      used = new int[nodes];
      usedKnown = new boolean[nodes];
      edgeSrc = new int[edges];
      edgeDst = new int[edges];
      edgeRelation = new String[edges];
      relationCost = new double[edges];
      choiceEntry = new int[edges][16];
      choiceNode = new double[edges][16];
      choiceRelation = new double[edges][16];
      choiceOrder = new long[edges][16];
      best = new ArrayList<>(Math.min(k, 1024));
    }

    void run() {
      plan();
      if (problem.knownNode(start)) {
        int[] candidates = problem.candidateNodes(start);
        double[] distances = problem.candidateDistances(start);
        for (int i = 0; i < candidates.length && !stopped; i++) {
          // ascending distances: the first start candidate failing the bound ends the loop (§5.2)
          if (distances[i] + rest[0] > limit()) {
            break;
          }
          begin(candidates[i], distances[i]);
        }
      } else {
        int n = graph.nodeCount();
        for (int v = 0; v < n && !stopped; v++) {
          if (rest[0] > limit()) {
            break;
          }
          begin(v, 0);
        }
      }
    }

    private void begin(int kgNode, double distance) {
      map[start] = kgNode;
      nodeCost[start] = distance;
      used[0] = kgNode;
      usedKnown[0] = problem.knownNode(start);
      usedCount = 1;
      expand(0, distance);
      map[start] = -1;
      usedCount = 0;
    }

    /** Lines 1–2: the start node and L in DFS order; and the suffix sums X + Y of eqs. 9–10. */
    private void plan() {
      int nodes = problem.patternNodes();
      int edges = problem.edgeCount();
      int n = graph.nodeCount();
      start = 0;
      for (int v = 1; v < nodes; v++) {
        if (problem.candidateCount(v, n) < problem.candidateCount(start, n)) {
          start = v;
        }
      }
      lFrom = new int[edges];
      lTo = new int[edges];
      lEdge = new int[edges];
      lCloses = new boolean[edges];
      boolean[] visited = new boolean[nodes];
      boolean[] listed = new boolean[edges];
      visited[start] = true;
      int size = dfs(start, visited, listed, 0);
      if (size != edges) {
        throw new IllegalStateException("the pattern is not connected"); // GsdProblem.build rejects this
      }
      rest = new double[edges + 1];
      for (int i = edges - 1; i >= 0; i--) {
        double node = lCloses[i] ? 0 : problem.minNodeDistance(lTo[i]);
        rest[i] = rest[i + 1] + node + problem.minRelationDistance(lEdge[i]);
      }
    }

    private int dfs(int u, boolean[] visited, boolean[] listed, int size) {
      for (int e = 0; e < problem.edgeCount(); e++) {
        int a = problem.edgeA(e);
        int b = problem.edgeB(e);
        if (listed[e] || (a != u && b != u)) {
          continue;
        }
        int w = a == u ? b : a;
        listed[e] = true;
        lFrom[size] = u;
        lTo[size] = w;
        lEdge[size] = e;
        lCloses[size] = visited[w];
        size++;
        if (!visited[w]) {
          visited[w] = true;
          size = dfs(w, visited, listed, size);
        }
      }
      return size;
    }

    /** The pruning threshold: the k-th best gsd plus the tolerance once k matches are held, else +∞. */
    private double limit() {
      return best.size() < k ? Double.POSITIVE_INFINITY : best.get(k - 1).gsd() + TOLERANCE;
    }

    /** Expand(i, f) of Algorithm 1, with the bound of eq. 11 and the greedy order of §5.2. */
    private void expand(int i, double cost) {
      expansions++;
      if ((maxExpansions > 0 && expansions > maxExpansions)
          || (timeoutNanos > 0 && (expansions & CLOCK_MASK) == 0 && System.nanoTime() - startNanos > timeoutNanos)) {
        stopped = true;
        return;
      }
      if (i == lEdge.length) {
        offer(); // lines 8–10
        return;
      }
      int h = map[lFrom[i]];
      int t = lTo[i];
      int pe = lEdge[i];
      boolean closes = lCloses[i];
      int target = closes ? map[t] : -1;
      NodeDistances nodeTable = closes ? null : nodeTables[t];
      RelationDistances relationTable = relationTables[pe];
      double restAfter = rest[i + 1];
      double limit = limit();

      int[] entries = choiceEntry[i];
      double[] nodeCosts = choiceNode[i];
      double[] relationCosts = choiceRelation[i];
      long[] order = choiceOrder[i];
      int count = 0;
      int degree = graph.entryCount(h);
      for (int e = 0; e < degree; e++) { // line 13
        int w = graph.entryNeighbour(h, e);
        double cn = 0;
        if (closes) {
          if (w != target) {
            continue;
          }
        } else {
          if (nodeTable != null) {
            cn = nodeTable.get(w);
            if (cn < 0) {
              continue; // line 14: not a node candidate
            }
          }
          if (isUsed(w, t)) {
            continue; // line 15: injective
          }
        }
        double cr = 0;
        if (relationTable != null) {
          cr = relationTable.get(graph.entryRelation(h, e));
          if (cr < 0) {
            continue; // line 14: not a relation candidate
          }
        }
        double sum = cn + cr;
        if (cost + sum + restAfter > limit) {
          continue; // eq. 11
        }
        if (count == entries.length) {
          int grown = count * 2;
          entries = choiceEntry[i] = Arrays.copyOf(entries, grown);
          nodeCosts = choiceNode[i] = Arrays.copyOf(nodeCosts, grown);
          relationCosts = choiceRelation[i] = Arrays.copyOf(relationCosts, grown);
          order = choiceOrder[i] = Arrays.copyOf(order, grown);
        }
        entries[count] = e;
        nodeCosts[count] = cn;
        relationCosts[count] = cr;
        // non-negative floats order like their bits; the low half keeps the entry order for ties
        order[count] = ((long) Float.floatToRawIntBits((float) sum) << 32) | count;
        count++;
      }
      Arrays.sort(order, 0, count);

      for (int x = 0; x < count && !stopped; x++) {
        int j = (int) order[x];
        double next = cost + nodeCosts[j] + relationCosts[j];
        if (next + restAfter > limit()) {
          continue; // the k-th best improved since the choices were collected
        }
        int e = entries[j];
        int w = graph.entryNeighbour(h, e);
        boolean out = graph.entryOutgoing(h, e);
        edgeSrc[pe] = out ? h : w;
        edgeDst[pe] = out ? w : h;
        edgeRelation[pe] = graph.entryRelation(h, e);
        relationCost[pe] = relationCosts[j];
        if (closes) {
          expand(i + 1, next);
        } else {
          map[t] = w;
          nodeCost[t] = nodeCosts[j];
          usedKnown[usedCount] = problem.knownNode(t);
          used[usedCount++] = w;
          expand(i + 1, next); // line 16
          usedCount--;
          map[t] = -1;
        }
      }
    }

    /** Whether pattern node {@code t} may not take {@code kgNode}: it is taken (by a known node, for an unknown t under KNOWN). */
    private boolean isUsed(int kgNode, int t) {
      boolean anyUse = problem.injectivity() == GsdProblem.Injectivity.ALL || problem.knownNode(t);
      for (int u = 0; u < usedCount; u++) {
        if (used[u] == kgNode && (anyUse || usedKnown[u])) {
          return true;
        }
      }
      return false;
    }

    /** Line 9: offers the complete mapping to the top-k list. */
    private void offer() {
      double gsd = 0; // canonical: nodes in index order, then edges in index order
      for (double c : nodeCost) {
        gsd += c;
      }
      for (double c : relationCost) {
        gsd += c;
      }
      int size = best.size();
      if (size == k && compareTo(gsd, best.get(size - 1)) >= 0) {
        return;
      }
      int lo = 0;
      int hi = size;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        int c = compareTo(gsd, best.get(mid));
        if (c == 0) {
          return; // the same match again: the graph lists this directed edge twice
        }
        if (c > 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (size == k) {
        best.remove(size - 1);
      }
      KnowledgeGraph.Edge[] edges = new KnowledgeGraph.Edge[edgeSrc.length];
      for (int e = 0; e < edges.length; e++) {
        edges[e] = new KnowledgeGraph.Edge(edgeSrc[e], edgeRelation[e], edgeDst[e]);
      }
      best.add(lo, new SubgraphMatch(map, edges, gsd));
    }

    /** The current complete mapping against {@code m} in {@link SubgraphMatch#ORDER}. */
    private int compareTo(double gsd, SubgraphMatch m) {
      int c = Double.compare(gsd, m.gsd());
      for (int v = 0; c == 0 && v < map.length; v++) {
        c = Integer.compare(map[v], m.node(v));
      }
      for (int e = 0; c == 0 && e < edgeSrc.length; e++) {
        c = SubgraphMatch.compareEdge(edgeSrc[e], edgeRelation[e], edgeDst[e], m.edge(e));
      }
      return c;
    }
  }
}
