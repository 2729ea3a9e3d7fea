package io.kgrag.core.stem.llm;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.llm.LlmAnswerGenerator;
import io.kgrag.core.stem.ReasoningChains;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * STEM's answer generation (§3.6, eq. 16) with prompt P3 (Fig. 16, the resource {@code answer-prompt.txt}):
 * the knowledge structure graph is C_reason, the evidence edges of the first {@code maxCandidates}
 * candidates linearised by {@link ReasoningChains} into at most {@code maxLines} chains. Our one line
 * added to the figure's wording asks for one answer per line, best first, as the graph writes it, so
 * that {@link LlmAnswerGenerator} (which this plugs into, like QAFD-RAG's table prompt) matches the
 * reply's first answer back to a candidate; a reply naming no candidate falls back to the top one.
 *
 * <p>The chains start at the question entities: the evidence nodes whose label equals (by {@link
 * Labels#normalize}) the label of an entity node of the query graph (the schema graph G_sch); parts no
 * such node reaches start from their own first node. Thread-safe when its client is.
 */
public final class LlmChainAnswerGenerator implements AnswerGenerator {
  public static final String PROMPT_RESOURCE = "answer-prompt.txt";
  public static final int DEFAULT_MAX_CANDIDATES = 10;
  public static final int DEFAULT_MAX_LINES = 100;
  static final String PROMPT = PromptTemplates.requirePlaceholders(
      PromptTemplates.load(LlmChainAnswerGenerator.class, PROMPT_RESOURCE), "KNOWLEDGE_STRUCTURE_GRAPH", "QUESTION");

  private final CachingChatClient client;
  private final int maxCandidates;
  private final int maxLines;
  private final AtomicLong unmatched = new AtomicLong();

  public LlmChainAnswerGenerator(CachingChatClient client) {
    this(client, DEFAULT_MAX_CANDIDATES, DEFAULT_MAX_LINES);
  }

  /**
   * @param maxCandidates how many candidates, best first, contribute their evidence
   * @param maxLines how many chains the prompt holds at most
   */
  public LlmChainAnswerGenerator(CachingChatClient client, int maxCandidates, int maxLines) {
    this.client = Objects.requireNonNull(client, "client");
    if (maxCandidates < 1 || maxLines < 1) {
      throw new IllegalArgumentException("maxCandidates and maxLines must be >= 1, got " + maxCandidates + " and " + maxLines);
    }
    this.maxCandidates = maxCandidates;
    this.maxLines = maxLines;
  }

  /** The chains of the first {@code maxCandidates} candidates' evidence, from {@code startEntityIds}. */
  public List<String> chains(List<Candidate> candidates, Set<Long> startEntityIds) {
    List<EvidenceEdge> edges = new ArrayList<>();
    for (Candidate c : candidates.subList(0, Math.min(maxCandidates, candidates.size()))) {
      edges.addAll(c.evidence());
    }
    return ReasoningChains.chains(edges, startEntityIds, maxLines);
  }

  /** P3 for the question and the chains, as one user message. */
  public static List<ChatMessage> messages(String question, List<String> chains) {
    return List.of(ChatMessage.user(PromptTemplates.fill(PROMPT,
        Map.of("KNOWLEDGE_STRUCTURE_GRAPH", String.join("\n", chains), "QUESTION", question.strip()))));
  }

  /** The ids of the evidence nodes labelled as an entity node of {@code queryGraph} (none when it is null). */
  public static Set<Long> startEntities(QueryGraph queryGraph, List<Candidate> candidates) {
    Set<String> mentions = new HashSet<>();
    if (queryGraph != null) {
      for (QueryGraph.Node n : queryGraph.nodes()) {
        if (!n.unknown()) {
          mentions.add(Labels.normalize(n.label()));
        }
      }
    }
    Set<Long> ids = new LinkedHashSet<>();
    for (Candidate c : candidates) {
      for (EvidenceEdge e : c.evidence()) {
        if (mentions.contains(Labels.normalize(e.srcLabel()))) {
          ids.add(e.srcId());
        }
        if (mentions.contains(Labels.normalize(e.dstLabel()))) {
          ids.add(e.dstId());
        }
      }
    }
    return ids;
  }

  @Override
  public GeneratedAnswer generate(String question, QueryGraph queryGraph, List<Candidate> candidates) {
    List<Candidate> cands = candidates == null ? List.of() : candidates;
    Set<Long> starts = startEntities(queryGraph, cands);
    LlmAnswerGenerator reader = new LlmAnswerGenerator(
        client, maxCandidates, maxLines, (q, cs, relationLines) -> messages(q, chains(cs, starts)));
    GeneratedAnswer a = reader.generate(question, queryGraph, cands);
    unmatched.addAndGet(reader.unmatchedReplies());
    return a;
  }

  /** Replies so far that named no candidate and were replaced by the top candidate. */
  public long unmatchedReplies() {
    return unmatched.get();
  }

  @Override
  public String toString() {
    return "LlmChainAnswerGenerator{model=" + client.model() + ", maxCandidates=" + maxCandidates + ", maxLines=" + maxLines + "}";
  }
}
