package io.kgrag.core.qafd.sql;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks an LLM for the SQL that answers a question, given the schema summary and the highest-reward join
 * paths (the role of the paper's SQL-Agent, Prompt 6, reduced to one request: "combine these
 * highest-reward paths into a SINGLE comprehensive SQL query"), and once more to repair a query that
 * failed. Prompts: {@value #PROMPT_RESOURCE} ({@code {{QUERY}}}, {@code {{SCHEMA_SUMMARY}}},
 * {@code {{JOIN_PATHS}}}) and {@value #REPAIR_RESOURCE} ({@code {{SQL}}}, {@code {{ERROR}}}), next to this
 * class. A repair is the same conversation continued: the first prompt, the model's reply, then the repair
 * prompt.
 *
 * <p><b>Reading the reply</b> ({@link #extractSql}): {@code <think>} blocks are dropped; the first fenced
 * block ({@code ```sql}, or any {@code ```}) is the SQL; without a fence, the SQL starts at the first line
 * that begins with an SQL keyword, in any case, and does not end with a colon (so leading prose such as "Here is the query:" is skipped; statements
 * other than SELECT are kept, for the caller to refuse), else it is the whole reply. Trailing semicolons
 * and whitespace are removed.
 *
 * <p>{@link #statements} splits SQL on semicolons outside quotes and comments, so a caller can refuse
 * more than one statement.
 */
public final class SqlWriter {
  public static final String PROMPT_RESOURCE = "sql-prompt.txt";
  public static final String REPAIR_RESOURCE = "sql-repair-prompt.txt";

  private static final String TEMPLATE = Templates.load(PROMPT_RESOURCE, "QUERY", "SCHEMA_SUMMARY", "JOIN_PATHS");
  private static final String REPAIR = Templates.load(REPAIR_RESOURCE, "SQL", "ERROR");
  private static final Pattern FENCE = Pattern.compile("```[ \\t]*([A-Za-z0-9_-]*)[ \\t]*\\R?(.*?)```", Pattern.DOTALL);
  private static final Pattern STATEMENT_START =
      Pattern.compile(
          "(?im)^[ \\t]*(SELECT|WITH|FROM|VALUES|TABLE|INSERT|UPDATE|DELETE|MERGE|CREATE|DROP|ALTER|TRUNCATE|REPLACE|SET|RESET|USE|"
              + "SHOW|DESCRIBE|DESC|EXPLAIN|CACHE|UNCACHE|CLEAR|REFRESH|ANALYZE|MSCK|LOAD|ADD|LIST|GRANT|REVOKE|OPTIMIZE|VACUUM|"
              + "RESTORE|CONVERT|COPY|CALL)\\b");

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
    return new Attempt(m, reply, extractSql(reply));
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
    return new Attempt(m, reply, extractSql(reply));
  }

  /** The conversation {@link #repair} sends. */
  public static List<ChatMessage> repairMessages(Attempt failed, String error) {
    List<ChatMessage> m = new ArrayList<>(failed.messages());
    m.add(ChatMessage.assistant(failed.reply().isBlank() ? "(empty reply)" : failed.reply()));
    m.add(ChatMessage.user(Templates.fill(REPAIR, Map.of("SQL", failed.sql(), "ERROR", error.strip()))));
    return m;
  }

  /** The SQL of a reply (see the class comment). */
  public static String extractSql(String reply) {
    String text = Templates.withoutThinking(Objects.requireNonNull(reply, "reply"));
    Matcher fence = FENCE.matcher(text);
    String sql = null;
    while (fence.find()) {
      String lang = fence.group(1).toLowerCase(Locale.ROOT);
      if (lang.isEmpty() || lang.equals("sql") || lang.equals("sparksql") || lang.equals("spark-sql")) {
        sql = fence.group(2);
        break;
      }
    }
    if (sql == null) {
      sql = text;
      Matcher start = STATEMENT_START.matcher(text);
      while (start.find()) {
        int eol = text.indexOf('\n', start.start());
        if (!text.substring(start.start(), eol < 0 ? text.length() : eol).strip().endsWith(":")) {
          sql = text.substring(start.start());
          break;
        }
      }
    }
    return sql.strip().replaceAll("[;\\s]+$", "");
  }

  /** The non-blank statements of {@code sql}, split on semicolons outside quotes and comments. */
  public static List<String> statements(String sql) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    int n = sql.length();
    for (int i = 0; i < n; i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"' || c == '`') {
        int j = i + 1;
        while (j < n && sql.charAt(j) != c) {
          j += sql.charAt(j) == '\\' && c != '`' ? 2 : 1;
        }
        int end = Math.min(j + 1, n);
        cur.append(sql, i, end);
        i = end - 1;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int j = sql.indexOf('\n', i);
        int end = j < 0 ? n : j;
        cur.append(sql, i, end);
        i = end - 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int j = sql.indexOf("*/", i + 2);
        int end = j < 0 ? n : j + 2;
        cur.append(sql, i, end);
        i = end - 1;
      } else if (c == ';') {
        add(out, cur);
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    add(out, cur);
    return out;
  }

  private static void add(List<String> out, StringBuilder s) {
    String t = s.toString().strip();
    if (!t.isEmpty() && !t.replaceAll("(?s)--[^\\n]*|/\\*.*?\\*/", "").isBlank()) {
      out.add(t);
    }
  }
}
