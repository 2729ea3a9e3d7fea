package io.kgrag.core.stem;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.QueryGraph;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * STEM's structure-tracing subgraph retrieval (§3.4–3.5, Appendix H Algorithms 1 and 2): from a schema node
 * anchored at a graph node, every schema edge at the schema node is matched against the graph edges at the
 * graph node, both directions (the matching is undirected), by the T-Score of eq. 12: the triples' similarity
 * plus τ when the graph edge lies in the guidance graph (eq. 13). {@link Strategy#PRECISION} keeps the best
 * edge (Greedy Selection, STEP_PRECISION); {@link Strategy#BREADTH} keeps every edge whose T-Score reaches θ
 * (Threshold-Based Selection, STEP_BREADTH, the per-step test of Algorithm 2). Each kept edge continues the
 * trace from its other end over the schema edges there, except the one just matched (last_visit), with the
 * cumulative score S_{i+1} = S_i + T-Score (eq. 14).
 *
 * <p>As in the algorithms, a graph edge already matched anywhere in the trace is not matched again
 * (CONTRADICT over final_list), and Breadth adds a step's edges to final_list before recursing. Beyond the
 * paper: a schema edge already on the current branch is not matched again (the paper's last_visit alone
 * lets a cyclic schema loop), Breadth keeps at most {@link Config#maxBranch} edges per step (the public code
 * keeps 12), and a trace stops after {@link Config#maxMatches} matches ({@link Trace#truncated}).
 */
public final class StructureTracer {
  /**
   * @param theta θ, Breadth's least T-Score (paper: 0.6)
   * @param tau τ, the guidance-graph bonus of eq. 13 (paper: 0.5)
   * @param maxBranch most edges Breadth keeps per step, best first
   * @param maxMatches most matches per trace
   */
  public record Config(double theta, double tau, int maxBranch, int maxMatches) implements Serializable {
    public static final Config DEFAULT = new Config(0.6, 0.5, 50, 20_000);

    public Config {
      if (!Double.isFinite(theta) || !(tau >= 0) || maxBranch < 1 || maxMatches < 1) {
        throw new IllegalArgumentException("tracing needs a finite theta, tau >= 0, max-branch >= 1 and max-matches >= 1, got " + this);
      }
    }
  }

  /** The triple similarity of eq. 12 (the T-Score without its bias). */
  public interface TripleSimilarity {
    /** Sim(Encoder(schema triple), Encoder(graph triple)) for schema edge {@code schemaEdge} of {@code plan}. */
    double similarity(SchemaPlan plan, int schemaEdge, KnowledgeGraph.Edge edge);
  }

  /** Which graph edges lie in the guidance graph G'_Q (the induced subgraph on its nodes). */
  public interface Guidance {
    boolean contains(KnowledgeGraph.Edge edge);

    Guidance NONE = e -> false;
  }

  /**
   * One matched edge: schema edge {@code schemaEdge} matched to graph edge {@code edge}, entered at schema
   * node {@code schemaFrom} bound to graph node {@code graphFrom} and leaving at {@code schemaTo} bound to
   * {@code graphTo}; {@code tScore} its T-Score, {@code score} the cumulative S after it, {@code parent}
   * the match it continues (an index into the trace's matches), -1 for a match at the anchor.
   */
  public record Match(
      int schemaEdge, KnowledgeGraph.Edge edge, int schemaFrom, int graphFrom, int schemaTo, int graphTo, double tScore, double score, int parent, boolean guided)
      implements Serializable {}

  /** A trace: its matches in the order made (a parent before its children), and whether the budget cut it. */
  public record Trace(int schemaAnchor, int graphAnchor, double s0, List<Match> matches, boolean truncated) {
    /** G*_sch: the distinct graph edges matched. */
    public Set<KnowledgeGraph.Edge> edges() {
      Set<KnowledgeGraph.Edge> out = new HashSet<>();
      for (Match m : matches) {
        out.add(m.edge());
      }
      return out;
    }
  }

  private final KnowledgeGraph graph;
  private final Config config;

  public StructureTracer(KnowledgeGraph graph, Config config) {
    this.graph = graph;
    this.config = config;
  }

  public Config config() {
    return config;
  }

  /**
   * Algorithm 1: traces {@code plan}'s schema from schema node {@code schemaAnchor} anchored at graph node
   * {@code graphAnchor}, with S_0 = {@code s0} (eq. 15).
   */
  public Trace trace(SchemaPlan plan, int schemaAnchor, int graphAnchor, double s0, Strategy strategy, TripleSimilarity sim, Guidance guidance) {
    Run run = new Run(plan, strategy, sim, guidance);
    run.match(schemaAnchor, graphAnchor, s0, -1, -1, new boolean[plan.schema().edges().size()]);
    return new Trace(schemaAnchor, graphAnchor, s0, run.matches, run.truncated);
  }

  private final class Run {
    final SchemaPlan plan;
    final Strategy strategy;
    final TripleSimilarity sim;
    final Guidance guidance;
    final Set<KnowledgeGraph.Edge> finalList = new HashSet<>();
    final List<Match> matches = new ArrayList<>();
    boolean truncated;

    Run(SchemaPlan plan, Strategy strategy, TripleSimilarity sim, Guidance guidance) {
      this.plan = plan;
      this.strategy = strategy;
      this.sim = sim;
      this.guidance = guidance;
    }

    /** MATCH: every schema edge at schema node {@code e} but the one just matched, from graph node {@code eStar}. */
    void match(int e, int eStar, double s, int lastVisit, int parent, boolean[] onBranch) {
      List<QueryGraph.Edge> schemaEdges = plan.schema().edges();
      for (int t = 0; t < schemaEdges.size(); t++) {
        QueryGraph.Edge se = schemaEdges.get(t);
        if (t == lastVisit || onBranch[t] || (se.src() != e && se.dst() != e)) {
          continue;
        }
        if (truncated) {
          return;
        }
        step(t, e, eStar, s, parent, onBranch);
      }
    }

    /** STEP_PRECISION / STEP_BREADTH for schema edge {@code t} entered at {@code e} bound to {@code eStar}. */
    private void step(int t, int e, int eStar, double s, int parent, boolean[] onBranch) {
      QueryGraph.Edge se = plan.schema().edges().get(t);
      int eNext = se.other(e);
      List<Match> kept = new ArrayList<>();
      int n = graph.entryCount(eStar);
      for (int k = 0; k < n; k++) {
        int nb = graph.entryNeighbour(eStar, k);
        KnowledgeGraph.Edge edge =
            graph.entryOutgoing(eStar, k) ? new KnowledgeGraph.Edge(eStar, graph.entryRelation(eStar, k), nb) : new KnowledgeGraph.Edge(nb, graph.entryRelation(eStar, k), eStar);
        if (finalList.contains(edge)) {
          continue; // CONTRADICT
        }
        boolean guided = guidance.contains(edge);
        double ts = sim.similarity(plan, t, edge) + (guided ? config.tau() : 0.0); // eq. 12, 13
        Match m = new Match(t, edge, e, eStar, eNext, nb, ts, s + ts, parent, guided);
        if (strategy == Strategy.PRECISION) {
          if (kept.isEmpty() || ts > kept.get(0).tScore()) {
            kept.clear();
            kept.add(m);
          }
        } else if (ts >= config.theta()) {
          kept.add(m);
        }
      }
      if (kept.size() > config.maxBranch()) {
        kept.sort((a, b) -> Double.compare(b.tScore(), a.tScore()));
        kept.subList(config.maxBranch(), kept.size()).clear();
      }
      List<Integer> at = new ArrayList<>(kept.size());
      for (Match m : kept) {
        if (matches.size() >= config.maxMatches()) {
          truncated = true;
          break;
        }
        if (!finalList.add(m.edge())) {
          continue; // the same edge twice at this node (a self-loop's two entries)
        }
        at.add(matches.size());
        matches.add(m);
      }
      onBranch[t] = true;
      for (int i = 0; i < at.size() && !truncated; i++) {
        Match m = matches.get(at.get(i));
        match(eNext, m.graphTo(), m.score(), t, at.get(i), onBranch);
      }
      onBranch[t] = false;
    }
  }
}
