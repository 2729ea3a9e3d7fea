package io.kgrag.core.qafd;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.TypeMatcher;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.normalize.LabelSearch;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;

/**
 * QAFD-RAG retrieval for one question over a knowledge graph: keywords → seeds (Algorithm 1) → one flow
 * diffusion from all seeds with query-aware edge weights (Algorithm 2, eq. 1–2) → the support
 * {v : x_v &gt; threshold} as the retrieved subgraph → answer candidates from it.
 *
 * <p><b>Source mass.</b> Δ_s = α · T_s for every seed s with degree capacities T_v = deg(v): α times the
 * seeds' volume ({@link FlowDiffusion#seedVolume}), not the paper's α times the whole graph's capacity,
 * which cannot terminate (mass is conserved). The region the mass settles in holds about α times the
 * seeds' capacity.
 *
 * <p><b>Seeds</b> come from the low-level keywords (the mentioned entities) when there are any, else from
 * every keyword: in a graph of named entities a theme word that equals some label would seed noise.
 *
 * <p><b>Candidates</b> (the extractive answer's input): every node the mass reached (the support and its
 * frontier) that is not one of the question's own entities (seeds at cosine ≥
 * {@link Config#mentionSimilarity()}), restricted to those matching the unknown's type word when any does
 * ({@link TypeMatcher}; neutral on graphs without schema-style relation names), each with its evidence: its
 * edges to the mentioned entities it is adjacent to (the unknown's connections in the query graph), else the
 * shortest path through the touched nodes to the nearest seed. They are ranked by how many of the mentioned
 * entities they connect to directly, then ({@link Rank#SCORE}, the default) by diffusion score x, then by
 * the flow through them (all mass they received, {@link FlowDiffusion.Result#inflow()}): every connection
 * the query graph asks for counts first; among equals a node that filled and pushed ranks by its importance
 * x, and the frontier, whose x is 0, by how much of the query-weighted mass reached it. A node with a large
 * capacity (a genre, a year: T_v = deg v) absorbs what it receives without pushing, so only its flow tells
 * how much of the query's mass went to it; {@link Rank#FLOW} ranks by the flow alone. A candidate's score
 * encodes its keys in one number ({@link #rankScore}), so equal scores are true ties.
 */
public final class QafdRetriever {
  /**
   * @param seeds Algorithm 1's N and least cosine
   * @param mentionSimilarity seeds at least this similar to a keyword are the question's own entities
   * @param weights eq. 1–2
   * @param alpha the source multiplier over the seeds' volume
   * @param diffusion Algorithm 2's ε, push cap and random seed
   * @param supportThreshold the support is {v : x_v &gt; this}
   * @param maxCandidates the most candidates returned
   * @param rank how candidates with as many connections are ordered
   */
  /**
   * Among candidates with as many connections: {@code SCORE}, the paper's node importance x first, then the
   * flow through the node; {@code FLOW}, the flow alone (large-capacity answers, a genre, a year, absorb
   * without pushing and keep x = 0).
   */
  public enum Rank {
    SCORE,
    FLOW
  }

