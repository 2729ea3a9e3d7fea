package io.kgrag.core.qa.llm;

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
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * γ through an LLM, with the answer-inference prompt of SG-RAG Table 15: the evidence subgraphs of the
 * best candidates become the "Known Relations" paragraph, one {@code src -- relation -> dst} line per
 * distinct edge (labels as in the graph, the relation in words by {@link Labels#relationText}; the paper
 * words each edge as a sentence, a line per edge carries the same and is shorter), and the model answers
 * the question with one entity label of the paragraph or "Unable to determine".
 *
 * <p><b>Prompt size.</b> Only the first {@code maxCandidates} candidates (in retrieval order) contribute
 * edges, and at most {@code maxEdges} lines are written.
 *
 * <p><b>Reading the reply.</b> The answer is the text after an {@code Answer:} prefix (else the first
 * non-blank line), tried whole, cut before "Reasoning:"/"Explanation:"/"because", and cut at its first
 * sentence end or parenthesis; quotes, brackets, markdown and case do not matter ({@link
 * Labels#normalize}). Then:
 *
 * <ul>
 *   <li>"unable to determine" (or "cannot be determined") gives an answer of null, the retrieval ranking
 *       unchanged and no evidence;
 *   <li>a label of a candidate (any of them; the first in retrieval order when several share it) makes it
 *       the answer, in the graph's spelling: the ranking puts it first and the rest in retrieval order,
 *       and the evidence is that candidate's evidence;
 *   <li>anything else — a name not in the graph, or an entity of the paragraph that is not a candidate
 *       (one the question itself names, or an intermediate hop, neither of which binds the target) — is
 *       not accepted: the answer is the top candidate's label, the ranking is the retrieval ranking, the
 *       evidence the top candidate's, and {@link #unmatchedReplies()} counts it. The retrieval already
 *       found that candidate, so a model's slip costs no more than answering extractively would.
 * </ul>
 *
 * <p>With no candidates, or none with evidence among the first {@code maxCandidates}, there is nothing
 * to reason over: the answer is null (unable) and no request is sent.
 *
 * <p><b>Failures:</b> a blank question is {@link AnswerStatus#INVALID_INPUT}; an endpoint failure is
 * {@link AnswerStatus#ERROR} ("LLM endpoint failed (KIND): …"). Thread-safe when its client is.
 */
public final class LlmAnswerGenerator implements AnswerGenerator {
  public static final int DEFAULT_MAX_CANDIDATES = 10;
  public static final int DEFAULT_MAX_EDGES = 100;

  static final String SYSTEM_PROMPT =
      "Below is a paragraph describing the relationships among entities in a structured graph. This"
          + " paragraph contains the answer to a user question. Read and reason carefully.\n"
          + "Note: The final answer must be one of the entity labels mentioned in the paragraph. If it cannot"
          + " be decided from the paragraph, answer \"Unable to determine\".\n"
          + "Reply with the answer only, written exactly as in the paragraph, without explanation.";

  private static final Pattern ANSWER_PREFIX = Pattern.compile("(?i)\\banswer\\b[*_\\s]*:");
  private static final Pattern REASONING = Pattern.compile("(?i)\\b(reasoning|explanation|because)\\b");
  private static final Pattern SENTENCE_END = Pattern.compile("\\.\\s|[;(]");
  private static final List<String> UNABLE =
      List.of("unable to determine", "cannot be determined", "cannot determine", "can not be determined");

  /**
   * Writes the request from the question, the candidates and their relation lines ({@link #relationLines});
   * another method's prompt (QAFD-RAG's data tables) plugs in here and keeps this class's reading of the
   * reply.
   */
  @FunctionalInterface
  public interface Prompt {
    List<ChatMessage> messages(String question, List<Candidate> candidates, List<String> relationLines);
  }

  private final CachingChatClient client;
  private final Prompt prompt;
  private final int maxCandidates;
  private final int maxEdges;
  private final AtomicLong unmatched = new AtomicLong();

  public LlmAnswerGenerator(CachingChatClient client) {
    this(client, DEFAULT_MAX_CANDIDATES, DEFAULT_MAX_EDGES);
  }

  /**
   * @param maxCandidates how many candidates, best first, contribute their evidence to the prompt
   * @param maxEdges how many relation lines the prompt holds at most
   */
  public LlmAnswerGenerator(CachingChatClient client, int maxCandidates, int maxEdges) {
    this(client, maxCandidates, maxEdges, null);
  }

  /** @param prompt the request's wording; null for SG-RAG's Table 15 ({@link #messages}) */
  public LlmAnswerGenerator(CachingChatClient client, int maxCandidates, int maxEdges, Prompt prompt) {
    this.client = Objects.requireNonNull(client, "client");
    this.prompt = prompt;
    if (maxCandidates < 1 || maxEdges < 1) {
      throw new IllegalArgumentException(
          "maxCandidates and maxEdges must be >= 1, got " + maxCandidates + " and " + maxEdges);
    }
    this.maxCandidates = maxCandidates;
    this.maxEdges = maxEdges;
  }

  /** The relation lines of the prompt: the capped candidates' evidence edges, distinct, in order. */
  public List<String> relationLines(List<Candidate> candidates) {
    Set<String> lines = new LinkedHashSet<>();
    for (Candidate c : candidates.subList(0, Math.min(maxCandidates, candidates.size()))) {
      for (EvidenceEdge e : c.evidence()) {
        if (lines.size() >= maxEdges) {
          return List.copyOf(lines);
        }
        lines.add(
            label(e.srcLabel(), e.srcId())
                + " -- "
                + Labels.relationText(e.relation())
                + " -> "
                + label(e.dstLabel(), e.dstId()));
      }
    }
    return List.copyOf(lines);
  }

  /** The prompt of Table 15: the fixed instruction, then the relations and the question. */
  public List<ChatMessage> messages(String question, List<Candidate> candidates) {
    String user =
        "— Known Relations:\n"
            + String.join("\n", relationLines(candidates))
            + "\n— User Question: "
            + question.strip()
            + "\nAnswer: [Entity] or \"Unable to determine\"";
    return List.of(ChatMessage.system(SYSTEM_PROMPT), ChatMessage.user(user));
  }

  @Override
  public GeneratedAnswer generate(String question, QueryGraph queryGraph, List<Candidate> candidates) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    List<Candidate> cands = candidates == null ? List.of() : candidates;
    List<RankedAnswer> retrieval = ranked(cands, -1);
    if (relationLines(cands).isEmpty()) {
      return new GeneratedAnswer(null, retrieval, List.of());
    }
    String reply;
    try {
      reply = client.complete(prompt == null ? messages(question, cands) : prompt.messages(question, cands, relationLines(cands)));
    } catch (LlmException e) {
      throw QaException.endpointFailed(e);
    }

    List<String> tries = answerForms(reply);
    for (String t : tries) {
      if (isUnable(t)) {
        return new GeneratedAnswer(null, retrieval, List.of());
      }
    }
    Map<String, Integer> byLabel = new HashMap<>();
    for (int i = 0; i < cands.size(); i++) {
      byLabel.putIfAbsent(Labels.normalize(cands.get(i).label()), i);
    }
    for (String t : tries) {
      Integer i = t.isEmpty() ? null : byLabel.get(t);
      if (i != null) {
        Candidate c = cands.get(i);
        return new GeneratedAnswer(c.label(), ranked(cands, i), c.evidence());
      }
    }
    unmatched.incrementAndGet();
    Candidate top = cands.get(0);
    return new GeneratedAnswer(label(top.label(), top.entityId()), retrieval, top.evidence());
  }

  /** Replies so far that named no candidate and were replaced by the top candidate. */
  public long unmatchedReplies() {
    return unmatched.get();
  }

  @Override
  public String toString() {
    return "LlmAnswerGenerator{model="
        + client.model()
        + ", maxCandidates="
        + maxCandidates
        + ", maxEdges="
        + maxEdges
        + "}";
  }

  // ---------------------------------------------------------------------------------------------------

  /** Whether a normalised form of a reply ({@link #answerForms}) says the answer cannot be determined. */
  static boolean isUnable(String form) {
    for (String u : UNABLE) {
      if (form.startsWith(u)) {
        return true;
      }
    }
    return false;
  }

  /** The normalised forms of the reply's answer to try, longest first, distinct. */
  static List<String> answerForms(String reply) {
    String text = reply.replaceAll("(?is)<think>.*?</think>", " ").strip();
    String line = null;
    Matcher m = ANSWER_PREFIX.matcher(text);
    if (m.find()) {
      String rest = text.substring(m.end()).strip();
      int nl = rest.indexOf('\n');
      line = nl < 0 ? rest : rest.substring(0, nl);
    } else {
      for (String l : text.split("\\R")) {
        if (!l.isBlank()) {
          line = l;
          break;
        }
      }
    }
    if (line == null) {
      return List.of();
    }
    Set<String> forms = new LinkedHashSet<>();
    forms.add(Labels.normalize(line));
    Matcher r = REASONING.matcher(line);
    String cut = r.find() ? line.substring(0, r.start()) : line;
    forms.add(Labels.normalize(cut));
    Matcher s = SENTENCE_END.matcher(cut);
    if (s.find()) {
      forms.add(Labels.normalize(cut.substring(0, s.start())));
    }
    forms.remove("");
    return new ArrayList<>(forms);
  }

  /** The candidates as ranked answers: {@code first} (when >= 0) first, the rest in retrieval order. */
  private static List<RankedAnswer> ranked(List<Candidate> cands, int first) {
    List<RankedAnswer> out = new ArrayList<>(cands.size());
    if (first >= 0) {
      Candidate c = cands.get(first);
      out.add(new RankedAnswer(c.label(), c.entityId(), c.score()));
    }
    for (int i = 0; i < cands.size(); i++) {
      if (i != first) {
        Candidate c = cands.get(i);
        out.add(new RankedAnswer(c.label(), c.entityId(), c.score()));
      }
    }
    return out;
  }

  private static String label(String label, long id) {
    return label == null || label.isBlank() ? "entity " + id : label;
  }
}
