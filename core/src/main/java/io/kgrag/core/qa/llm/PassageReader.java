package io.kgrag.core.qa.llm;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.RankedAnswer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The answer over a graph built from text, read by an LLM from the question's top passages: the reading step of
 * retrieve-then-read RAG (HippoRAG's QA reader gets the top retrieved passages, each with its title). The prompt
 * holds the first {@code maxPassages} passages, in rank order, each as its title and text (cut to {@code
 * maxChars}), the method's candidate answers from the graph (a hint, said to possibly be wrong) and the question;
 * the model replies with a short answer as written in the passages, or "Unable to determine".
 *
 * <p><b>Reading the reply</b> (the reply's forms as {@link LlmAnswerGenerator} reads them, {@link
 * LlmAnswerGenerator#answerForms}):
 *
 * <ul>
 *   <li>"unable to determine" (or "cannot be determined"): {@link Reading#unable()}, no answer;
 *   <li>a candidate's label (normalised): that candidate, in the graph's spelling;
 *   <li>else a form that occurs in a passage given (normalised text, on word boundaries): that text as the
 *       answer, with the passage it was found in;
 *   <li>anything else (a name the passages do not hold): not accepted ({@link Reading#unmatched()}), the method's
 *       answer stands.
 * </ul>
 *
 * With no passage there is nothing to read: no request is sent and the reading is unable. Thread-safe when its
 * client is.
 */
public final class PassageReader {
  public static final int DEFAULT_MAX_PASSAGES = 5;
  public static final int DEFAULT_MAX_CHARS = 2000;
  /** Candidates listed in the prompt at most. */
  static final int MAX_CANDIDATES = 10;

  static final String SYSTEM_PROMPT =
      "Answer the question from the passages below; each passage starts with the title of its document.\n"
          + "Reply with the answer only: a short phrase (a name, a date, a number, yes or no) written exactly as in the"
          + " passages, without explanation. If the passages do not answer the question, reply \"Unable to determine\".";

  /** A passage as the reader sees it: its chunk, its document's title (may be null) and its text. */
  public record Passage(long chunkId, String title, String text) {
    public Passage {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * What the reply said.
   *
   * @param answer the answer (a candidate's label, or the reply's text found in a passage); null when unable or
   *     unmatched
   * @param candidate the index of the candidate it names, or -1
   * @param chunkId the chunk of the passage the answer was found in, or -1 (a candidate, or no answer)
   * @param unable the model said the passages do not answer the question (or there was no passage)
   * @param unmatched the reply named neither a candidate nor a text of the passages
   */
  public record Reading(String answer, int candidate, long chunkId, boolean unable, boolean unmatched) {
    static final Reading UNABLE = new Reading(null, -1, -1, true, false);
    static final Reading UNMATCHED = new Reading(null, -1, -1, false, true);
  }

  /**
   * A method's answer to a question as its answers row holds it.
   *
   * @param ranked the ranking ({@link RankedAnswer#entityId()} {@link Long#MIN_VALUE} for none, score NaN for none)
   */
  public record MethodAnswer(String answer, List<RankedAnswer> ranked, List<EvidenceEdge> evidence, AnswerStatus status, String reason) {
    public MethodAnswer {
      ranked = List.copyOf(ranked);
      evidence = List.copyOf(evidence);
      Objects.requireNonNull(status, "status");
    }
  }

  /** The reason of an answer whose reply named nothing of its passages: the method's answer stands. */
  public static final String UNMATCHED_REASON = "the LLM's reply named nothing of the top passages; the method's answer stands";

  private final CachingChatClient client;
  private final int maxPassages;
  private final int maxChars;

  public PassageReader(CachingChatClient client) {
    this(client, DEFAULT_MAX_PASSAGES, DEFAULT_MAX_CHARS);
  }

  /**
   * @param maxPassages how many passages, best first, the prompt holds
   * @param maxChars how many characters of a passage's text the prompt holds at most
   */
  public PassageReader(CachingChatClient client, int maxPassages, int maxChars) {
    this.client = Objects.requireNonNull(client, "client");
    if (maxPassages < 1 || maxChars < 1) {
      throw new IllegalArgumentException("maxPassages and maxChars must be >= 1, got " + maxPassages + " and " + maxChars);
    }
    this.maxPassages = maxPassages;
    this.maxChars = maxChars;
  }

  /** The request: the instruction, then the passages, the candidates and the question. */
  public List<ChatMessage> messages(String question, List<Passage> passages, List<String> candidates) {
    StringBuilder user = new StringBuilder();
    List<Passage> read = passages.subList(0, Math.min(maxPassages, passages.size()));
    for (int i = 0; i < read.size(); i++) {
      Passage p = read.get(i);
      String text = p.text().strip();
      if (text.length() > maxChars) {
        text = text.substring(0, maxChars) + " …";
      }
      user.append("Passage ").append(i + 1).append(" — ").append(p.title() == null || p.title().isBlank() ? "(untitled)" : p.title().strip())
          .append('\n').append(text).append("\n\n");
    }
    List<String> listed = new ArrayList<>();
    for (String c : candidates) {
      if (c != null && !c.isBlank() && !listed.contains(c) && listed.size() < MAX_CANDIDATES) {
        listed.add(c);
      }
    }
    if (!listed.isEmpty()) {
      user.append("Candidate answers found in the knowledge graph (they may be wrong): ").append(String.join("; ", listed)).append("\n\n");
    }
    user.append("Question: ").append(question.strip()).append("\nAnswer:");
    return List.of(ChatMessage.system(SYSTEM_PROMPT), ChatMessage.user(user.toString()));
  }

  /**
   * Reads the question's answer from {@code passages} (rank order) with the method's {@code candidates} (labels,
   * rank order; may be empty).
   *
   * @throws QaException {@link AnswerStatus#INVALID_INPUT} for a blank question, {@link AnswerStatus#ERROR} when the
   *     endpoint fails
   */
  public Reading read(String question, List<Passage> passages, List<String> candidates) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    if (passages.isEmpty()) {
      return Reading.UNABLE;
    }
    String reply;
    try {
      reply = client.complete(messages(question, passages, candidates));
    } catch (LlmException e) {
      throw QaException.endpointFailed(e);
    }
    return reading(reply, passages.subList(0, Math.min(maxPassages, passages.size())), candidates);
  }

  /** The reply read against the passages given and the candidates (see the class comment). */
  static Reading reading(String reply, List<Passage> passages, List<String> candidates) {
    List<String> forms = LlmAnswerGenerator.answerForms(reply);
    for (String f : forms) {
      if (LlmAnswerGenerator.isUnable(f)) {
        return Reading.UNABLE;
      }
    }
    Map<String, Integer> byLabel = new HashMap<>();
    for (int i = 0; i < candidates.size(); i++) {
      if (candidates.get(i) != null) {
        byLabel.putIfAbsent(Labels.normalize(candidates.get(i)), i);
      }
    }
    for (String f : forms) {
      Integer i = byLabel.get(f);
      if (i != null) {
        return new Reading(candidates.get(i), i, -1, false, false);
      }
    }
    List<String> texts = new ArrayList<>();
    for (Passage p : passages) {
      texts.add(" " + Labels.normalize((p.title() == null ? "" : p.title() + " . ") + p.text()) + " ");
    }
    for (String f : forms) {
      for (int j = 0; j < texts.size(); j++) {
        if (texts.get(j).contains(" " + f + " ")) {
          return new Reading(answerText(reply, f), -1, passages.get(j).chunkId(), false, false);
        }
      }
    }
    return Reading.UNMATCHED;
  }

  /**
   * {@code method}'s answer as {@code reading} rewrites it: a candidate (index {@link Reading#candidate()} of the
   * method's ranking) goes first in the ranking, the rest in the method's order, keeping the evidence when it was the
   * method's answer and else the evidence edges that touch it; a span of a passage goes first with no entity id and no
   * score, without evidence edges, status {@link AnswerStatus#FALLBACK} (no verified subgraph binds it); unable is no
   * answer, status {@link AnswerStatus#UNABLE}, no evidence; unmatched keeps the method's answer with {@link
   * #UNMATCHED_REASON}.
   */
  public static MethodAnswer rewrite(MethodAnswer method, Reading reading) {
    if (reading.unable()) {
      return new MethodAnswer(null, method.ranked(), List.of(), AnswerStatus.UNABLE, "the LLM found no answer in the question's top passages");
    }
    if (reading.unmatched()) {
      return new MethodAnswer(method.answer(), method.ranked(), method.evidence(), method.status(), UNMATCHED_REASON);
    }
    List<RankedAnswer> ranked = new ArrayList<>(method.ranked().size() + 1);
    if (reading.candidate() < 0) {
      ranked.add(new RankedAnswer(reading.answer(), Long.MIN_VALUE, Double.NaN));
      ranked.addAll(method.ranked());
      return new MethodAnswer(reading.answer(), ranked, List.of(), AnswerStatus.FALLBACK,
          "read by the LLM from the top passages: found in chunk " + reading.chunkId());
    }
    RankedAnswer chosen = method.ranked().get(reading.candidate());
    ranked.add(chosen);
    for (int i = 0; i < method.ranked().size(); i++) {
      if (i != reading.candidate()) {
        ranked.add(method.ranked().get(i));
      }
    }
    List<EvidenceEdge> evidence = method.evidence();
    if (reading.candidate() > 0) {
      evidence = new ArrayList<>();
      for (EvidenceEdge e : method.evidence()) {
        if (e.srcId() == chosen.entityId() || e.dstId() == chosen.entityId()) {
          evidence.add(e);
        }
      }
    }
    return new MethodAnswer(reading.answer(), ranked, evidence, method.status(),
        "read by the LLM from the top passages: candidate " + (reading.candidate() + 1) + " of the method");
  }

  /** The reply's answer line cut to the form that matched, in the reply's own spelling where it can be found. */
  private static String answerText(String reply, String form) {
    for (String line : reply.replaceAll("(?is)<think>.*?</think>", " ").split("\\R")) {
      String l = line.replaceFirst("(?i)^.*?\\banswer\\b[*_\\s]*:", "").strip();
      if (Labels.normalize(l).equals(form)) {
        return l.replaceAll("^[\"'*_`\\[(]+|[\"'*_`\\])]+$|\\.$", "").strip();
      }
    }
    return form;
  }

  @Override
  public String toString() {
    return "PassageReader{model=" + client.model() + ", maxPassages=" + maxPassages + ", maxChars=" + maxChars + "}";
  }
}