  public record Config(
      SeedSelection.Config seeds,
      double mentionSimilarity,
      QueryAwareWeights.Config weights,
      double alpha,
      FlowDiffusion.Config diffusion,
      double supportThreshold,
      int maxCandidates,
      Rank rank)
      implements Serializable {
    public Config {
      if (seeds == null || weights == null || diffusion == null) {
        throw new IllegalArgumentException("seeds, weights and diffusion settings are required");
      }
      if (!(alpha > 1) || Double.isInfinite(alpha)) {
        throw new IllegalArgumentException("alpha must be a finite number > 1 (the mass must spread beyond the seeds), got " + alpha);
      }
      if (!(supportThreshold >= 0) || Double.isInfinite(supportThreshold)) {
        throw new IllegalArgumentException("the support threshold must be a finite number >= 0, got " + supportThreshold);
      }
      if (maxCandidates < 1) {
        throw new IllegalArgumentException("maxCandidates must be >= 1, got " + maxCandidates);
      }
      if (rank == null) {
        throw new IllegalArgumentException("a rank order is required");
      }
    }

    /** The same settings with another source multiplier. */
    public Config withAlpha(double a) {
      return new Config(seeds, mentionSimilarity, weights, a, diffusion, supportThreshold, maxCandidates, rank);
    }

    /**
     * The defaults: N = 20 seeds at cosine ≥ 0.8 (the paper's sensitivity default; the floor keeps
     * keywords that name no entity from seeding), Hybrid weights a = 1, b = 1/4 with the relation term
     * ρ = 8, α = 10 (the paper's text-to-SQL value; its QA value 50 spread over most of FB15k-237 from hub
     * seeds and hit the push cap on 165 of 366 ERQA dev questions), ε = 0.05, at most 200,000 pushes, random
     * seed 42, support threshold 0, candidates ordered by x then flow. ρ and the order were chosen on
     * MetaQA and ERQA dev (bench/RESULTS.md "qafd").
     */
    public static Config defaults() {
      return new Config(
          new SeedSelection.Config(20, 0.8), 0.999, new QueryAwareWeights.Config(QueryAwareWeights.Combination.HYBRID, 1, 0.25, 8), 10,
          new FlowDiffusion.Config(0.05, 200_000, 100, 42), 0, 20, Rank.SCORE);
    }
  }

  /**
   * What retrieval found for one question.
   *
   * @param seeds the seeds, best first
   * @param diffusion the diffusion's outcome (null when there was no seed)
   * @param support the support's nodes, best score first
   * @param candidates ranked answer candidates with evidence
   * @param weightsComputed edge weights the diffusion asked for
   */
  public record Result(
      Keywords keywords,
      List<SeedSelection.Seed> seeds,
      FlowDiffusion.Result diffusion,
      int[] support,
      List<Candidate> candidates,
      AnswerStatus status,
      String note,
      long seedNanos,
      long diffusionNanos,
      long weightsComputed) {
    public int touched() {
      return diffusion == null ? 0 : diffusion.touched();
    }
  }

  private final KnowledgeGraph graph;
  private final DiffusionGraph adjacency;
  private final NodeSearch search;
  private final IntFunction<float[]> nodeVectors;
  private final Map<String, float[]> relationVectors;
  private final TypeMatcher types;
  private final Config config;

  /**
   * @param search nearest nodes to a vector (see {@link #labelSearch})
   * @param nodeVectors a node's label embedding, or null
   * @param relationVectors relation name → embedding (may be empty: the relation term is then neutral)
   */
  public QafdRetriever(
      KnowledgeGraph graph, NodeSearch search, IntFunction<float[]> nodeVectors, Map<String, float[]> relationVectors, Config config) {
    this.graph = graph;
    this.adjacency = DiffusionGraph.of(graph);
    this.search = search;
    this.nodeVectors = nodeVectors;
    this.relationVectors = relationVectors;
    this.types = new TypeMatcher(graph);
    this.config = config;
  }

  /** Nearest nodes through an index over label embeddings: every node with a hit's label is a hit. */
  public static NodeSearch labelSearch(KnowledgeGraph graph, LabelSearch index) {
    return (v, k) -> {
      List<NodeSearch.Hit> out = new ArrayList<>();
      for (LabelIndex.Hit h : index.nearest(v, k)) {
        for (int n : graph.nodesWithLabelKey(h.labelKey())) {
          out.add(new NodeSearch.Hit(n, h.similarity()));
        }
      }
      return out;
    };
  }

  /** Node vectors looked up by label key. */
  public static IntFunction<float[]> byLabelKey(KnowledgeGraph graph, Function<Long, float[]> keyVectors) {
    return n -> keyVectors.apply(graph.labelKey(n));
  }

  public Config config() {
    return config;
  }

  /** A session embeds through {@code embedder}, caching keyword vectors; one per task. */
  public Session session(Embedder embedder) {
    return new Session(embedder);
  }

