package io.kgrag.core.qafd.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.llm.ReplyText;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.llm.QuestionPrompt;
import io.kgrag.core.qafd.Keywords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * QAFD-RAG's keyword extraction through an LLM (PAPER Prompt 2, from PathRAG, kept in the resource
 * {@code keyword-prompt.txt} with the query appended as {@code {{QUERY}}}): the reply is a JSON object
 * with {@code high_level_keywords} and {@code low_level_keywords} arrays of strings.
 *
 * <p><b>Reading the reply.</b> A {@code <think>} block and a markdown fence are ignored; the first
 * {@code { … }} that parses as JSON and has at least one of the two keys is used; non-string items and
 * blank strings are skipped. A reply with neither key, or with no keyword at all, is an
 * {@link AnswerStatus#ERROR} ("unparseable reply from MODEL: …"); an endpoint failure is an ERROR naming
 * its kind, never the key. Thread-safe when its client is.
 */
public final class LlmKeywordExtractor {
  public static final String PROMPT_RESOURCE = "keyword-prompt.txt";
  private static final String PROMPT = PromptTemplates.requirePlaceholders(PromptTemplates.load(LlmKeywordExtractor.class, PROMPT_RESOURCE), "QUERY");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SNIPPET = 200;

  private final CachingChatClient client;

  public LlmKeywordExtractor(CachingChatClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  public List<ChatMessage> messages(String question) {
    return List.of(ChatMessage.user(PromptTemplates.fill(PROMPT, Map.of("QUERY", question.strip()))));
  }

  public Keywords extract(String question) {
    String reply = QuestionPrompt.reply(client, question, this::messages);
    return read(reply, client.model());
  }

  /** The keywords of a reply (see the class comment). */
  public static Keywords read(String reply, String model) {
    String text = ReplyText.withoutThinking(reply);
    for (int open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
      int depth = 0;
      for (int i = open; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '{') {
          depth++;
        } else if (c == '}' && --depth == 0) {
          JsonNode n;
          try {
            n = JSON.readTree(text.substring(open, i + 1));
          } catch (Exception e) {
            break;
          }
          if (n != null && n.isObject() && (n.has("high_level_keywords") || n.has("low_level_keywords"))) {
            Keywords k = new Keywords(strings(n.get("high_level_keywords")), strings(n.get("low_level_keywords")));
            if (k.isEmpty()) {
              throw unparseable(model, "no keyword in the reply", reply);
            }
            return k;
          }
          break;
        }
      }
    }
    throw unparseable(model, "no JSON object with high_level_keywords or low_level_keywords", reply);
  }

  private static List<String> strings(JsonNode n) {
    List<String> out = new ArrayList<>();
    if (n != null && n.isArray()) {
      for (JsonNode item : n) {
        if (item.isTextual() && !item.asText().isBlank()) {
          out.add(item.asText().strip());
        }
      }
    }
    return out;
  }

  private static QaException unparseable(String model, String what, String reply) {
    String s = reply == null ? "" : reply.strip().replaceAll("\\s+", " ");
    return new QaException(AnswerStatus.ERROR, "unparseable reply from " + model + ": " + what + ": " + (s.length() > SNIPPET ? s.substring(0, SNIPPET) + "…" : s));
  }
}
