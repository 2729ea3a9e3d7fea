package io.kgrag.core.qafd.llm;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.llm.LlmAnswerGenerator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * QAFD-RAG's answer generation through an LLM (PAPER Prompt 3, from PathRAG/LightRAG, in the resource
 * {@code answer-prompt.txt}). The paper does not say how the subgraph becomes {@code {context_data}};
 * here it is two tables in the LightRAG style: the entities (the candidates, best diffusion score first,
 * with their score) and the relationships (their evidence edges, one {@code src -- relation -> dst} line
 * each). {@code {response_type}} asks for one entity name of the tables or "Unable to determine", so the
 * reply is read as SG-RAG's LLM generator reads it ({@link LlmAnswerGenerator}): a candidate's label is the
 * answer; anything else falls back to the top candidate.
 */
public final class LlmTableAnswerGenerator implements AnswerGenerator {
  public static final String PROMPT_RESOURCE = "answer-prompt.txt";
  static final String RESPONSE_TYPE =
      "A single entity name copied exactly from the Entities table that answers the question, or \"Unable to determine\"; no explanation.";
  private static final String PROMPT =
      PromptTemplates.requirePlaceholders(PromptTemplates.load(LlmTableAnswerGenerator.class, PROMPT_RESOURCE), "RESPONSE_TYPE", "CONTEXT_DATA", "QUERY");

  private final LlmAnswerGenerator reader;

  public LlmTableAnswerGenerator(CachingChatClient client, int maxCandidates, int maxEdges) {
    this.reader = new LlmAnswerGenerator(client, maxCandidates, maxEdges, (q, cands, lines) -> messages(q, cands, lines, maxCandidates));
  }

  static List<ChatMessage> messages(String question, List<Candidate> candidates, List<String> relationLines, int maxCandidates) {
    StringBuilder data = new StringBuilder("-----Entities-----\nid,entity,score\n");
    int id = 0;
    for (Candidate c : candidates.subList(0, Math.min(maxCandidates, candidates.size()))) {
      data.append(id++).append(',').append(csv(c.label())).append(',').append(String.format(Locale.ROOT, "%.4g", c.score())).append('\n');
    }
    data.append("-----Relationships-----\n");
    for (String l : relationLines) {
      data.append(l).append('\n');
    }
    return List.of(ChatMessage.user(PromptTemplates.fill(PROMPT,
        Map.of("RESPONSE_TYPE", RESPONSE_TYPE, "CONTEXT_DATA", data.toString().stripTrailing(), "QUERY", question.strip()))));
  }

  private static String csv(String s) {
    return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }

  @Override
  public GeneratedAnswer generate(String question, QueryGraph queryGraph, List<Candidate> candidates) {
    return reader.generate(question, queryGraph, candidates);
  }
}