  /** Retrieval with one task's embedder. Not thread-safe. */
  public final class Session {
    private final EmbeddingCache cache;

    private Session(Embedder embedder) {
      this.cache = new EmbeddingCache(embedder, 20_000);
    }

    /**
     * @param queryGraph the embedded query graph whose unknown's type word and mentions restrict the
     *     candidates and whose edges that name a relation make that relation align fully with the query; null when the keywords came from the LLM (then the low-level keywords' seeds are the
     *     mentions and there is no type word)
     */
    public Result retrieve(String question, Keywords keywords, QueryGraph queryGraph) {
      long t0 = System.nanoTime();
      List<String> kws = keywords.all();
      if (kws.isEmpty()) {
        return new Result(keywords, List.of(), null, new int[0], List.of(), AnswerStatus.UNABLE, "no keyword in the question", 0, 0, 0);
      }
      List<String> texts = new ArrayList<>(kws);
      texts.add(question);
      float[][] vecs = cache.embed(texts);
      List<float[]> kwVecs = Arrays.asList(vecs).subList(0, kws.size());
      float[] query = vecs[kws.size()];
      // seeds from the entities (low-level keywords) when there are any: in a graph of named entities a theme
      // word ("genre", "fall") that equals some label seeds noise; the themes still weigh edges through h(q)
      int lowCount = (int) kws.stream().filter(k -> keywords.low().stream().anyMatch(l -> l.strip().equalsIgnoreCase(k))).count();
      List<float[]> seedVecs = lowCount > 0 ? kwVecs.subList(0, lowCount) : kwVecs;
      List<SeedSelection.Seed> seeds = new SeedSelection(search, config.seeds()).select(seedVecs);
      long t1 = System.nanoTime();
      if (seeds.isEmpty()) {
        return new Result(
            keywords, seeds, null, new int[0], List.of(), AnswerStatus.UNABLE,
            "no graph node within cosine " + config.seeds().minSimilarity() + " of the keywords " + kws, t1 - t0, 0, 0);
      }
      IntToDoubleFunction cap = FlowDiffusion.degreeCapacity(adjacency);
      int[] seedNodes = seeds.stream().mapToInt(SeedSelection.Seed::node).toArray();
      // a relation the query graph names (the understanding's chain) aligns with the query fully: s(r, q) = 1
      Set<String> named = namedRelations(queryGraph);
      QueryAwareWeights w =
          new QueryAwareWeights(
              adjacency, nodeVectors, query, config.weights(), (n, k) -> {
                String r = graph.entryRelation(n, k);
                return named.contains(r) ? query : relationVectors.get(r);
              });
      FlowDiffusion.Result d = new FlowDiffusion(config.diffusion()).run(adjacency, w, cap, FlowDiffusion.seedVolume(seedNodes, config.alpha(), cap));
      long t2 = System.nanoTime();
      int[] support = d.support(config.supportThreshold());
      List<String> notes = new ArrayList<>();
      if (!d.converged()) {
        notes.add(String.format(java.util.Locale.ROOT, "diffusion stopped after %,d pushes with excess %.3g (the seeds' component is too small for the source mass)",
            d.pushes(), d.excess()));
      }
      List<Candidate> candidates = candidates(seeds, d, support, queryGraph);
      AnswerStatus status;
      if (candidates.isEmpty()) {
        status = AnswerStatus.UNABLE;
        notes.add("no candidate in the support of " + support.length + " nodes");
      } else {
        Candidate top = candidates.get(0);
        status = top.satisfied() >= top.constraints() && d.converged() ? AnswerStatus.EXACT : AnswerStatus.PARTIAL;
      }
      return new Result(keywords, seeds, d, support, candidates, status, notes.isEmpty() ? null : String.join("; ", notes), t1 - t0, t2 - t1,
          w.computed());
    }
  }

