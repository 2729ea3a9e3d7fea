package io.kgrag.core.qa;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The soft type constraint of a question's type word ("Which T …"): an entity's types are read from the
 * schema-style names of the relations it is the subject of (a relation named {@code /d/t_u/p} makes its subject a
 * "u": the head, last word, of the name's type segment, so a {@code /film/film_distributor} is a distributor and no
 * film). A type word matches when its head noun (singular) is one of
 * those type tokens. A word that is no relation's type but some relation's domain ("people" in {@code
 * /people/person/...}) matches the subjects of that domain's relations; a word that is a type somewhere is read as a
 * type only, so a director ({@code /film/director/film}) is no film. Graphs whose relation names carry no schema
 * ({@code p} alone) give every entity the same score 0, so the constraint is neutral.
 */
public final class TypeMatcher implements Serializable {
  private static final long serialVersionUID = 1L;
  private final KnowledgeGraph graph;
  /** The type tokens each relation gives its subject, by {@link KnowledgeGraph#relationNames} position. */
  private final List<Set<String>> byRelation;
  /** The domain tokens of each relation's name, by the same position. */
  private final List<Set<String>> domains;
  /** Every relation's type tokens together. */
  private final Set<String> typeWords;

  public TypeMatcher(KnowledgeGraph graph) {
    this.graph = graph;
    List<Set<String>> types = new ArrayList<>();
    List<Set<String>> ds = new ArrayList<>();
    Set<String> all = new HashSet<>();
    for (String r : graph.relationNames()) {
      types.add(headOf(segment(r, 2)));
      ds.add(Set.copyOf(segment(r, 1)));
      all.addAll(types.get(types.size() - 1));
    }
    this.byRelation = List.copyOf(types);
    this.domains = List.copyOf(ds);
    this.typeWords = Set.copyOf(all);
  }

  /** 1 when the node's types contain the type word's head noun, else 0; 0 for a null type word. */
  public double score(int node, String typeWord) {
    String head = head(typeWord);
    return head != null && hasType(node, head) ? 1 : 0;
  }

  /** The type word's head noun, singular (the last word: "x ts" → "t"); null for a null or empty type word. */
  public static String head(String typeWord) {
    if (typeWord == null) {
      return null;
    }
    String[] words = Labels.normalize(typeWord).split(" ");
    String head = Labels.singular(words[words.length - 1]);
    return head.isEmpty() ? null : head;
  }

  /**
   * What each relation calls its objects, by relation name in {@link KnowledgeGraph#relationNames} order: the words of
   * the name's last segment ({@code /people/person/place_of_birth} → "place of birth", {@code directed_by} → "directed
   * by").
   */
  public Map<String, String> objectNouns() {
    Map<String, String> out = new LinkedHashMap<>();
    for (String r : graph.relationNames()) {
      String last = r.substring(r.lastIndexOf('/') + 1);
      out.put(r, Labels.normalize(last.replace('_', ' ').replace('.', ' ')));
    }
    return out;
  }

  /** Every word {@link #known} accepts, sorted. */
  public List<String> words() {
    Set<String> all = new java.util.TreeSet<>(typeWords);
    domains.forEach(all::addAll);
    return List.copyOf(all);
  }

  /** Whether some relation of the graph gives its subjects the type {@code head} (false for null). */
  public boolean known(String head) {
    if (head == null) {
      return false;
    }
    if (typeWords.contains(head)) {
      return true;
    }
    for (Set<String> d : domains) {
      if (d.contains(head)) {
        return true;
      }
    }
    return false;
  }

  /** Whether one of the node's types is {@code head} (a {@link #head} noun). */
  public boolean hasType(int node, String head) {
    List<Set<String>> sets = typeWords.contains(head) ? byRelation : domains;
    for (int k = 0; k < graph.entryCount(node); k++) {
      if (graph.entryOutgoing(node, k) && sets.get(graph.entryRelationIndex(node, k)).contains(head)) {
        return true;
      }
    }
    return false;
  }

  /** The last word of a segment's words (their order kept by {@link #segment}), as a set; empty for none. */
  private static Set<String> headOf(List<String> words) {
    return words.isEmpty() ? Set.of() : Set.of(words.get(words.size() - 1));
  }

  /** The words of a schema-style name's segment {@code s} (1: the domain, 2: the type), singular; none for other names. */
  private static List<String> segment(String r, int s) {
    if (!r.startsWith("/")) {
      return List.of();
    }
    String[] seg = r.split("/");
    if (s >= seg.length) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String t : seg[s].split("_")) {
      if (!t.isEmpty()) {
        out.add(Labels.singular(t));
      }
    }
    return out;
  }
}
