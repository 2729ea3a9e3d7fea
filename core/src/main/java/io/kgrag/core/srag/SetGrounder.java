package io.kgrag.core.srag;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.embedded.Gazetteer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Binds the words of an analysed question to the graph (what the paper's a2 step does with Wikidata's
 * API): an anchor name and relation phrase to an {@link EntitySet}, value names and property phrases to
 * the members' properties. Shared by the embedded and the LLM analysers, so both reach the same tables.
 */
public final class SetGrounder {
  /** Members sampled to list the set's properties. */
  public static final int PROPERTY_SAMPLE = 500;

  /** A property of the members: how many sampled members have it, and the fraction of its values that are numbers. */
  public record Inventory(Property property, int members, double numeric) {}

  private final KnowledgeGraph graph;
  private final Gazetteer gazetteer;
  private final PropertyMatcher matcher;

  public SetGrounder(KnowledgeGraph graph, Gazetteer gazetteer, PropertyMatcher matcher) {
    this.graph = graph;
    this.gazetteer = gazetteer;
    this.matcher = matcher;
  }

  public KnowledgeGraph graph() {
    return graph;
  }

  public Gazetteer gazetteer() {
    return gazetteer;
  }

  /** The graph label a name stands for (case, accents, punctuation and plurals folded), or null. */
  public String label(String name) {
    return name == null ? null : gazetteer.lookup(Labels.normalize(name));
  }

  /**
   * The set defined by the anchor's own relation that best matches {@code phrase} (the words between type
   * word and anchor; the type word when there are none), or null when no node has that label.
   */
  public EntitySet set(String anchorLabel, String typeWord, String phrase) {
    EntitySet best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (long id : graph.entityIdsWithLabel(anchorLabel)) {
      int node = graph.index(id);
      Map<String, Integer> counts = new TreeMap<>(); // relation + direction → members
      for (int k = 0; k < graph.entryCount(node); k++) {
        counts.merge((graph.entryOutgoing(node, k) ? ">" : "<") + graph.entryRelation(node, k), 1, Integer::sum);
      }
      for (Map.Entry<String, Integer> e : counts.entrySet()) {
        boolean membersAreSubjects = e.getKey().charAt(0) == '<';
        String relation = e.getKey().substring(1);
        // the words between type word and anchor name the relation; members as the edges' heads win ties
        double score = matcher.score(phrase == null || phrase.isBlank() ? typeWord : phrase, relation) + (membersAreSubjects ? 0.01 : 0) + 1e-6 * Math.log1p(e.getValue());
        if (score > bestScore) {
          bestScore = score;
          best = new EntitySet(typeWord, id, graph.label(node), relation, membersAreSubjects);
        }
      }
    }
    return best;
  }