  /**
   * The named relations of the query graph's edges at its target, each with the side the target is on: "r>" when
   * the target is the edge's end (the answer is an object of r), "<r" when it is the start.
   */
  private Set<String> targetRelations(QueryGraph queryGraph) {
    Set<String> out = new HashSet<>();
    if (queryGraph != null && queryGraph.target() >= 0) {
      for (QueryGraph.Edge e : queryGraph.edges()) {
        if (e.phrase() == null || !relationVectors.containsKey(e.phrase())) {
          continue;
        }
        if (e.dst() == queryGraph.target()) {
          out.add(e.phrase() + ">");
        } else if (e.src() == queryGraph.target()) {
          out.add("<" + e.phrase());
        }
      }
    }
    return out;
  }

  private static boolean nextToMention(QueryGraph q) {
    for (QueryGraph.Edge e : q.edges()) {
      int other = e.src() == q.target() ? e.dst() : e.dst() == q.target() ? e.src() : -1;
      if (other >= 0 && !q.node(other).unknown()) {
        return true;
      }
    }
    return false;
  }

  private boolean takesPart(int v, Set<String> sides) {
    for (int k = 0; k < graph.entryCount(v); k++) {
      String r = graph.entryRelation(v, k);
      if (sides.contains(graph.entryOutgoing(v, k) ? "<" + r : r + ">")) {
        return true;
      }
    }
    return false;
  }

  /** The graph relations the query graph's edges name exactly (a chain of the question understanding). */
  private Set<String> namedRelations(QueryGraph queryGraph) {
    Set<String> out = new HashSet<>();
    if (queryGraph != null) {
      for (QueryGraph.Edge e : queryGraph.edges()) {
        if (e.phrase() != null && relationVectors.containsKey(e.phrase())) {
          out.add(e.phrase());
        }
      }
    }
    return out;
  }

  private List<Candidate> candidates(List<SeedSelection.Seed> seeds, FlowDiffusion.Result d, int[] support, QueryGraph queryGraph) {
    // the question's own entities, grouped by the keyword that named them (one constraint per keyword)
    Map<Integer, Integer> mentionGroup = new HashMap<>();
    for (SeedSelection.Seed s : seeds) {
      if (s.score() >= config.mentionSimilarity()) {
        mentionGroup.put(s.node(), s.keyword());
      }
    }
    int constraints = (int) mentionGroup.values().stream().distinct().count();
    Set<Integer> seedSet = new HashSet<>();
    seeds.forEach(s -> seedSet.add(s.node()));
    String typeWord = null;
    if (queryGraph != null && queryGraph.target() >= 0) {
      typeWord = queryGraph.node(queryGraph.target()).typeHint();
    }
    Map<Integer, Double> x = d.scoreMap();
    Map<Integer, Double> inflow = new HashMap<>();
    List<Integer> pool = new ArrayList<>();
    for (int i = 0; i < d.touched(); i++) {
      inflow.put(d.nodes()[i], d.inflow()[i]);
      if (d.inflow()[i] > 0 && !mentionGroup.containsKey(d.nodes()[i])) {
        pool.add(d.nodes()[i]);
      }
    }
    if (typeWord != null) {
      String tw = typeWord;
      List<Integer> typed = pool.stream().filter(v -> types.score(v, tw) > 0).toList();
      if (!typed.isEmpty()) {
        pool = typed;
      }
    }
    // a chain's answer takes part in the relation that reaches it, on the answer's side; when no mention is next to it in the query
    // graph (2 or 3 hops), being next to a mention says nothing, and the diffusion's score ranks
    Set<String> last = targetRelations(queryGraph);
    if (!last.isEmpty()) {
      List<Integer> inRelation = pool.stream().filter(v -> takesPart(v, last)).toList();
      if (!inRelation.isEmpty()) {
        pool = inRelation;
      }
    }
    boolean besideMention = queryGraph == null || queryGraph.target() < 0 || last.isEmpty() || nextToMention(queryGraph);
    record Scored(int node, int satisfied, double score, double flow) {}
    List<Scored> scored = new ArrayList<>(pool.size());
    for (int v : pool) {
      Set<Integer> groups = new HashSet<>();
      for (int k = 0; k < graph.entryCount(v); k++) {
        Integer g = mentionGroup.get(graph.entryNeighbour(v, k));
        if (g != null) {
          groups.add(g);
        }
      }
      scored.add(new Scored(v, besideMention ? groups.size() : 0, x.get(v), inflow.get(v)));
    }
    scored.sort(
        Comparator.comparingInt(Scored::satisfied).reversed()
            .thenComparing(Comparator.comparingDouble((Scored s) -> config.rank() == Rank.SCORE ? s.score() : 0).reversed())
            .thenComparing(Comparator.comparingDouble(Scored::flow).reversed())
            .thenComparingLong(s -> graph.entityId(s.node())));
    List<Candidate> out = new ArrayList<>();
    for (Scored s : scored.subList(0, Math.min(config.maxCandidates(), scored.size()))) {
      List<EvidenceEdge> ev = evidence(s.node(), mentionGroup, seedSet, x);
      int connected = s.satisfied() > 0 ? s.satisfied() : (ev.isEmpty() ? 0 : 1);
      double score = config.rank() == Rank.SCORE ? rankScore(s.satisfied(), s.score(), s.flow(), d.sourceMass())
          : s.satisfied() + s.flow() / (s.flow() + d.sourceMass());
      out.add(new Candidate(graph.entityId(s.node()), graph.label(s.node()), score,
          connected, Math.max(1, constraints), ev));
    }
    return out;
  }

