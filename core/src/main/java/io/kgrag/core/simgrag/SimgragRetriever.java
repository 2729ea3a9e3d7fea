package io.kgrag.core.simgrag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.normalize.LabelSearch;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * SimGRAG's pattern-to-subgraph alignment for one question (§4.2–5.2): candidate nodes and relations for
 * every pattern element by vector search over the label embeddings (§5.1 filtering: the top
 * {@code nodeCandidates} labels and {@code relationCandidates} relations by L2 distance, every node or
 * relation at distance 0 for an unknown), then the exact top-k subgraphs by Graph Semantic Distance
 * ({@link GsdSearch}, Algorithm 1 with the bound of eq. 11).
 *
 * <p>Patterns are tried in the order given (the question understanding proposes several, best first): the first
 * whose best subgraph reaches the pattern's own lower bound (every element at its nearest candidate) is
 * answered at once; otherwise the pattern with the smallest best GSD (ties: the earlier) is. Candidates
 * are soft (k^(n) similar labels, k^(r) similar relations), so a wrong pattern usually still has subgraphs,
 * only farther ones. When no pattern has any subgraph, the first is relaxed: its least confident known leaf is
 * dropped and the search repeated, at most {@link Config#relaxations} times, and the answer is
 * {@code partial}. A disconnected pattern keeps the component of its target (also {@code partial}), and so
 * does a search cut by the timeout (the best subgraphs found so far).
 *
 * <p>Candidates come back one per subgraph, best (smallest GSD) first, each bound to the pattern's target.
 */
public final class SimgragRetriever {
  /**
   * @param nodeCandidates k^(n): labels searched per known node (all nodes with those labels are candidates)
   * @param relationCandidates k^(r): relations per known relation
   * @param topK k: subgraphs returned
   * @param maxExpansions graph-search expansions per pattern (0: no limit); the best subgraphs found so far
   *     are kept. The default stop: the same answers on any machine
   * @param timeoutMillis opt-in graph-search time per pattern (0: none); the best subgraphs found so far are
   *     kept, and the answers then depend on the machine's speed
   * @param relaxations most known leaves dropped when no pattern has a subgraph
   */
  public record Config(
      int nodeCandidates,
      int relationCandidates,
      int topK,
      long maxExpansions,
      long timeoutMillis,
      int relaxations,
      GsdProblem.Injectivity injectivity)
      implements Serializable {
    /** Expansions per graph search by default: far above what MetaQA's and ERQA's searches take. */
    public static final long DEFAULT_MAX_EXPANSIONS = 20_000_000L;

    /**
     * The paper's MetaQA settings (k^(n) = k^(r) = 16, k = 3), at most {@value #DEFAULT_MAX_EXPANSIONS}
     * expansions per search and no time limit (the paper stops its search by time; a budget of expansions
     * gives the same answers on any machine), one relaxation, unknowns allowed to share a KG node as the
     * paper's code allows ({@link GsdProblem.Injectivity#KNOWN}).
     */
    public static final Config DEFAULT = new Config(16, 16, 3, DEFAULT_MAX_EXPANSIONS, 0, 1, GsdProblem.Injectivity.KNOWN);

    public Config {
      if (nodeCandidates < 1 || relationCandidates < 1 || topK < 1 || maxExpansions < 0 || timeoutMillis < 0 || relaxations < 0
          || injectivity == null) {
        throw new IllegalArgumentException(
            "SimGRAG needs node-candidates, relation-candidates and top-k >= 1, max-expansions, timeout-ms and relaxations >= 0 and an"
                + " injectivity, got " + this);
      }
    }

    /** With the default expansion budget, no time limit and the default injectivity. */
    public Config(int nodeCandidates, int relationCandidates, int topK, int relaxations) {
      this(nodeCandidates, relationCandidates, topK, DEFAULT_MAX_EXPANSIONS, 0, relaxations, DEFAULT.injectivity());
    }
  }

  /**
   * What retrieval found: the pattern answered (after relaxation), its subgraphs, one candidate per subgraph,
   * the status and a note, and where the time went.
   */
  public record Result(
      QueryGraph pattern,
      List<SubgraphMatch> subgraphs,
      List<Candidate> candidates,
      AnswerStatus status,
      String note,
      long candidateNanos,
      long searchNanos,
      long expansions) {}

  private final KnowledgeGraph graph;
  private final LabelSearch labels;
  private final Function<Long, float[]> keyVectors;
  private final String[] relationNames;
  private final float[][] relationVectors;
  private final Config config;
  private final GsdSearch search;

  /**
   * @param keyVectors the stored embedding of a graph label by label key, or null (then it is embedded)
   * @param relationVectors every relation's label embedding
   */
  public SimgragRetriever(KnowledgeGraph graph, LabelSearch labels, Function<Long, float[]> keyVectors, Map<String, float[]> relationVectors, Config config) {
    this.graph = graph;
    this.labels = labels;
    this.keyVectors = keyVectors;
    this.relationNames = relationVectors.keySet().stream().sorted().toArray(String[]::new);
    this.relationVectors = new float[relationNames.length][];
    for (int i = 0; i < relationNames.length; i++) {
      this.relationVectors[i] = relationVectors.get(relationNames[i]);
    }
    this.config = config;
    this.search = new GsdSearch(graph);
  }

  public Config config() {
    return config;
  }

  /** A task's view: caches the embeddings of the labels and relation phrases its questions use. */
  public Session session(Embedder embedder) {
    return new Session(embedder);
  }

  /** Retrieval for one task's questions; not thread-safe. */
  public final class Session {
    private final EmbeddingCache cache;

    private Session(Embedder embedder) {
      this.cache = new EmbeddingCache(embedder, 20_000);
    }

    /** Tries {@code patterns} in order, then relaxes the first (see the class comment). */
    public Result retrieve(List<QueryGraph> patterns) {
      if (patterns.isEmpty()) {
        throw new IllegalArgumentException("no pattern to retrieve");
      }
      long candNanos = 0;
      long searchNanos = 0;
      long expansions = 0;
      List<String> notes = new ArrayList<>();
      QueryGraph first = null;
      Attempt best = null;
      for (QueryGraph p : patterns) {
        Attempt a = attempt(p);
        candNanos += a.candNanos;
        searchNanos += a.searchNanos;
        expansions += a.expansions;
        if (first == null) {
          first = a.pattern;
        }
        if (!a.matches.isEmpty() && (best == null || a.matches.get(0).gsd() < best.matches.get(0).gsd() - GsdSearch.TOLERANCE)) {
          best = a;
        }
        if (best != null && best.matches.get(0).gsd() <= best.floor + GsdSearch.TOLERANCE) {
          break; // a pattern whose best subgraph reaches its own lower bound: no later pattern is tried
        }
      }
      if (best != null) {
        if (best.note != null) {
          notes.add(best.note);
        }
        return result(best.pattern, best.matches, best.partial ? AnswerStatus.PARTIAL : AnswerStatus.EXACT, notes, candNanos, searchNanos, expansions);
      }
      QueryGraph relaxed = first;
      for (int r = 0; r < config.relaxations(); r++) {
        relaxed = dropLeaf(relaxed);
        if (relaxed == null) {
          break;
        }
        Attempt a = attempt(relaxed);
        candNanos += a.candNanos;
        searchNanos += a.searchNanos;
        expansions += a.expansions;
        if (!a.matches.isEmpty()) {
          notes.add("no subgraph matches the whole pattern; relaxed to " + a.pattern);
          return result(a.pattern, a.matches, AnswerStatus.PARTIAL, notes, candNanos, searchNanos, expansions);
        }
      }
      notes.add(patterns.size() == 1 ? "no subgraph matches the pattern " + first : "no subgraph matches any of " + patterns.size() + " patterns");
      return new Result(first, List.of(), List.of(), AnswerStatus.UNABLE, String.join("; ", notes), candNanos, searchNanos, expansions);
    }

    /** One pattern's search; {@code floor} is eq. 11's bound before anything is mapped (the least GSD possible). */
    private record Attempt(
        QueryGraph pattern, List<SubgraphMatch> matches, double floor, boolean partial, String note, long candNanos, long searchNanos, long expansions) {}

    private Attempt attempt(QueryGraph pattern) {
      long t0 = System.nanoTime();
      QueryGraph p = component(pattern);
      String note = p == pattern ? null : "pattern is disconnected; kept the component of its target";
      if (p.nodes().stream().allMatch(QueryGraph.Node::unknown)) {
        return new Attempt(p, List.of(), 0, false, note, System.nanoTime() - t0, 0, 0);
      }
      GsdProblem problem = problem(p);
      long t1 = System.nanoTime();
      GsdResult r = search.topK(problem, config.topK(), config.maxExpansions(), config.timeoutMillis() * 1_000_000L);
      long t2 = System.nanoTime();
      if (!r.complete()) {
        String limit =
            config.maxExpansions() > 0 && r.expansions() > config.maxExpansions()
                ? String.format(java.util.Locale.ROOT, "%,d expansions", config.maxExpansions())
                : config.timeoutMillis() + " ms";
        note = (note == null ? "" : note + "; ") + "graph search stopped after " + limit + " with the best subgraphs found so far";
      }
      double floor = 0;
      for (int n = 0; n < problem.patternNodes(); n++) {
        floor += problem.minNodeDistance(n);
      }
      for (int e = 0; e < problem.edgeCount(); e++) {
        floor += problem.minRelationDistance(e);
      }
      return new Attempt(p, r.top(), floor, note != null, note, t1 - t0, t2 - t1, r.expansions());
    }

    /** Eq. (1) and §5.1 filtering: each known element's candidates with their L2 distances. */
    private GsdProblem problem(QueryGraph p) {
      List<String> texts = new ArrayList<>();
      for (QueryGraph.Node n : p.nodes()) {
        if (!n.unknown() && keyVectors.apply(StableIds.labelKey(n.label())) == null) {
          texts.add(n.label());
        }
      }
      for (QueryGraph.Edge e : p.edges()) {
        if (e.phrase() != null && relationIndex(e.phrase()) < 0) {
          texts.add(e.phrase());
        }
      }
      Map<String, float[]> vs = vectors(texts);
      GsdProblem.Builder b = GsdProblem.builder(p.nodes().size()).injectivity(config.injectivity());
      for (QueryGraph.Node n : p.nodes()) {
        if (n.unknown()) {
          continue;
        }
        long key = StableIds.labelKey(n.label());
        float[] v = keyVectors.apply(key);
        if (v == null) {
          v = vs.get(n.label());
        }
        Map<Integer, Double> cands = new LinkedHashMap<>();
        for (int node : graph.nodesWithLabelKey(key)) {
          cands.put(node, 0.0); // the label itself: distance 0 even if the approximate search misses it
        }
        for (LabelIndex.Hit h : labels.nearest(v, config.nodeCandidates())) {
          double d = l2(h.similarity());
          for (int node : graph.nodesWithLabelKey(h.labelKey())) {
            cands.merge(node, d, Math::min);
          }
        }
        int[] nodes = new int[cands.size()];
        double[] dist = new double[cands.size()];
        int i = 0;
        for (Map.Entry<Integer, Double> c : cands.entrySet()) {
          nodes[i] = c.getKey();
          dist[i++] = c.getValue();
        }
        b.nodeCandidates(n.id(), nodes, dist);
      }
      for (QueryGraph.Edge e : p.edges()) {
        int edge = b.edge(e.src(), e.dst());
        if (e.phrase() != null) {
          int own = relationIndex(e.phrase());
          float[] v = own >= 0 ? relationVectors[own] : vs.get(e.phrase());
          b.relationCandidates(edge, nearestRelations(v, own));
        }
      }
      return b.build();
    }

    private Map<String, float[]> vectors(List<String> texts) {
      float[][] vs = cache.embed(texts);
      Map<String, float[]> out = new HashMap<>();
      for (int i = 0; i < vs.length; i++) {
        out.put(texts.get(i), vs[i]);
      }
      return out;
    }
  }

  private Result result(QueryGraph p, List<SubgraphMatch> matches, AnswerStatus status, List<String> notes, long cand, long search, long expansions) {
    List<Candidate> out = new ArrayList<>();
    int target = p.target();
    for (SubgraphMatch m : matches) {
      List<EvidenceEdge> ev = new ArrayList<>();
      for (KnowledgeGraph.Edge e : m.edges()) {
        ev.add(new EvidenceEdge(graph.entityId(e.src()), graph.label(e.src()), e.relation(), graph.entityId(e.dst()), graph.label(e.dst())));
      }
      int bound = target >= 0 ? m.nodes()[target] : -1;
      out.add(new Candidate(
          bound >= 0 ? graph.entityId(bound) : -1, bound >= 0 ? graph.label(bound) : null, -m.gsd(), m.edges().length, p.edges().size(), ev));
    }
    return new Result(p, matches, out, status, notes.isEmpty() ? null : String.join("; ", notes), cand, search, expansions);
  }

  /** The relation named exactly {@code phrase}, or -1. */
  private int relationIndex(String phrase) {
    return Arrays.binarySearch(relationNames, phrase);
  }

  /** The k^(r) relations nearest to {@code v} by L2 (the relation itself at 0 when the phrase names it). */
  private Map<String, Double> nearestRelations(float[] v, int own) {
    Integer[] order = new Integer[relationNames.length];
    double[] d = new double[relationNames.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      d[i] = i == own ? 0.0 : l2(EmbeddingCache.dot(v, relationVectors[i]));
    }
    Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> d[i]).thenComparing(i -> relationNames[i]));
    Map<String, Double> out = new LinkedHashMap<>();
    for (int i = 0; i < Math.min(config.relationCandidates(), order.length); i++) {
      out.put(relationNames[order[i]], d[order[i]]);
    }
    return out;
  }

  /** L2 distance between unit vectors of cosine {@code cos}: sqrt(2 − 2 cos). */
  static double l2(double cos) {
    return Math.sqrt(Math.max(0.0, 2.0 - 2.0 * cos));
  }

  /** The pattern restricted to the connected component of its target (of node 0 without one). */
  static QueryGraph component(QueryGraph p) {
    int n = p.nodes().size();
    boolean[] seen = new boolean[n];
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    int start = p.target() >= 0 ? p.target() : 0;
    seen[start] = true;
    queue.add(start);
    int count = 1;
    while (!queue.isEmpty()) {
      int u = queue.poll();
      for (QueryGraph.Edge e : p.edges()) {
        if (e.src() == u || e.dst() == u) {
          int w = e.other(u);
          if (!seen[w]) {
            seen[w] = true;
            count++;
            queue.add(w);
          }
        }
      }
    }
    return count == n ? p : subgraph(p, seen);
  }

  /** The pattern without its least confident known leaf (ties: the last), or null when none can go. */
  static QueryGraph dropLeaf(QueryGraph p) {
    if (p == null || p.mentions().size() < 2) {
      return null;
    }
    int drop = -1;
    for (QueryGraph.Node n : p.nodes()) {
      if (!n.unknown() && p.degree(n.id()) == 1 && (drop < 0 || n.confidence() <= p.node(drop).confidence())) {
        drop = n.id();
      }
    }
    if (drop < 0) {
      return null;
    }
    boolean[] keep = new boolean[p.nodes().size()];
    Arrays.fill(keep, true);
    keep[drop] = false;
    return subgraph(p, keep);
  }

  private static QueryGraph subgraph(QueryGraph p, boolean[] keep) {
    QueryGraph.Builder b = QueryGraph.builder();
    int[] id = new int[p.nodes().size()];
    Arrays.fill(id, -1);
    for (QueryGraph.Node n : p.nodes()) {
      if (keep[n.id()]) {
        id[n.id()] = n.unknown() ? b.unknown(n.typeHint()) : b.entity(n.label(), n.description(), n.confidence());
      }
    }
    for (QueryGraph.Edge e : p.edges()) {
      if (keep[e.src()] && keep[e.dst()]) {
        b.edge(id[e.src()], id[e.dst()], e.phrase());
      }
    }
    if (p.target() >= 0 && keep[p.target()]) {
      b.target(id[p.target()]);
    }
    return b.build();
  }
}
