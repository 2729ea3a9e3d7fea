package io.kgrag.core.simgrag.llm;

import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.RankedAnswer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SimGRAG's verbalized subgraph-augmented generation (PAPER §4.4) through an LLM, with the MetaQA prompt
 * of Table 12: the question and the retrieved subgraphs as {@code evidences: {"graph [1]": [(h, r, t),
 * …], "graph [2]": […]}}; the model gives a brief reason, then the answer, and may name several answers
 * (one per graph).
 *
 * <p><b>The prompt</b> is kept in the resource {@code answer-prompt.txt} next to this class, with
 * {@code {{QUERY}}} and {@code {{RETRIEVED SUBGRAPHS}}} where the paper has them. The paper prints one
 * example and elides the rest; the resource holds that example as printed (its "writter" included) and
 * not the elision line. The filled template is one user message.
 *
 * <p><b>The evidences.</b> Each {@link Candidate} is one retrieved subgraph, best (smallest GSD) first:
 * its {@link Candidate#evidence()} edges become one graph, written {@code ("src", "relation", "dst")}
 * with the labels and the relation exactly as in the knowledge graph (the paper's example writes
 * {@code starred_actors} as stored), a label missing from the graph written {@code entity <id>}; strings
 * are double-quoted with {@code \} and {@code "} escaped. Graphs are numbered from 1 in retrieval order;
 * a candidate without edges is skipped, and only the first {@code maxGraphs} graphs are written (a
 * SimGRAG subgraph has as many edges as the pattern has triples, so the graph count bounds the prompt).
 *
 * <p><b>Reading the reply.</b> {@code <think>} blocks are dropped. The answer part is the paragraph
 * after the last "answer:", "answer is" or "answers are" (any case), cut before a following "Reason:" or
 * "Explanation:"; without such a marker it is the reply's last paragraph (the paper's example answers in
 * one sentence: "According to graphs [1][2], the writter is Ben Hecht or Peter McCarthy."). Then:
 *
 * <ul>
 *   <li>when the answer part says the question cannot be answered ("unable to determine", "cannot be
 *       answered", "not enough information", "do not provide information", …), the answer is null;
 *   <li>otherwise the answers named are the labels of the shown graphs' candidates ({@link
 *       Candidate#label()}, the entity bound to the pattern's target) that occur in the answer part as
 *       whole words: with their exact case when any does (so the film "Her" is not read from the word
 *       "her"), else compared by {@link Labels#normalize}; a longer label that covers a shorter one wins
 *       the overlap ("Ben Hecht" over "Ben"). Entities of the graphs that bind no target (the question's
 *       own entities, intermediate hops) are not answers;
 *   <li>no label named gives a null answer (and {@link #unnamedReplies()} counts the reply).
 * </ul>
 *
 * <p><b>The result.</b> {@code ranked} holds each bound entity once (its best candidate), those named
 * first, each group in retrieval order, with the retrieval scores (−GSD); candidates without a label
 * bind nothing and are not ranked. {@code answer} is the named labels in that order, distinct, joined
 * by {@code " | "}; {@code evidence} is the distinct edges of every shown graph whose binding was named.
 * A null answer keeps the retrieval ranking and has no evidence. With no candidate that has edges there
 * is nothing to reason over: the answer is null and no request is sent.
 *
 * <p><b>Failures:</b> a blank question is {@link AnswerStatus#INVALID_INPUT}; an endpoint failure is
 * {@link AnswerStatus#ERROR} ("LLM endpoint failed (KIND): …"). Thread-safe when its client is.
 */
public final class LlmSubgraphAnswerGenerator implements AnswerGenerator {
  /** The resource that holds the default prompt (Table 12), next to this class. */
  public static final String PROMPT_RESOURCE = "answer-prompt.txt";

  public static final int DEFAULT_MAX_GRAPHS = 10;

  /** Joins several named answers in {@link GeneratedAnswer#answer()}. */
  public static final String ANSWER_SEPARATOR = " | ";

  private static final String DEFAULT_PROMPT = PromptTemplates.load(LlmSubgraphAnswerGenerator.class, PROMPT_RESOURCE);
  private static final Pattern ANSWER_MARKER = Pattern.compile("(?i)\\banswer\\b[*_\\s]*:|\\banswer\\s+is\\b|\\banswers\\s+are\\b");
  private static final Pattern AFTERWORD = Pattern.compile("(?i)\\b(reason(ing)?|explanation|note)\\b[*_\\s]*:");
  private static final Pattern PARAGRAPH_BREAK = Pattern.compile("\\n\\s*\\n");
  private static final Pattern UNABLE =
      Pattern.compile(
          "(?i)unable to (determine|answer|find|tell)"
              + "|(cannot|can ?not|can't|could not|couldn't) (be )?(determined?|answer(ed)?|find|found|tell|decided?)"
              + "|(not|no) (enough|sufficient) (information|evidence)|insufficient (information|evidence)"
              + "|(does|do|did) ?(not|n't) (provide|contain|give|include|mention) (any )?(information|answer|evidence)"
              + "|\\bno (answer|relevant evidence)\\b");

  private final CachingChatClient client;
  private final String template;
  private final int maxGraphs;
  private final AtomicLong unnamed = new AtomicLong();

  /** With the paper's Table 12 prompt and at most {@link #DEFAULT_MAX_GRAPHS} graphs. */
  public LlmSubgraphAnswerGenerator(CachingChatClient client) {
    this(client, DEFAULT_PROMPT, DEFAULT_MAX_GRAPHS);
  }

  /**
   * @param template the prompt, with {@code {{QUERY}}} and {@code {{RETRIEVED SUBGRAPHS}}}
   * @param maxGraphs how many subgraphs, best first, the prompt shows at most
   */
  public LlmSubgraphAnswerGenerator(CachingChatClient client, String template, int maxGraphs) {
    this.client = Objects.requireNonNull(client, "client");
    this.template = PromptTemplates.requirePlaceholders(template, "QUERY", "RETRIEVED SUBGRAPHS");
    if (maxGraphs < 1) {
      throw new IllegalArgumentException("maxGraphs must be >= 1, got " + maxGraphs);
    }
    this.maxGraphs = maxGraphs;
  }

  /** The paper's Table 12 prompt as kept in {@link #PROMPT_RESOURCE}. */
  public static String defaultPrompt() {
    return DEFAULT_PROMPT;
  }

  /** The candidates whose subgraphs the prompt shows, in order: graph [i] is element i - 1. */
  public List<Candidate> shown(List<Candidate> candidates) {
    List<Candidate> out = new ArrayList<>();
    for (Candidate c : candidates) {
      if (out.size() >= maxGraphs) {
        break;
      }
      if (c.evidence() != null && !c.evidence().isEmpty()) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * The {@code {{RETRIEVED SUBGRAPHS}}} text: {@code {"graph [1]": [("h", "r", "t"), …], …}}, one triple
   * a line, each graph's repeated edges once.
   */
  public String evidences(List<Candidate> candidates) {
    List<Candidate> graphs = shown(candidates);
    StringBuilder b = new StringBuilder("{\n");
    for (int g = 0; g < graphs.size(); g++) {
      Set<String> triples = new LinkedHashSet<>();
      for (EvidenceEdge e : graphs.get(g).evidence()) {
        triples.add(
            "(" + quote(label(e.srcLabel(), e.srcId())) + ", " + quote(e.relation()) + ", "
                + quote(label(e.dstLabel(), e.dstId())) + ")");
      }
      b.append("    \"graph [").append(g + 1).append("]\": [\n        ");
      b.append(String.join(",\n        ", triples));
      b.append("\n    ]").append(g + 1 < graphs.size() ? ",\n" : "\n");
    }
    return b.append('}').toString();
  }

  /** The prompt of Table 12 for {@code question} and {@code candidates}, as one user message. */
  public List<ChatMessage> messages(String question, List<Candidate> candidates) {
    String prompt =
        PromptTemplates.fill(template, Map.of("QUERY", question.strip(), "RETRIEVED SUBGRAPHS", evidences(candidates)));
    return List.of(ChatMessage.user(prompt));
  }

  @Override
  public GeneratedAnswer generate(String question, QueryGraph queryGraph, List<Candidate> candidates) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    List<Candidate> cands = candidates == null ? List.of() : candidates;
    List<Candidate> graphs = shown(cands);
    if (graphs.isEmpty()) {
      return new GeneratedAnswer(null, ranked(cands, Set.of()), List.of());
    }
    String reply;
    try {
      reply = client.complete(messages(question, cands));
    } catch (LlmException e) {
      throw QaException.endpointFailed(e);
    }

    String part = answerPart(reply);
    if (UNABLE.matcher(part).find()) {
      return new GeneratedAnswer(null, ranked(cands, Set.of()), List.of());
    }
    Set<String> labels = new LinkedHashSet<>();
    for (Candidate c : graphs) {
      if (bound(c)) {
        labels.add(c.label().strip());
      }
    }
    Set<String> named = named(part, labels);
    if (named.isEmpty()) {
      unnamed.incrementAndGet();
      return new GeneratedAnswer(null, ranked(cands, Set.of()), List.of());
    }

    List<RankedAnswer> ranked = ranked(cands, named);
    Set<String> answers = new LinkedHashSet<>();
    for (RankedAnswer r : ranked) {
      if (named.contains(r.answer().strip())) {
        answers.add(r.answer().strip());
      }
    }
    Set<EvidenceEdge> evidence = new LinkedHashSet<>();
    for (Candidate c : graphs) {
      if (bound(c) && named.contains(c.label().strip())) {
        evidence.addAll(c.evidence());
      }
    }
    return new GeneratedAnswer(String.join(ANSWER_SEPARATOR, answers), ranked, List.copyOf(evidence));
  }

  /** Replies so far that named no candidate and did not say the question cannot be answered. */
  public long unnamedReplies() {
    return unnamed.get();
  }

  @Override
  public String toString() {
    return "LlmSubgraphAnswerGenerator{model=" + client.model() + ", maxGraphs=" + maxGraphs + "}";
  }

  // ---------------------------------------------------------------------------------------------------

  /** The part of a reply that holds the answer (see the class comment). */
  static String answerPart(String reply) {
    String text = LlmPatternExtractor.withoutThinking(reply).strip();
    Matcher m = ANSWER_MARKER.matcher(text);
    int after = -1;
    while (m.find()) {
      after = m.end();
    }
    if (after >= 0) {
      String rest = text.substring(after).strip();
      Matcher p = PARAGRAPH_BREAK.matcher(rest);
      String para = p.find() ? rest.substring(0, p.start()) : rest;
      Matcher a = AFTERWORD.matcher(para);
      return a.find() ? para.substring(0, a.start()) : para;
    }
    String[] paragraphs = PARAGRAPH_BREAK.split(text);
    return paragraphs.length == 0 ? "" : paragraphs[paragraphs.length - 1];
  }

  /**
   * The labels of {@code labels} that {@code part} names as whole words: exact case first, normalised
   * if none matches so; longer labels claim their text before shorter ones.
   */
  static Set<String> named(String part, Set<String> labels) {
    List<String> byLength = new ArrayList<>(labels);
    byLength.sort(Comparator.comparingInt(String::length).reversed());
    Set<String> exact = claim(part, byLength, false);
    if (!exact.isEmpty()) {
      return exact;
    }
    return claim(part, byLength, true);
  }

  private static Set<String> claim(String part, List<String> byLength, boolean normalised) {
    String text = normalised ? Labels.normalize(part) : part;
    boolean[] taken = new boolean[text.length()];
    Set<String> out = new LinkedHashSet<>();
    for (String label : byLength) {
      String needle = normalised ? Labels.normalize(label) : label;
      if (needle.isEmpty()) {
        continue;
      }
      for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
        int end = at + needle.length();
        if (!wordEdge(text, at - 1, needle.charAt(0)) || !wordEdge(text, end, needle.charAt(needle.length() - 1))) {
          continue;
        }
        boolean free = true;
        for (int k = at; k < end && free; k++) {
          free = !taken[k];
        }
        if (free) {
          for (int k = at; k < end; k++) {
            taken[k] = true;
          }
          out.add(label);
        }
      }
    }
    return out;
  }

  /** Whether the text beside a match at {@code pos} ends a word, when the match's own edge is a word character. */
  private static boolean wordEdge(String text, int pos, char edge) {
    if (!Character.isLetterOrDigit(edge) || pos < 0 || pos >= text.length()) {
      return true;
    }
    return !Character.isLetterOrDigit(text.charAt(pos));
  }

  private static boolean bound(Candidate c) {
    return c.label() != null && !c.label().isBlank();
  }

  /** Each bound entity once: those whose label is in {@code first} first, then the rest, in retrieval order. */
  private static List<RankedAnswer> ranked(List<Candidate> cands, Set<String> first) {
    List<RankedAnswer> head = new ArrayList<>();
    List<RankedAnswer> tail = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (Candidate c : cands) {
      if (!bound(c) || !seen.add(c.entityId())) {
        continue;
      }
      RankedAnswer r = new RankedAnswer(c.label(), c.entityId(), c.score());
      (first.contains(c.label().strip()) ? head : tail).add(r);
    }
    head.addAll(tail);
    return head;
  }

  private static String label(String label, long id) {
    return label == null || label.isBlank() ? "entity " + id : label;
  }

  /** A double-quoted string literal: backslash, quote and line breaks escaped. */
  static String quote(String s) {
    String v = s == null ? "" : s;
    return "\""
        + v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "\\r")
        + "\"";
  }
}