  /**
   * One number that orders candidates as they are ranked (so equal numbers are true ties): connections c plus
   * a fraction in [0, 1), 1/2 + x / (2 (1 + x)) for a node that pushed, inflow / (2 (inflow + ||Δ||_1)) for
   * the frontier.
   */
  static double rankScore(int connections, double x, double inflow, double sourceMass) {
    double f = x > 0 ? 0.5 + x / (2 * (1 + x)) : inflow / (2 * (inflow + sourceMass));
    return connections + f;
  }

  /**
   * The candidate's edges to the mentioned entities it is adjacent to; without any, the shortest path
   * through the touched nodes to the nearest seed.
   */
  private List<EvidenceEdge> evidence(int v, Map<Integer, Integer> mentions, Set<Integer> seeds, Map<Integer, Double> touched) {
    List<EvidenceEdge> out = new ArrayList<>();
    Set<Integer> seen = new HashSet<>();
    for (int k = 0; k < graph.entryCount(v); k++) {
      int u = graph.entryNeighbour(v, k);
      if (mentions.containsKey(u) && seen.add(u)) {
        out.add(edge(v, k));
      }
    }
    if (!out.isEmpty()) {
      return out;
    }
    // BFS from v over touched nodes until a seed
    Map<Integer, int[]> parent = new HashMap<>(); // node -> {previous node, entry of previous}
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    parent.put(v, null);
    queue.add(v);
    while (!queue.isEmpty()) {
      int a = queue.poll();
      if (a != v && seeds.contains(a)) {
        int cur = a;
        while (parent.get(cur) != null) {
          int[] p = parent.get(cur);
          out.add(edge(p[0], p[1]));
          cur = p[0];
        }
        java.util.Collections.reverse(out); // from the candidate's own edge to the seed's
        return out;
      }
      for (int k = 0; k < graph.entryCount(a); k++) {
        int b = graph.entryNeighbour(a, k);
        if (!parent.containsKey(b) && touched.containsKey(b)) {
          parent.put(b, new int[] {a, k});
          queue.add(b);
        }
      }
    }
    return out;
  }

  private EvidenceEdge edge(int node, int k) {
    int u = graph.entryNeighbour(node, k);
    int src = graph.entryOutgoing(node, k) ? node : u;
    int dst = src == node ? u : node;
    return new EvidenceEdge(graph.entityId(src), graph.label(src), graph.entryRelation(node, k), graph.entityId(dst), graph.label(dst));
  }
}
