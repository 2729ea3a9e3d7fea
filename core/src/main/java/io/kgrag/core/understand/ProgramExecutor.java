package io.kgrag.core.understand;

import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.EvidenceEdge;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes a {@link Program} over the graph into its complete answer set, each answer with its own evidence
 * edges. A chain is walked without stepping straight back along the edge it came by (a non-backtracking walk:
 * "the films directed by the director of F" are his other films, not F again) and the answer is never one of
 * the anchor's own nodes. With several anchors, every candidate records which anchors it satisfies and their
 * weight (the mentions' confidences): the exact set is the candidates that satisfy every confident mention's
 * anchor (every anchor when none is confident), most weight first.
 */
public final class ProgramExecutor {
  /** One candidate answer: its node, which anchors it satisfies (a bit per anchor) and its evidence. */
  public record Candidate(int node, long satisfied, int satisfiedCount, double weight, List<EvidenceEdge> evidence) {}

  /**
   * Every candidate, those satisfying the most anchors first (then by node index, so the order is
   * deterministic); {@code exact} counts those satisfying all, {@code truncated} says a walk hit the cap.
   */
  public record Result(List<Candidate> candidates, int exact, boolean truncated) {
    public List<Candidate> exactCandidates() {
      return candidates.subList(0, exact);
    }
  }

  private final KnowledgeGraph graph;
  private final int cap;

  /** @param cap most nodes one walk visits per step before it stops (the answer set is then marked truncated) */
  public ProgramExecutor(KnowledgeGraph graph, int cap) {
    this.graph = graph;
    this.cap = cap;
  }

  /** The program's answers by non-backtracking walks. */
  public Result execute(Program program) {
    return execute(program, true);
  }

  /**
   * The program's answers; {@code nonBacktracking} false lets a chain step straight back (what "the films by the
   * writer of F" must mean when he wrote only F).
   */
  public Result execute(Program program, boolean nonBacktracking) {
    List<Program.Anchor> anchors = program.anchors();
    Map<Integer, long[]> sat = new LinkedHashMap<>();
    Map<Integer, List<EvidenceEdge>> evidence = new LinkedHashMap<>();
    boolean truncated = false;
    for (int a = 0; a < anchors.size(); a++) {
      Program.Anchor anchor = anchors.get(a);
      Walk w = anchor.chain() == null ? adjacent(anchor.mention().nodes()) : walk(anchor.mention().nodes(), anchor.chain(), nonBacktracking);
      truncated |= w.truncated;
      for (Map.Entry<Integer, List<EvidenceEdge>> e : w.answers.entrySet()) {
        long[] s = sat.computeIfAbsent(e.getKey(), k -> new long[1]);
        s[0] |= 1L << a;
        evidence.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
      }
    }
    // the anchors' own nodes are never answers
    for (Program.Anchor anchor : anchors) {
      for (int n : anchor.mention().nodes()) {
        sat.remove(n);
      }
    }
    // confident mentions are required; a single lower-case word ("thriller", "male") only ranks
    long required = 0;
    for (int a = 0; a < anchors.size(); a++) {
      if (anchors.get(a).mention().strong()) {
        required |= 1L << a;
      }
    }
    if (required == 0) {
      required = anchors.size() == 64 ? -1L : (1L << anchors.size()) - 1;
    }
    long must = required;
    List<Candidate> out = new ArrayList<>(sat.size());
    sat.forEach((node, s) -> {
      double w = 0;
      for (int a = 0; a < anchors.size(); a++) {
        if ((s[0] & (1L << a)) != 0) {
          w += anchors.get(a).mention().confidence();
        }
      }
      out.add(new Candidate(node, s[0], Long.bitCount(s[0]), w, evidence.get(node)));
    });
    out.sort(Comparator.comparing((Candidate c) -> (c.satisfied() & must) != must).thenComparingDouble(c -> -c.weight()).thenComparingInt(Candidate::node));
    int exact = 0;
    while (exact < out.size() && (out.get(exact).satisfied() & must) == must) {
      exact++;
    }
    return new Result(out, exact, truncated);
  }

  private record Walk(Map<Integer, List<EvidenceEdge>> answers, boolean truncated) {}

  /** Nodes adjacent to any of {@code starts} by any relation, each with the edges that join them. */
  private Walk adjacent(int[] starts) {
    Map<Integer, List<EvidenceEdge>> out = new LinkedHashMap<>();
    for (int s : starts) {
      for (int k = 0; k < graph.entryCount(s); k++) {
        int m = graph.entryNeighbour(s, k);
        if (m == s) {
          continue;
        }
        out.computeIfAbsent(m, x -> new ArrayList<>(2)).add(edge(s, graph.entryRelation(s, k), m, graph.entryOutgoing(s, k)));
      }
    }
    return new Walk(out, false);
  }

  /**
   * The non-backtracking walk of {@code chain} from {@code starts}: no step walks back along the edge the
   * previous step came by (the same relation, the other way). Each level keeps, per node, up to two distinct
   * parents: a node with two parents may go anywhere next; one with a single parent p may not go back to p by
   * the inverse of the step that came from p, but may by another relation (r/^r/s from X may end at the node r
   * reached from X, by s).
   */
  private Walk walk(int[] starts, Chain chain, boolean nonBacktracking) {
    List<Map<Integer, int[]>> levels = new ArrayList<>();
    Map<Integer, int[]> current = new LinkedHashMap<>();
    for (int s : starts) {
      current.put(s, new int[] {-1, -1});
    }
    boolean truncated = false;
    List<Chain.Step> steps = chain.steps();
    for (int i = 0; i < steps.size(); i++) {
      Chain.Step step = steps.get(i);
      boolean reverses = nonBacktracking && i > 0 && reverses(steps.get(i - 1), step);
      levels.add(current);
      Map<Integer, int[]> next = new LinkedHashMap<>();
      outer:
      for (Map.Entry<Integer, int[]> e : current.entrySet()) {
        int n = e.getKey();
        int[] parents = e.getValue();
        for (int k = 0; k < graph.entryCount(n); k++) {
          if (graph.entryOutgoing(n, k) != step.forward() || !graph.entryRelation(n, k).equals(step.relation())) {
            continue;
          }
          int m = graph.entryNeighbour(n, k);
          if (reverses && parents[1] < 0 && parents[0] == m) {
            continue; // straight back
          }
          int[] p = next.get(m);
          if (p == null) {
            if (next.size() >= cap) {
              truncated = true;
              break outer;
            }
            next.put(m, new int[] {n, -1});
          } else if (p[1] < 0 && p[0] != n) {
            p[1] = n;
          }
        }
      }
      current = next;
    }
    Map<Integer, List<EvidenceEdge>> answers = new LinkedHashMap<>();
    for (int answer : current.keySet()) {
      List<EvidenceEdge> path = new ArrayList<>(steps.size());
      int cur = answer;
      int after = -1;
      Map<Integer, int[]> level = current;
      for (int l = steps.size() - 1; l >= 0; l--) {
        int[] p = level.get(cur);
        boolean back = nonBacktracking && l + 1 < steps.size() && reverses(steps.get(l), steps.get(l + 1));
        int parent = !back || p[0] != after || p[1] < 0 ? p[0] : p[1];
        Chain.Step step = steps.get(l);
        path.add(edge(parent, step.relation(), cur, step.forward()));
        after = cur;
        cur = parent;
        level = levels.get(l);
      }
      java.util.Collections.reverse(path);
      answers.put(answer, path);
    }
    return new Walk(answers, truncated);
  }

  /** Whether {@code next} walks {@code previous}'s relation the other way (back along the edge it came by). */
  private static boolean reverses(Chain.Step previous, Chain.Step next) {
    return previous.relation().equals(next.relation()) && previous.forward() != next.forward();
  }

  /** The directed edge between {@code from} and {@code to}: from → to when {@code forward}, else to → from. */
  private EvidenceEdge edge(int from, String relation, int to, boolean forward) {
    int src = forward ? from : to;
    int dst = forward ? to : from;
    return new EvidenceEdge(graph.entityId(src), graph.label(src), relation, graph.entityId(dst), graph.label(dst));
  }

  /** The nodes of {@code candidates}, in order. */
  public static int[] nodes(List<Candidate> candidates) {
    int[] out = new int[candidates.size()];
    Arrays.setAll(out, i -> candidates.get(i).node());
    return out;
  }
}
