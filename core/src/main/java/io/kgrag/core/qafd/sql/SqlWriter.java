package io.kgrag.core.qafd.sql;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.sql.SqlText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Asks an LLM for the SQL that answers a question, given the schema summary and the highest-reward join
 * paths (the role of the paper's SQL-Agent, Prompt 6, reduced to one request: "combine these
 * highest-reward paths into a SINGLE comprehensive SQL query"), and once more to repair a query that
 * failed. Prompts: {@value #PROMPT_RESOURCE} ({@code {{QUERY}}}, {@code {{SCHEMA_SUMMARY}}},
 * {@code {{JOIN_PATHS}}}) and {@value #REPAIR_RESOURCE} ({@code {{SQL}}}, {@code {{ERROR}}}), next to this
 * class. A repair is the same conversation continued: the first prompt, the model's reply, then the repair
 * prompt.
 *
 * <p><b>Reading the reply</b> ({@link SqlText#ofReply}): {@code <think>} blocks are dropped; the first fenced
 * block ({@code ```sql}, or any {@code ```}) is the SQL; without a fence, the SQL starts at the first line
 * that begins with an SQL keyword, in any case, and does not end with a colon (so leading prose such as "Here is the query:" is skipped; statements
 * other than SELECT are kept, for the caller to refuse), else it is the whole reply. Trailing semicolons
 * and whitespace are removed.
 *
 * <p>{@link SqlText#statements} splits SQL on semicolons outside quotes and comments, so a caller can refuse
 * more than one statement.
 */
public final class SqlWriter {
  public static final String PROMPT_RESOURCE = "sql-prompt.txt";
  public static final String REPAIR_RESOURCE = "sql-repair-prompt.txt";

  private static final String TEMPLATE = Templates.load(PROMPT_RESOURCE, "QUERY", "SCHEMA_SUMMARY", "JOIN_PATHS");
  private static final String REPAIR = Templates.load(REPAIR_RESOURCE, "SQL", "ERROR");

  /** A conversation so far and the SQL read from its last reply. */
  public record Attempt(List<ChatMessage> messages, String reply, String sql) {
    public Attempt {
      messages = List.copyOf(messages);
    }
  }

  private final CachingChatClient client;

  public SqlWriter(CachingChatClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** The first prompt: the question, the schema summary and the join paths (one a line, best first). */
  public static List<ChatMessage> messages(String question, SchemaGraph schema, List<JoinPathFinder.JoinPath> paths) {
    return List.of(ChatMessage.user(Templates.fill(TEMPLATE, Map.of("QUERY", question.strip(), "SCHEMA_SUMMARY", schema.summary(), "JOIN_PATHS", describe(paths)))));
  }

  /** The join paths as the prompt shows them: {@code 1. a → b → c  (reward 0.8123)}, or "(none found)". */
  public static String describe(List<JoinPathFinder.JoinPath> paths) {
    if (paths.isEmpty()) {
      return "(none found)";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < paths.size(); i++) {
      JoinPathFinder.JoinPath p = paths.get(i);
      sb.append(i + 1).append(". ").append(p.describe()).append(String.format(Locale.ROOT, "  (reward %.4f)", p.reward()));
      if (!p.candidate().subquery().isEmpty()) {
        sb.append("  for: ").append(p.candidate().subquery());
      }
      sb.append('\n');
    }
    return sb.toString().stripTrailing();
  }

  /**
   * The first attempt.
   *
   * @throws LlmException when the endpoint failed
   */
  public Attempt write(String question, SchemaGraph schema, List<JoinPathFinder.JoinPath> paths) {
    List<ChatMessage> m = messages(question, schema, paths);
    String reply = client.complete(m);
    return new Attempt(m, reply, SqlText.ofReply(reply));
  }

  /**
   * The repair of a failed attempt: its conversation, its reply, then the repair prompt with the SQL and
   * the error.
   *
   * @throws LlmException when the endpoint failed
   */
  public Attempt repair(Attempt failed, String error) {
    List<ChatMessage> m = repairMessages(failed, error);
    String reply = client.complete(m);
    return new Attempt(m, reply, SqlText.ofReply(reply));
  }

  /** The conversation {@link #repair} sends. */
  public static List<ChatMessage> repairMessages(Attempt failed, String error) {
    List<ChatMessage> m = new ArrayList<>(failed.messages());
    m.add(ChatMessage.assistant(failed.reply().isBlank() ? "(empty reply)" : failed.reply()));
    m.add(ChatMessage.user(Templates.fill(REPAIR, Map.of("SQL", failed.sql(), "ERROR", error.strip()))));
    return m;
  }
}
