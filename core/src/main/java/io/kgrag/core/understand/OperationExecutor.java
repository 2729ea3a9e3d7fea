package io.kgrag.core.understand;

import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.EvidenceEdge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies a {@link SetOperation} to a program's exact answer set: the members it keeps (each with its evidence,
 * the property edge or the edges it was counted by added) or, for counting and arithmetic, the number.
 */
public final class OperationExecutor {
  /**
   * The operation's result.
   *
   * @param members the members of the set that answer, in order (all of them for a count)
   * @param value the number a counting or arithmetic operation computes, else null
   */
  public record Applied(List<ProgramExecutor.Candidate> members, String value) {}

  private final KnowledgeGraph graph;
  private final ProgramExecutor executor;

  public OperationExecutor(KnowledgeGraph graph, ProgramExecutor executor) {
    this.graph = graph;
    this.executor = executor;
  }

  public Applied apply(SetOperation op, Program program, List<ProgramExecutor.Candidate> set) {
    double n = set.size();
    return switch (op.kind()) {
      case LIST -> new Applied(set, null);
      case COUNT -> new Applied(set, SetOperation.number(n));
      case PLUS -> new Applied(set, SetOperation.number(n + op.values()[0]));
      case MINUS -> new Applied(set, SetOperation.number(n - op.values()[0]));
      case TIMES -> new Applied(set, SetOperation.number(n * op.values()[0]));
      case MOST_FREQUENT -> new Applied(mostFrequent(program, set), null);
      case GREATEST, LEAST -> new Applied(extreme(op, set), null);
      case ABOVE, BELOW, BETWEEN, EQUAL -> new Applied(filter(op, set), null);
    };
  }

  /**
   * The members reached from the most nodes one hop before the chain's end: X's most frequent R2 along the chain
   * R1/R2 is the R2 of the most of X's R1s. Ties are all kept.
   */
  private List<ProgramExecutor.Candidate> mostFrequent(Program program, List<ProgramExecutor.Candidate> set) {
    Program.Anchor a = program.anchors().get(0);
    Chain c = a.chain();
    if (program.anchors().size() != 1 || c == null || c.length() < 2) {
      return set;
    }
    Chain.Step last = c.steps().get(c.length() - 1);
    Program prefix = new Program(List.of(new Program.Anchor(a.mention(), new Chain(c.steps().subList(0, c.length() - 1)))), Program.Operation.LIST);
    Map<Integer, ProgramExecutor.Candidate> members = new HashMap<>();
    for (ProgramExecutor.Candidate m : set) {
      members.put(m.node(), m);
    }
    Map<Integer, List<EvidenceEdge>> via = new HashMap<>();
    Map<Integer, Integer> counts = new HashMap<>();
    for (ProgramExecutor.Candidate s : executor.execute(prefix).exactCandidates()) {
      Set<Integer> seen = new HashSet<>();
      for (int k = 0; k < graph.entryCount(s.node()); k++) {
        int m = graph.entryNeighbour(s.node(), k);
        if (graph.entryOutgoing(s.node(), k) == last.forward() && graph.entryRelation(s.node(), k).equals(last.relation()) && members.containsKey(m)
            && seen.add(m)) {
          counts.merge(m, 1, Integer::sum);
          List<EvidenceEdge> e = via.computeIfAbsent(m, x -> new ArrayList<>());
          e.addAll(s.evidence());
          e.add(edge(s.node(), last.relation(), m, last.forward()));
        }
      }
    }
    int best = 0;
    for (int times : counts.values()) {
      best = Math.max(best, times);
    }
    List<ProgramExecutor.Candidate> out = new ArrayList<>();
    for (ProgramExecutor.Candidate m : set) {
      List<EvidenceEdge> e = via.get(m.node());
      if (best > 0 && counts.getOrDefault(m.node(), 0) == best) {
        out.add(new ProgramExecutor.Candidate(m.node(), m.satisfied(), m.satisfiedCount(), m.weight(), List.copyOf(new java.util.LinkedHashSet<>(e))));
      }
    }
    return out.isEmpty() ? set : out;
  }

  /** The members with the greatest (least) value of the property; ties are all kept, members without one dropped. */
  private List<ProgramExecutor.Candidate> extreme(SetOperation op, List<ProgramExecutor.Candidate> set) {
    boolean greatest = op.kind() == SetOperation.Kind.GREATEST;
    double best = greatest ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    Map<Integer, Valued> values = new HashMap<>();
    for (ProgramExecutor.Candidate m : set) {
      Valued v = value(m.node(), op, greatest);
      if (v != null) {
        values.put(m.node(), v);
        best = greatest ? Math.max(best, v.value) : Math.min(best, v.value);
      }
    }
    List<ProgramExecutor.Candidate> out = new ArrayList<>();
    for (ProgramExecutor.Candidate m : set) {
      Valued v = values.get(m.node());
      if (v != null && v.value == best) {
        out.add(withEdge(m, v.edge));
      }
    }
    return out;
  }

  /** The members with a value the filter accepts (above and below are strict, between includes both ends, equal is exact). */
  private List<ProgramExecutor.Candidate> filter(SetOperation op, List<ProgramExecutor.Candidate> set) {
    List<ProgramExecutor.Candidate> out = new ArrayList<>();
    for (ProgramExecutor.Candidate m : set) {
      for (int k = 0; k < graph.entryCount(m.node()); k++) {
        if (graph.entryOutgoing(m.node(), k) != op.forward() || !graph.entryRelation(m.node(), k).equals(op.property())) {
          continue;
        }
        int vn = graph.entryNeighbour(m.node(), k);
        double v = Literals.valueOf(graph.label(vn));
        double[] lit = op.values();
        boolean ok = switch (op.kind()) {
          case ABOVE -> v > lit[0];
          case BELOW -> v < lit[0];
          case EQUAL -> v == lit[0];
          default -> v >= lit[0] && v <= lit[1];
        };
        if (ok) {
          out.add(withEdge(m, edge(m.node(), op.property(), vn, op.forward())));
          break;
        }
      }
    }
    return out;
  }

  private record Valued(double value, EvidenceEdge edge) {}

  private Valued value(int node, SetOperation op, boolean greatest) {
    Valued best = null;
    for (int k = 0; k < graph.entryCount(node); k++) {
      if (graph.entryOutgoing(node, k) != op.forward() || !graph.entryRelation(node, k).equals(op.property())) {
        continue;
      }
      int vn = graph.entryNeighbour(node, k);
      double v = Literals.valueOf(graph.label(vn));
      if (!Double.isNaN(v) && (best == null || (greatest ? v > best.value : v < best.value))) {
        best = new Valued(v, edge(node, op.property(), vn, op.forward()));
      }
    }
    return best;
  }

  private static ProgramExecutor.Candidate withEdge(ProgramExecutor.Candidate m, EvidenceEdge e) {
    List<EvidenceEdge> ev = new ArrayList<>(m.evidence());
    ev.add(e);
    return new ProgramExecutor.Candidate(m.node(), m.satisfied(), m.satisfiedCount(), m.weight(), ev);
  }

  private EvidenceEdge edge(int from, String relation, int to, boolean forward) {
    int src = forward ? from : to;
    int dst = forward ? to : from;
    return new EvidenceEdge(graph.entityId(src), graph.label(src), relation, graph.entityId(dst), graph.label(dst));
  }
}
