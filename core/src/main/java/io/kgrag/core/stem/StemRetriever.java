package io.kgrag.core.stem;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.normalize.LabelSearch;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * STEM's retrieval for one question (§3.3–3.6) over its candidate schema plans:
 *
 * <ol>
 *   <li>Question entities N_Q: per entity of the schema, the graph nodes with its label (else the nearest
 *       label's nodes).
 *   <li>Guidance graph: the {@link GuidanceModel}'s top K = {@code guidanceFactor} · |T| nodes for the plan
 *       (eq. 7; the paper's K' = 4); G'_Q is the subgraph they induce.
 *   <li>Anchoring (eqs. 8–11): the top {@code anchorCandidates} labels by cosine (the paper's 50), each
 *       label's nodes scored by the cosine × {@code anchorBoost} (λ = 1.5) when in N'_Q; the best is e*.
 *   <li>Structure tracing from every anchored entity ({@link StructureTracer}, eqs. 12–15, Algorithms 1–2)
 *       with the plan's strategy, the guidance bonus τ on edges of G'_Q.
 *   <li>Merging (§3.6): the union over anchors and plans. Each graph node bound to the schema's target is a
 *       candidate; its branch (the matches from the anchor to it and every match traced on from it) is its
 *       evidence. A candidate whose branch satisfies every triple of its plan (matched, with each question
 *       entity end on that entity's nodes) ranks first, by its plan's rank (plans come best first, so a longer
 *       plan further down the beam does not outrank a complete answer of a better one by having more triples),
 *       then by the share of its plan's triples satisfied, then by the mean best T-Score per schema triple.
 * </ol>
 */
public final class StemRetriever {
  /**
   * @param anchorCandidates N, labels searched per question entity (paper: 50)
   * @param anchorBoost λ of eq. 11 (paper: 1.5)
   * @param guidanceFactor K' of K = |T| · K' (paper: 4); 0 turns the guidance graph off
   * @param tracing θ, τ and the tracing budget
   * @param strategy a strategy forced on every plan, or null for each plan's own
   */
  public record Config(int anchorCandidates, double anchorBoost, int guidanceFactor, StructureTracer.Config tracing, Strategy strategy)
      implements Serializable {
    public static final Config DEFAULT = new Config(50, 1.5, 4, StructureTracer.Config.DEFAULT, null);

    public Config {
      if (anchorCandidates < 1 || !(anchorBoost >= 1) || guidanceFactor < 0 || tracing == null) {
        throw new IllegalArgumentException("STEM needs anchor-candidates >= 1, anchor-boost >= 1, guidance-factor >= 0 and tracing settings, got " + this);
      }
    }
  }

  /**
   * What retrieval found.
   *
   * @param plans the plans traced
   * @param candidates best first
   * @param traces traces run (anchors × plans)
   * @param matches graph edges matched over all traces
   * @param truncated traces cut by the match budget
   * @param guidanceNodes |N'_Q| summed over plans
   */
  public record Result(
      List<SchemaPlan> plans, List<Candidate> candidates, AnswerStatus status, String note, int traces, int matches, int truncated,
      int guidanceNodes, long anchorNanos, long guidanceNanos, long traceNanos) {}

  private final KnowledgeGraph graph;
  private final LabelSearch labels;
  private final GuidanceModel guidance;
  private final Config config;
  private final StructureTracer tracer;

  public StemRetriever(KnowledgeGraph graph, LabelSearch labels, GuidanceModel guidance, Config config) {
    this.graph = graph;
    this.labels = labels;
    this.guidance = guidance;
    this.config = config;
    this.tracer = new StructureTracer(graph, config.tracing());
  }

  public Config config() {
    return config;
  }

  /** Retrieval for one task's questions, with its vectors; not thread-safe. */
  public Session session(TripleEncoder.Vectors vectors) {
    return new Session(vectors);
  }

  /** Retrieval for one task; not thread-safe (it caches triple encodings). */
  public final class Session {
    private final TripleEncoder.Vectors vectors;
    private final TripleEncoder encoder;

    private Session(TripleEncoder.Vectors vectors) {
      this.vectors = vectors;
      this.encoder = new TripleEncoder(graph, vectors, 200_000);
    }

    public TripleEncoder encoder() {
      return encoder;
    }

    public Result retrieve(List<SchemaPlan> plans) {
      long anchorNanos = 0;
      long guidanceNanos = 0;
      long traceNanos = 0;
      int traces = 0;
      int matches = 0;
      int truncated = 0;
      int guidanceNodes = 0;
      Map<Long, Ranked> best = new LinkedHashMap<>();
      List<String> notes = new ArrayList<>();
      Map<String, Map<Integer, Double>> anchorSims = new HashMap<>(); // plans share their entities' label searches
      for (int pi = 0; pi < plans.size(); pi++) {
        SchemaPlan plan = plans.get(pi);
        QueryGraph s = plan.schema();
        long t0 = System.nanoTime();
        Map<Integer, int[]> own = new LinkedHashMap<>(); // schema entity -> its question nodes
        Set<Integer> nq = new LinkedHashSet<>();
        for (QueryGraph.Node n : s.mentions()) {
          int[] nodes = questionNodes(n.label());
          own.put(n.id(), nodes);
          for (int v : nodes) {
            nq.add(v);
          }
        }
        long t1 = System.nanoTime();
        Set<Integer> gNodes = new HashSet<>();
        if (config.guidanceFactor() > 0 && !nq.isEmpty()) {
          int k = config.guidanceFactor() * s.edges().size();
          for (int v : guidance.topNodes(graph, nq.stream().mapToInt(Integer::intValue).toArray(), tripleParts(plan), k)) {
            gNodes.add(v);
          }
        }
        guidanceNodes += gNodes.size();
        StructureTracer.Guidance g = gNodes.isEmpty() ? StructureTracer.Guidance.NONE : e -> gNodes.contains(e.src()) && gNodes.contains(e.dst());
        long t2 = System.nanoTime();
        Strategy strategy = config.strategy() != null ? config.strategy() : plan.strategy();
        List<StructureTracer.Trace> planTraces = new ArrayList<>();
        long ta = 0;
        for (QueryGraph.Node n : s.mentions()) {
          long a0 = System.nanoTime();
          Anchor a = anchor(anchorSims.computeIfAbsent(n.label(), this::anchorCandidates), gNodes);
          ta += System.nanoTime() - a0;
          if (a == null) {
            continue;
          }
          StructureTracer.Trace tr = tracer.trace(plan, n.id(), a.node, a.score, strategy, encoder, g);
          traces++;
          matches += tr.matches().size();
          truncated += tr.truncated() ? 1 : 0;
          planTraces.add(tr);
        }
        long t3 = System.nanoTime();
        anchorNanos += (t1 - t0) + ta;
        guidanceNanos += t2 - t1;
        traceNanos += t3 - t2 - ta;
        for (StructureTracer.Trace tr : planTraces) {
          collect(plan, pi, tr, own, best);
        }
      }
      List<Ranked> ranked = new ArrayList<>(best.values());
      ranked.sort(Ranked.ORDER);
      List<Candidate> out = new ArrayList<>(ranked.size());
      for (Ranked r : ranked) {
        out.add(r.candidate);
      }
      AnswerStatus status;
      if (out.isEmpty()) {
        status = AnswerStatus.UNABLE;
        notes.add(traces == 0 ? "no question entity of any plan could be anchored in the graph" : "tracing bound no graph node to the answer placeholder");
      } else {
        status = out.get(0).complete() ? AnswerStatus.EXACT : AnswerStatus.PARTIAL;
      }
      if (truncated > 0) {
        notes.add(truncated + " trace" + (truncated == 1 ? "" : "s") + " stopped at " + config.tracing().maxMatches() + " matches");
      }
      return new Result(plans, out, status, notes.isEmpty() ? null : String.join("; ", notes), traces, matches, truncated, guidanceNodes,
          anchorNanos, guidanceNanos, traceNanos);
    }

    /**
     * Per schema triple its head, relation and tail vectors; null for a placeholder or an open relation (the
     * guidance model reads it as zero).
     */
    public List<float[][]> tripleParts(SchemaPlan plan) {
      List<float[][]> out = new ArrayList<>();
      for (QueryGraph.Edge e : plan.schema().edges()) {
        QueryGraph.Node h = plan.schema().node(e.src());
        QueryGraph.Node t = plan.schema().node(e.dst());
        out.add(new float[][] {
          h.unknown() ? null : vectors.entity(h.label()),
          e.phrase() == null || e.phrase().equals("?") ? null : vectors.relation(e.phrase()),
          t.unknown() ? null : vectors.entity(t.label())
        });
      }
      return out;
    }

    /** The graph nodes labelled {@code label}, else the nearest label's nodes (N_Q). */
    private int[] questionNodes(String label) {
      int[] exact = graph.nodesWithLabelKey(StableIds.labelKey(label));
      if (exact.length > 0) {
        return exact;
      }
      for (LabelIndex.Hit h : labels.nearest(vectors.entity(label), 1)) {
        return graph.nodesWithLabelKey(h.labelKey());
      }
      return new int[0];
    }

    /** Eqs. 8–9: the nodes of the top-N labels by cosine to {@code label}, with their cosines (the label's own nodes at 1). */
    private Map<Integer, Double> anchorCandidates(String label) {
      Map<Integer, Double> sims = new LinkedHashMap<>();
      for (int v : graph.nodesWithLabelKey(StableIds.labelKey(label))) {
        sims.put(v, 1.0); // the label itself, even if the approximate search misses it
      }
      for (LabelIndex.Hit h : labels.nearest(vectors.entity(label), config.anchorCandidates())) {
        for (int v : graph.nodesWithLabelKey(h.labelKey())) {
          sims.merge(v, h.similarity(), Math::max);
        }
      }
      return sims;
    }

    /** Eqs. 10–11: the best candidate, its cosine × λ when in the guidance graph. */
    private Anchor anchor(Map<Integer, Double> sims, Set<Integer> gNodes) {
      Anchor best = null;
      for (Map.Entry<Integer, Double> e : sims.entrySet()) {
        double score = e.getValue() * (gNodes.contains(e.getKey()) ? config.anchorBoost() : 1.0); // eq. 10, 11
        if (best == null || score > best.score) {
          best = new Anchor(e.getKey(), score);
        }
      }
      return best;
    }
  }

  private record Anchor(int node, double score) {}

  /** A candidate with what ranks it. */
  private record Ranked(Candidate candidate, int satisfied, int edges, double score, int plan) {
    static final java.util.Comparator<Ranked> ORDER =
        java.util.Comparator.comparing((Ranked r) -> r.satisfied < r.edges)
            .thenComparingInt(r -> r.satisfied < r.edges ? 0 : r.plan)
            .thenComparingDouble(r -> -(double) r.satisfied / r.edges)
            .thenComparingDouble(r -> -r.score)
            .thenComparingInt(Ranked::plan);
  }

  /** Every node the trace bound to the target, with its branch, into {@code best}. */
  private void collect(SchemaPlan plan, int planIndex, StructureTracer.Trace tr, Map<Integer, int[]> own, Map<Long, Ranked> best) {
    QueryGraph s = plan.schema();
    int target = s.target();
    List<StructureTracer.Match> ms = tr.matches();
    if (target < 0 || ms.isEmpty()) {
      return;
    }
    List<List<Integer>> children = new ArrayList<>(ms.size());
    for (int i = 0; i < ms.size(); i++) {
      children.add(new ArrayList<>(1));
    }
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i).parent() >= 0) {
        children.get(ms.get(i).parent()).add(i);
      }
    }
    int edges = s.edges().size();
    for (int i = 0; i < ms.size(); i++) {
      StructureTracer.Match m = ms.get(i);
      if (m.schemaTo() != target) {
        continue;
      }
      List<Integer> branch = new ArrayList<>();
      for (int p = m.parent(); p >= 0; p = ms.get(p).parent()) {
        branch.add(p);
      }
      ArrayList<Integer> stack = new ArrayList<>(List.of(i));
      while (!stack.isEmpty()) {
        int x = stack.remove(stack.size() - 1);
        branch.add(x);
        stack.addAll(children.get(x));
      }
      double[] bestTs = new double[edges];
      Arrays.fill(bestTs, Double.NEGATIVE_INFINITY);
      boolean[] ok = new boolean[edges];
      Set<KnowledgeGraph.Edge> seen = new LinkedHashSet<>();
      for (int x : branch) {
        StructureTracer.Match b = ms.get(x);
        bestTs[b.schemaEdge()] = Math.max(bestTs[b.schemaEdge()], b.tScore());
        ok[b.schemaEdge()] |= consistent(s, own, b.schemaFrom(), b.graphFrom(), tr) && consistent(s, own, b.schemaTo(), b.graphTo(), tr);
        seen.add(b.edge());
      }
      int satisfied = 0;
      double sum = 0;
      for (int e = 0; e < edges; e++) {
        satisfied += ok[e] ? 1 : 0;
        sum += bestTs[e] == Double.NEGATIVE_INFINITY ? 0 : bestTs[e];
      }
      double score = sum / edges;
      long id = graph.entityId(m.graphTo());
      Ranked old = best.get(id);
      Ranked cand = new Ranked(null, satisfied, edges, score, planIndex);
      if (old == null || Ranked.ORDER.compare(cand, old) < 0) {
        List<EvidenceEdge> ev = new ArrayList<>(seen.size());
        for (KnowledgeGraph.Edge e : seen) {
          ev.add(new EvidenceEdge(graph.entityId(e.src()), graph.label(e.src()), e.relation(), graph.entityId(e.dst()), graph.label(e.dst())));
        }
        best.put(id, new Ranked(new Candidate(id, graph.label(m.graphTo()), score, satisfied, edges, ev), satisfied, edges, score, planIndex));
      }
    }
  }

  /** Whether schema node {@code sn} bound to graph node {@code gn} is consistent: a placeholder, or one of its entity's nodes. */
  private static boolean consistent(QueryGraph s, Map<Integer, int[]> own, int sn, int gn, StructureTracer.Trace tr) {
    if (s.node(sn).unknown()) {
      return true;
    }
    if (sn == tr.schemaAnchor() && gn == tr.graphAnchor()) {
      return true;
    }
    int[] nodes = own.get(sn);
    if (nodes != null) {
      for (int v : nodes) {
        if (v == gn) {
          return true;
        }
      }
    }
    return false;
  }
}
