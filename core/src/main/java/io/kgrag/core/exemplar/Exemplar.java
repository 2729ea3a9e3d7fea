package io.kgrag.core.exemplar;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A labelled question of the exemplar store: SimGRAG's embedded query-to-pattern step finds a new
 * question's nearest exemplars (mentions masked) and instantiates their pattern with the new question's
 * mentions. Exemplars are data read from a file ({@link ExemplarFile}), never compiled in.
 *
 * @param question the question with its entity mentions in square brackets, as MetaQA writes it
 *     ({@code who directed the films starring [Tom Hanks]}); {@code [i]} in the pattern is the i-th of them
 * @param pattern the query pattern: non-empty, connected, its mention references within the question's
 *     mentions
 * @param answer the unknown {@code ?n} the answer binds; it occurs in the pattern
 * @param qtype the question type ({@code actor_to_movie_to_director}), or null
 * @param source where the exemplar came from ({@code qa_dev_2hop.txt:17}), or null
 */
public record Exemplar(String question, List<PatternTriple> pattern, String answer, String qtype, String source) {
  private static final Pattern MENTION = Pattern.compile("\\[([^\\[\\]]+)]");
  private static final Pattern SPACE = Pattern.compile("\\s+");

  /**
   * Copies the pattern (unmodifiable) and checks it against the question.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public Exemplar {
    if (question == null || question.isBlank()) {
      throw new IllegalArgumentException("question is empty");
    }
    if (pattern == null || pattern.isEmpty()) {
      throw new IllegalArgumentException("pattern is empty; give at least one triple");
    }
    pattern = List.copyOf(pattern);
    int mentions = mentionsOf(question).size();
    for (PatternTriple t : pattern) {
      for (String term : new String[] {t.head(), t.tail()}) {
        int i = PatternTriple.mentionIndex(term);
        if (i >= mentions) {
          throw new IllegalArgumentException(
              "pattern refers to " + term + " but the question has " + mentions + " bracketed mention" + (mentions == 1 ? "" : "s")
                  + (mentions == 0 ? "" : " ([0]" + (mentions > 1 ? " to [" + (mentions - 1) + "]" : "") + ")"));
        }
      }
    }
    if (!PatternTriple.isUnknown(answer)) {
      throw new IllegalArgumentException("answer '" + answer + "' is not an unknown ?n");
    }
    if (!terms(pattern).contains(answer)) {
      throw new IllegalArgumentException("answer " + answer + " does not occur in the pattern");
    }
    if (!connected(pattern)) {
      throw new IllegalArgumentException("pattern is not connected: every triple must share a term with the others");
    }
  }

  /** The bracketed mentions in order, trimmed ({@code [Tom Hanks]} gives {@code Tom Hanks}). */
  public List<String> mentions() {
    return mentionsOf(question);
  }

  /**
   * The question with each mention replaced by {@code mask} and the brackets removed, whitespace
   * collapsed to single spaces and trimmed: what the store embeds so that exemplars are compared by their
   * wording, not by the entities they name.
   */
  public String masked(String mask) {
    Matcher m = MENTION.matcher(question);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(b, Matcher.quoteReplacement(mask));
    }
    m.appendTail(b);
    return SPACE.matcher(b).replaceAll(" ").strip();
  }

  /**
   * The question as a user types it: brackets removed, the mentions' text kept, trimmed; the same text
   * {@code MetaQaQuestions} gives for the line.
   */
  public String plain() {
    Matcher m = MENTION.matcher(question);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(b, Matcher.quoteReplacement(m.group(1)));
    }
    m.appendTail(b);
    return b.toString().trim();
  }

  static List<String> mentionsOf(String question) {
    List<String> out = new ArrayList<>();
    Matcher m = MENTION.matcher(question);
    while (m.find()) {
      out.add(m.group(1).trim());
    }
    return Collections.unmodifiableList(out);
  }

  private static Set<String> terms(List<PatternTriple> pattern) {
    Set<String> out = new HashSet<>();
    for (PatternTriple t : pattern) {
      out.add(t.head());
      out.add(t.tail());
    }
    return out;
  }

  private static boolean connected(List<PatternTriple> pattern) {
    Map<String, List<String>> adj = new HashMap<>();
    for (PatternTriple t : pattern) {
      adj.computeIfAbsent(t.head(), k -> new ArrayList<>()).add(t.tail());
      adj.computeIfAbsent(t.tail(), k -> new ArrayList<>()).add(t.head());
    }
    Set<String> seen = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.add(pattern.get(0).head());
    seen.add(pattern.get(0).head());
    while (!todo.isEmpty()) {
      for (String n : adj.get(todo.poll())) {
        if (seen.add(n)) {
          todo.add(n);
        }
      }
    }
    return seen.size() == adj.size();
  }
}
