package io.kgrag.core.understand;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.EvidenceEdge;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Comparisons of two mentioned entities: of the sizes of their sets along one chain ("X ... more Rs than Y", R a
 * relation of the graph: yes or no; "how many more Rs ... than", "the difference between": the sizes' difference)
 * or of their values of a year-valued relation ("which is earlier, X or Y?": the entity). As with
 * {@link OperationChooser}, a comparison is in question only where a span of the question reads like its
 * canonical phrase ("more than", "earlier") by sentence embedding, and only where the graph can compare: both
 * entities start the chain, or both have the property.
 */
public final class ComparisonReader {
  /** A comparison's answer (the entity's id when it is an entity, else 0), its evidence and what was compared. */
  public record Compared(String answer, long entityId, List<EvidenceEdge> evidence, String describe) {}

  private enum Kind {
    MORE("more than"),
    FEWER("fewer than"),
    EARLIER("earlier", "older", "first"),
    LATER("later", "more recent", "newer"),
    /** How many more (or fewer) one has than the other: the sizes' difference. */
    DIFFERENCE("the difference between");

    final List<String> phrases;

    Kind(String... phrases) {
      this.phrases = List.of(phrases);
    }
  }

  private final KnowledgeGraph graph;
  private final GraphSchema schema;
  private final EmbeddingCache cache;
  private final CanonicalVectors canonical;
  private final double margin;

  ComparisonReader(KnowledgeGraph graph, GraphSchema schema, EmbeddingCache cache, CanonicalVectors canonical, double margin) {
    this.graph = graph;
    this.schema = schema;
    this.cache = cache;
    this.canonical = canonical;
    this.margin = margin;
  }

  /**
   * The comparison the question asks for, or null: two strong mentions, a comparative phrase, and the graph able to
   * compare them. {@code chains} are the question's ranked programs, of which the best chain from the first mention
   * whose sets both are non-empty is the one compared.
   */
  Compared compare(String question, List<Mention> mentions, java.util.function.Supplier<List<QuestionUnderstanding.Scored>> chains, ProgramExecutor executor) {
    List<Mention> two = new ArrayList<>();
    for (Mention m : mentions) {
      if (m.strong() && two.stream().noneMatch(m::overlaps) && two.size() < 2) {
        two.add(m);
      }
    }
    if (two.size() < 2) {
      return null;
    }
    two.sort(Comparator.comparingInt(Mention::from)); // the mention written first is the comparison's left side
    OperatorSpans spans = OperatorSpans.of(question, mentions, null, canonical, cache);
    if (spans.isEmpty()) {
      return null;
    }
    // every comparative the question reads like, closest first; the first the graph can compare answers
    Map<Kind, Double> close = new EnumMap<>(Kind.class);
    for (Kind k : Kind.values()) {
      OperatorSpans.Match m = spans.closest(k.phrases);
      if (m != null && m.similarity() >= margin) {
        close.put(k, m.similarity());
      }
    }
    // "how many more Rs than" asks for the difference of the sizes that "more Rs than" compares
    OperatorSpans.Match counting = spans.closest(OperationChooser.phrases(SetOperation.Kind.COUNT, false));
    if (counting != null && counting.similarity() >= margin) {
      for (Kind k : List.of(Kind.MORE, Kind.FEWER)) {
        Double c = close.remove(k);
        if (c != null) {
          close.merge(Kind.DIFFERENCE, c, Math::max);
        }
      }
    }
    List<Kind> kinds = new ArrayList<>(close.keySet());
    kinds.sort(Comparator.comparingDouble((Kind k) -> -close.get(k)).thenComparing(Kind::ordinal));
    Mention a = two.get(0);
    Mention b = two.get(1);
    List<QuestionUnderstanding.Scored> programs = null;
    for (Kind k : kinds) {
      if (k == Kind.EARLIER || k == Kind.LATER) {
        Compared c = byValue(k, a, b);
        if (c != null) {
          return c;
        }
        continue;
      }
      programs = programs == null ? chains.get() : programs;
      for (QuestionUnderstanding.Scored s : programs) {
        Program p = s.program();
        if (p.anchors().size() == 1 && p.anchors().get(0).chain() != null && p.anchors().get(0).mention().equals(a)) {
          Compared c = bySize(k, p.anchors().get(0).chain(), a, b, executor);
          if (c != null) {
            return c;
          }
        }
      }
    }
    return null;
  }

  /** Yes or no: whether a's set along the chain is larger (smaller) than b's; null when b's set is empty. */
  private Compared bySize(Kind kind, Chain chain, Mention a, Mention b, ProgramExecutor executor) {
    ProgramExecutor.Result ra = executor.execute(new Program(List.of(new Program.Anchor(a, chain)), Program.Operation.LIST));
    ProgramExecutor.Result rb = executor.execute(new Program(List.of(new Program.Anchor(b, chain)), Program.Operation.LIST));
    if (ra.exact() == 0 || rb.exact() == 0) {
      return null;
    }
    String answer;
    if (kind == Kind.DIFFERENCE) {
      answer = Integer.toString(Math.abs(ra.exact() - rb.exact()));
    } else {
      answer = (kind == Kind.MORE ? ra.exact() > rb.exact() : ra.exact() < rb.exact()) ? "yes" : "no";
    }
    List<EvidenceEdge> evidence = new ArrayList<>();
    for (ProgramExecutor.Candidate c : ra.exactCandidates()) {
      evidence.addAll(c.evidence());
    }
    for (ProgramExecutor.Candidate c : rb.exactCandidates()) {
      evidence.addAll(c.evidence());
    }
    return new Compared(answer, 0L, evidence, String.format(Locale.ROOT, "%s: [%s] %s has %d, [%s] %s has %d", kind, a.label(), chain, ra.exact(),
        b.label(), chain, rb.exact()));
  }

  /** The entity with the earlier (later) value of a year-valued property both have; null when they share none. */
  private Compared byValue(Kind kind, Mention a, Mention b) {
    for (int r = 0; r < schema.roles(); r++) {
      if (!schema.years(r)) {
        continue;
      }
      EvidenceEdge ea = value(a, r);
      EvidenceEdge eb = value(b, r);
      if (ea == null || eb == null) {
        continue;
      }
      double va = Literals.valueOf(schema.forward(r) ? ea.dstLabel() : ea.srcLabel());
      double vb = Literals.valueOf(schema.forward(r) ? eb.dstLabel() : eb.srcLabel());
      boolean aWins = kind == Kind.EARLIER ? va < vb : va > vb;
      Mention w = aWins ? a : b;
      return new Compared(w.label(), graph.entityId(w.nodes()[0]), List.of(ea, eb),
          String.format(Locale.ROOT, "%s by %s: [%s] %s, [%s] %s", kind, schema.relation(r), a.label(), SetOperation.number(va), b.label(), SetOperation.number(vb)));
    }
    return null;
  }

  /** The edge giving the mention's first node with the role its value. */
  private EvidenceEdge value(Mention m, int role) {
    for (int n : m.nodes()) {
      for (int k = 0; k < graph.entryCount(n); k++) {
        if (graph.entryOutgoing(n, k) == schema.forward(role) && graph.entryRelation(n, k).equals(schema.relation(role))) {
          int v = graph.entryNeighbour(n, k);
          if (!Double.isNaN(Literals.valueOf(graph.label(v)))) {
            int src = schema.forward(role) ? n : v;
            int dst = schema.forward(role) ? v : n;
            return new EvidenceEdge(graph.entityId(src), graph.label(src), schema.relation(role), graph.entityId(dst), graph.label(dst));
          }
        }
      }
    }
    return null;
  }
}
