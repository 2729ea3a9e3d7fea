package io.kgrag.core.sql;

import io.kgrag.core.llm.ReplyText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL as text, shared by every reader of model-written SQL (QAFD-RAG's text-to-SQL, SRAG's SQL writer) and by the
 * read-only checks that run it: the SQL of a reply, and its statements.
 */
public final class SqlText {
  private static final Pattern FENCE = Pattern.compile("```[ \\t]*([A-Za-z0-9_-]*)[ \\t]*\\R?(.*?)```", Pattern.DOTALL);
  private static final Pattern STATEMENT_START =
      Pattern.compile(
          "(?im)^[ \\t]*(SELECT|WITH|FROM|VALUES|TABLE|INSERT|UPDATE|DELETE|MERGE|CREATE|DROP|ALTER|TRUNCATE|REPLACE|SET|RESET|USE|"
              + "SHOW|DESCRIBE|DESC|EXPLAIN|CACHE|UNCACHE|CLEAR|REFRESH|ANALYZE|MSCK|LOAD|ADD|LIST|GRANT|REVOKE|OPTIMIZE|VACUUM|"
              + "RESTORE|CONVERT|COPY|CALL)\\b");

  private SqlText() {}

  /**
   * The SQL of a model's reply: {@code <think>} blocks dropped ({@link ReplyText#withoutThinking}); the first
   * fenced block ({@code ```sql}, or any {@code ```}) is the SQL; without a fence, the SQL starts at the first
   * line that begins with an SQL keyword, in any case, and does not end with a colon (so leading prose such as
   * "Here is the query:" is skipped; statements other than SELECT are kept, for the caller to refuse), else it
   * is the whole reply. Trailing semicolons and whitespace are removed.
   */
  public static String ofReply(String reply) {
    String text = ReplyText.withoutThinking(Objects.requireNonNull(reply, "reply")).strip();
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
