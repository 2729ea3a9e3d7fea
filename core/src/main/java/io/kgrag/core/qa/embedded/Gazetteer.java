package io.kgrag.core.qa.embedded;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The graph's labels as token sequences, for finding entity mentions in a question: every label in its
 * {@link Labels#normalize normalised} form (case, accents and punctuation folded), and again with each
 * token singularised so "United States Dollars" finds "United States Dollar", and by its head where it ends in a
 * qualifier ("Mercury (planet)" is found as "mercury", unless another label reads "Mercury"). Maps a token sequence to one
 * representative label; every node with that label is a candidate later (the path index matches label
 * keys, and assembly picks the node that connects).
 */
public final class Gazetteer implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Map<String, String> exact = new HashMap<>();
  private final Map<String, String> singular = new HashMap<>();
  private int maxTokens;

  public Gazetteer(KnowledgeGraph graph) {
    // deterministic representative: the smallest original label per normalised form
    Map<String, String> byForm = new TreeMap<>();
    for (int i = 0; i < graph.nodeCount(); i++) {
      String label = graph.label(i);
      String form = Labels.normalize(label);
      if (form.isEmpty()) {
        continue;
      }
      byForm.merge(form, label, (a, b) -> a.compareTo(b) <= 0 ? a : b);
    }
    for (Map.Entry<String, String> e : byForm.entrySet()) {
      exact.put(e.getKey(), e.getValue());
      singular.putIfAbsent(singularForm(e.getKey()), e.getValue());
      maxTokens = Math.max(maxTokens, e.getKey().split(" ").length);
    }
    // a label's head without its qualifier ("Mercury (planet)", "Name-GB") names it too, where no label reads so
    Map<String, String> byHead = new TreeMap<>();
    for (String label : byForm.values()) {
      String head = head(label);
      if (head != null) {
        String form = Labels.normalize(head);
        if (!form.isEmpty() && !exact.containsKey(form)) {
          byHead.merge(form, label, (a, b) -> a.compareTo(b) <= 0 ? a : b);
        }
      }
    }
    for (Map.Entry<String, String> e : byHead.entrySet()) {
      exact.put(e.getKey(), e.getValue());
      singular.putIfAbsent(singularForm(e.getKey()), e.getValue());
    }
  }

  private static final Pattern QUALIFIER = Pattern.compile("^(.*\\S)(?:\\s*\\([^()]+\\)|-[A-Z]{2,3})$");

  /**
   * A label's head when it ends in a qualifier that tells it apart from others of the same name: a parenthesis
   * ("Mercury (planet)") or a region or language code after a hyphen ("Name-GB"); null when it has none, or when
   * the head is shorter than four characters (a hyphenated word such as "Hi-NRG" is no head and a qualifier).
   */
  static String head(String label) {
    Matcher m = QUALIFIER.matcher(label.strip());
    if (!m.matches()) {
      return null;
    }
    String head = m.group(1).strip();
    return head.length() >= 4 ? head : null;
  }

  /** The label whose normalised form is this token sequence (or its singular form), or null. */
  public String lookup(String normalisedTokens) {
    String l = exact.get(normalisedTokens);
    return l != null ? l : singular.get(singularForm(normalisedTokens));
  }

  public int maxTokens() {
    return maxTokens;
  }

  public int size() {
    return exact.size();
  }

  static String singularForm(String tokens) {
    StringBuilder b = new StringBuilder(tokens.length());
    for (String t : tokens.split(" ")) {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(Labels.singular(t));
    }
    return b.toString();
  }
}
