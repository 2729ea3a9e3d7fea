package io.kgrag.core.srag;

import io.kgrag.core.embed.EmbeddingCache;
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
  /** Weight of the type word's match with a candidate set relation. */
  static final double TYPE_WEIGHT = 0.5;

  /** Weight of log(1 + members) of a candidate set relation. */
  static final double SIZE_WEIGHT = 0.03;

  /** Weight of the fraction of (sampled) members that have a property, when a phrase names one. */
  static final double COVERAGE_WEIGHT = 0.3;

  /** Members sampled to list the set's properties. */
  public static final int PROPERTY_SAMPLE = 500;
  /** A text property with at most this many values among the (sampled) members can have a value named by another word. */
  static final int FEW_VALUES = 16;
  /** How close a word must read to a value's label to name it, and by how much more than to any other value. */
  static final double NAMED_VALUE_SIMILARITY = 0.6;
  static final double NAMED_VALUE_MARGIN = 0.1;

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

  /** The words of the graph's relation names, singular ({@code /film/film/country} → film, country). */
  private java.util.Set<String> relationWords;

  /**
   * Whether a plural word names a property of the graph rather than an entity: its singular is a word of a relation
   * name ("colours" for a relation {@code has_colour}) or the agent noun of a verb in one ("painters" for
   * {@code painted_by}, "inventors" for {@code invented_by}: English derivation, -or/-er on the verb's stem), even
   * where a label reads the same (an entity named "Colour" or "Painter").
   */
  public boolean namesProperty(String word) {
    String singular = Labels.singular(word);
    if (singular.equals(word)) {
      return false;
    }
    if (relationWords == null) {
      java.util.Set<String> words = new java.util.HashSet<>();
      java.util.Set<String> stems = new java.util.HashSet<>();
      for (String r : graph.relationNames()) {
        for (String w : Labels.relationText(r).split(" ")) {
          String n = Labels.normalize(w);
          words.add(Labels.singular(n));
          String v = verbStem(n);
          if (v != null) {
            stems.add(v);
          }
        }
      }
      relationWords = words;
      relationVerbStems = stems;
    }
    if (relationWords.contains(singular)) {
      return true;
    }
    // the agent of a relation's verb ("painters" for painted_by)
    String agent = agentStem(singular);
    return agent != null && relationVerbStems.contains(agent);
  }

  private java.util.Set<String> relationVerbStems;

  /** The words of a relation name, each normalised and singular ({@code painted_by} → painted, by). */
  public static java.util.Set<String> relationWords(String relation) {
    java.util.Set<String> out = new java.util.HashSet<>();
    for (String w : Labels.relationText(relation).split(" ")) {
      out.add(Labels.singular(Labels.normalize(w)));
    }
    return out;
  }

  /** The stem of a verb form ("painted" → "paint", "stopped" → "stop", "written" → "writ"), or null. */
  static String verbStem(String w) {
    for (String suffix : new String[] {"ing", "ed", "en"}) {
      if (w.endsWith(suffix) && w.length() - suffix.length() >= 4) {
        return stemEnd(w.substring(0, w.length() - suffix.length()));
      }
    }
    return null;
  }

  /** The stem of an agent noun ("inventor" → "invent", "driver" → "driv", "writer" → "writ"), or null. */
  static String agentStem(String w) {
    for (String suffix : new String[] {"or", "er"}) {
      if (w.endsWith(suffix) && w.length() - suffix.length() >= 4) {
        return stemEnd(w.substring(0, w.length() - suffix.length()));
      }
    }
    return null;
  }

  /** A stem without a final "e" or a doubled final consonant ("bake" → "bak", "writt" → "writ"). */
  private static String stemEnd(String s) {
    if (s.endsWith("e")) {
      s = s.substring(0, s.length() - 1);
    }
    int n = s.length();
    if (n >= 2 && s.charAt(n - 1) == s.charAt(n - 2) && "aeiou".indexOf(s.charAt(n - 1)) < 0) {
      s = s.substring(0, n - 1);
    }
    return s;
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
        // the type word says what the members are ("films" → /film/film/country over /music/artist/origin); a set
        // of many members is likelier than an incidental edge; members as the edges' heads win ties
        double score = matcher.score(phrase == null || phrase.isBlank() ? typeWord : phrase, relation)
            + (typeWord == null ? 0 : TYPE_WEIGHT * matcher.score(Labels.singular(typeWord), relation)) + SIZE_WEIGHT * Math.log1p(e.getValue())
            + (membersAreSubjects ? 0.01 : 0);
        if (score > bestScore) {
          bestScore = score;
          best = new EntitySet(typeWord, id, graph.label(node), relation, membersAreSubjects);
        }
      }
    }
    return best;
  }

  /** The set's member nodes, ascending ({@link EntitySet#members}). */
  public int[] members(EntitySet set) {
    return set.members(graph);
  }

  /** The members' properties (sampled), with how many have each and how numeric their values are. */
  public List<Inventory> inventory(int[] members) {
    Map<String, int[]> stats = new TreeMap<>(); // key → members, values, numeric values
    for (int m : sample(members)) {
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
   * How well each member property fits a value named {@code label}: the property must reach a node with that
   * label (from any node; a value no member has yet still names its property), scored by the words just
   * before the name ({@code context}: "starring", "written by"), then by the question's own property words
   * ({@code hint}: "which actor …"), then by whether members have it, then by how often the value is used
   * with the property in the whole graph. Empty when no property can.
   */
  public Map<Property, Double> valueScores(String label, String context, String hint, int[] members, List<Inventory> inv) {
    Map<String, Integer> reach = new LinkedHashMap<>(); // property key → members with the value
    Map<String, Integer> uses = new LinkedHashMap<>(); // property key → the value's edges of it in the whole graph
    for (long id : graph.entityIdsWithLabel(label)) {
      int v = graph.index(id);
      for (int k = 0; k < graph.entryCount(v); k++) {
        String key = (graph.entryOutgoing(v, k) ? "<" : ">") + graph.entryRelation(v, k); // the member's direction
        reach.putIfAbsent(key, 0);
        uses.merge(key, 1, Integer::sum);
        if (Arrays.binarySearch(members, graph.entryNeighbour(v, k)) >= 0) {
          reach.merge(key, 1, Integer::sum);
        }
      }
    }
    Map<Property, Double> out = new LinkedHashMap<>();
    for (Inventory i : inv) {
      Integer r = reach.get((i.property().outgoing() ? ">" : "<") + i.property().relation());
      if (r == null) {
        continue;
      }
      String rel = i.property().relation();
      // a label that is both a genre and a tag ("Romance", "romance") is likelier the value its property uses most
      double score = matcher.score(context, rel) + 0.3 * matcher.score(hint, rel) + (r > 0 ? 0.2 : 0) + 0.01 * Math.log1p(r)
          + 0.05 * Math.log1p(uses.get((i.property().outgoing() ? ">" : "<") + rel));
      out.put(i.property(), score);
    }
    return out;
  }

  /**
   * The label of the value as {@code p}'s column holds it: of the nodes sharing {@code label}'s key (case,
   * accents and punctuation aside: the tag "david fincher" and the person "David Fincher"), the first one
   * {@code p} reaches; {@code label} when none does.
   */
  public String valueLabel(String label, Property p) {
    for (long id : graph.entityIdsWithLabel(label)) {
      int v = graph.index(id);
      for (int k = 0; k < graph.entryCount(v); k++) {
        // the member's side: an outgoing property reaches the value over an edge the value sees as incoming
        if (graph.entryRelation(v, k).equals(p.relation()) && graph.entryOutgoing(v, k) != p.outgoing()) {
          return graph.label(v);
        }
      }
    }
    return label;
  }

  /** The best of {@link #valueScores}, or null when no member property reaches the value. */
  public Property valueProperty(String label, String context, String hint, int[] members, List<Inventory> inv) {
    Property best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (Map.Entry<Property, Double> e : valueScores(label, context, hint, members, inv).entrySet()) {
      if (e.getValue() > bestScore) {
        bestScore = e.getValue();
        best = e.getKey();
      }
    }
    return best;
  }

  /**
   * The values of the members' text properties, for {@link NamedValues#of}: read once per question over the
   * sampled members, as the inventory is; {@code vectors} embeds texts (unit vectors, in order), best from a cache
   * shared by the questions of a run, since the same values and property names come back.
   */
  public NamedValues namedValues(int[] members, java.util.function.Function<List<String>, float[][]> vectors) {
    Map<String, java.util.Set<String>> values = new TreeMap<>();
    for (int m : sample(members)) {
      for (int k = 0; k < graph.entryCount(m); k++) {
        String label = graph.label(graph.entryNeighbour(m, k));
        if (!(ValueNormaliser.value(label) instanceof Number)) {
          values.computeIfAbsent((graph.entryOutgoing(m, k) ? ">" : "<") + graph.entryRelation(m, k), x -> new java.util.TreeSet<>()).add(label);
        }
      }
    }
    java.util.Set<String> names = new java.util.TreeSet<>();
    java.util.Set<String> few = new java.util.TreeSet<>();
    values.forEach((key, vs) -> {
      String relation = key.substring(1);
      names.add(Labels.relationText(relation));
      names.add(Labels.relationText(relation.substring(relation.lastIndexOf('/') + 1)));
      if (vs.size() <= FEW_VALUES) {
        few.addAll(vs);
      }
    });
    return new NamedValues(new ArrayList<>(names), new ArrayList<>(few), vectors);
  }

  /** The values of the members' text properties that have few values among them, and the properties' names. */
  public static final class NamedValues {
    private final List<String> names;
    private final List<String> values;
    private final java.util.function.Function<List<String>, float[][]> vectors;
    private float[][] nameVectors;
    private float[][] valueVectors;

    private NamedValues(List<String> names, List<String> values, java.util.function.Function<List<String>, float[][]> vectors) {
      this.names = names;
      this.values = values;
      this.vectors = vectors;
    }

    /**
     * The value that {@code word} names by another word than its label ("women" for the gender value "Female"):
     * of the values of the properties with few values among the members, the one whose label the word reads
     * closest to by sentence embedding, when it reads close enough, clearly closer than to any other value, and
     * closer than to the name of any property, whole or its last part (a word that names a property, "language",
     * is no value); null otherwise.
     */
    public String of(String word) {
      if (values.isEmpty()) {
        return null;
      }
      if (valueVectors == null) {
        nameVectors = vectors.apply(names);
        valueVectors = vectors.apply(values);
      }
      float[] w = vectors.apply(List.of(word))[0];
      double property = Double.NEGATIVE_INFINITY;
      for (float[] v : nameVectors) {
        property = Math.max(property, EmbeddingCache.dot(w, v));
      }
      int best = -1;
      double bestSim = Double.NEGATIVE_INFINITY;
      double second = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < values.size(); i++) {
        double sim = EmbeddingCache.dot(w, valueVectors[i]);
        if (sim > bestSim) {
          second = bestSim;
          bestSim = sim;
          best = i;
        } else if (sim > second) {
          second = sim;
        }
      }
      return bestSim >= NAMED_VALUE_SIMILARITY && bestSim - second >= NAMED_VALUE_MARGIN && bestSim > property ? values.get(best) : null;
    }
  }

  /** At most {@link #PROPERTY_SAMPLE} members, spread evenly over the set, that the inventory and the values are read from. */
  private static int[] sample(int[] members) {
    int n = Math.min(members.length, PROPERTY_SAMPLE);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = members[(int) ((long) i * members.length / n)];
    }
    return out;
  }

  /** How many members the inventory was taken over: the most any property has is a lower bound. */
  private static int sampled(List<Inventory> inv) {
    int n = 0;
    for (Inventory i : inv) {
      n = Math.max(n, i.members());
    }
    return n;
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
        // a property few members have is rarely the one asked about ("languages" of films: /film/film/language)
        double score = matcher.score(phrase, i.property().relation()) + COVERAGE_WEIGHT * i.members() / (double) Math.max(1, sampled(inv));
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