  /** The set's member nodes, ascending. */
  public int[] members(EntitySet set) {
    int anchor = graph.index(set.anchorId());
    java.util.TreeSet<Integer> out = new java.util.TreeSet<>();
    for (int k = 0; k < graph.entryCount(anchor); k++) {
      if (graph.entryRelation(anchor, k).equals(set.relation()) && graph.entryOutgoing(anchor, k) != set.membersAreSubjects()) {
        out.add(graph.entryNeighbour(anchor, k));
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The members' properties (sampled), with how many have each and how numeric their values are. */
  public List<Inventory> inventory(int[] members) {
    Map<String, int[]> stats = new TreeMap<>(); // key → members, values, numeric values
    int n = Math.min(members.length, PROPERTY_SAMPLE);
    for (int i = 0; i < n; i++) {
      int m = members[(int) ((long) i * members.length / n)];
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int k = 0; k < graph.entryCount(m); k++) {
        String key = (graph.entryOutgoing(m, k) ? ">" : "<") + graph.entryRelation(m, k);
        int[] s = stats.computeIfAbsent(key, x -> new int[3]);
        if (seen.add(key)) {
          s[0]++;
        }
        s[1]++;
        if (ValueNormaliser.value(graph.label(graph.entryNeighbour(m, k))) instanceof Number) {
          s[2]++;
        }
      }
    }
    List<Inventory> out = new ArrayList<>();
    stats.forEach((k, s) -> out.add(new Inventory(new Property(k.substring(1), k.charAt(0) == '>', null), s[0], s[1] == 0 ? 0 : (double) s[2] / s[1])));
    return out;
  }

  /**
   * The member property that reaches the node(s) labelled {@code label} from most members ({@code context},
   * the words before the name, breaks ties: "star Tom Hanks"), or null when no member property can.
   */
  public Property valueProperty(String label, String context, int[] members, List<Inventory> inv) {
    Map<String, Integer> reach = new LinkedHashMap<>(); // property key → members with the value
    for (long id : graph.entityIdsWithLabel(label)) {
      int v = graph.index(id);
      for (int k = 0; k < graph.entryCount(v); k++) {
        String key = (graph.entryOutgoing(v, k) ? "<" : ">") + graph.entryRelation(v, k); // the member's direction
        reach.putIfAbsent(key, 0);
        if (Arrays.binarySearch(members, graph.entryNeighbour(v, k)) >= 0) {
          reach.merge(key, 1, Integer::sum);
        }
      }
    }
    Property best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (Inventory i : inv) {
      Integer r = reach.get((i.property().outgoing() ? ">" : "<") + i.property().relation());
      if (r == null) {
        continue;
      }
      double score = r + 0.5 * matcher.score(context, i.property().relation()) + 1e-3 * i.members();
      if (score > bestScore) {
        bestScore = score;
        best = i.property();
      }
    }
    return best;
  }

  /** Whether some member has an edge to a node labelled as {@code label}. */
  public boolean reaches(String label, int[] members) {
    for (long id : graph.entityIdsWithLabel(label)) {
      int v = graph.index(id);
      for (int k = 0; k < graph.entryCount(v); k++) {
        if (Arrays.binarySearch(members, graph.entryNeighbour(v, k)) >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  /** The member property best named by one of the phrases (or by {@code fallback} when there are none). */
  public Property best(List<String> segments, List<Inventory> inv, boolean numericOnly, String fallback) {
    Property best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    List<String> phrases = segments.isEmpty() && fallback != null ? List.of(fallback) : segments;
    for (String s : phrases) {
      String phrase = s.replaceFirst("^number of ", "");
      for (Inventory i : inv) {
        if (numericOnly && i.numeric() < 0.8) {
          continue;
        }
        double score = matcher.score(phrase, i.property().relation()) + 1e-3 * i.members() / (double) PROPERTY_SAMPLE;
        if (score > bestScore) {
          bestScore = score;
          best = i.property();
        }
      }
    }
    if (best == null) {
      throw new QaException(AnswerStatus.UNABLE, "no property of the members matches the question's words " + segments);
    }
    return best;
  }

  /**
   * A number per member named by the segments: a numeric property's value, or the count of a text property
   * ("number of actors", or any text property named where a number is needed); null when {@code lenient} and
   * none matches.
   */
  public Measure measure(List<String> segments, List<Inventory> inv, String fallback, boolean lenient) {
    List<String> usable = new ArrayList<>(segments);
    if (usable.isEmpty() && fallback != null) {
      usable.add(fallback);
    }
    if (usable.isEmpty()) {
      if (lenient) {
        return null;
      }
      throw new QaException(AnswerStatus.UNABLE, "no numeric property of the members is named");
    }
    boolean counted = usable.stream().anyMatch(s -> s.startsWith("number of "));
    Property p = best(usable, inv, false, fallback);
    Inventory i = inv.stream().filter(x -> x.property().sameAs(p)).findFirst().orElseThrow();
    boolean count = counted || i.numeric() < 0.8;
    return new Measure(new Property(p.relation(), p.outgoing(), String.join(" ", usable)), count);
  }

}
