package io.kgrag.core.srag.llm;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.sql.SqlText;
import io.kgrag.core.srag.AnswerRenderer;
import io.kgrag.core.srag.EntityTable;
import io.kgrag.core.srag.SqlBuilder;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SRAG's Executor through a prompted chat model (the paper's §4.3, Figure 1 c4: "We utilize GPT-4 to
 * generate SQL according to the question … we include relevant information in the prompt, such as the
 * table schema and data samples"): one read-only Spark SQL query over a question's {@link EntityTable},
 * registered by the caller as a view.
 *
 * <p><b>The prompt</b> is the resource {@value #PROMPT_RESOURCE} (the paper does not give its SQL prompt,
 * so the wording is ours): the question, the view's name and row count, its schema ({@link #schema}: each
 * column with its Spark SQL type, {@code entity STRING}, {@code entity_id BIGINT}, INTEGER as BIGINT,
 * DECIMAL as DOUBLE, TEXT as STRING, a multi-valued column as {@code ARRAY<…>} of those), its first rows
 * ({@link #sample}), and the rules: Spark SQL, one read-only SELECT or WITH query over that view only,
 * array columns through {@code array_contains}, {@code size} and {@code explode}, the answer returned
 * directly (one value, one column of entities, (value, count) rows for a distribution, 'yes' or 'no', the
 * winning value or 'equal'), and the statistics the embedded {@link SqlBuilder} computes, with its {@link
 * SqlBuilder.Config} thresholds: normality by Jarque–Bera from {@code skewness()} and {@code kurtosis()}
 * at the 5 % level, correlation by |{@code corr}| at or above the threshold, variance by {@code var_samp}.
 * It ends with the paper's output-control suffix (A.3.1), "{ }" read as "the SQL query".
 *
 * <p><b>Reading a reply</b> ({@link #read}), strictly: think blocks are dropped; the SQL is the first
 * fenced block whose language is blank, {@code sql}, {@code sparksql}, {@code spark-sql} or {@code spark}
 * (a fence left open runs to the end), else the whole reply; trailing semicolons are dropped. It must be
 * exactly one statement ({@link SqlText#statements}), start with SELECT or WITH in any case once leading
 * comments are skipped (so prose before bare SQL is refused), name none of INSERT, UPDATE, DELETE, MERGE,
 * DROP, CREATE, ALTER, TRUNCATE outside quotes, back-quotes and comments, and name the view. The
 * statement is returned as written.
 *
 * <p><b>Retries</b>: {@link #write} answers an unreadable reply with a follow-up user message naming what
 * was wrong and asks again, up to {@code retries} times, then the question is {@link AnswerStatus#UNABLE}:
 * "no usable SQL from MODEL after N requests: WHAT: REPLY". {@link #repair} is one request: the first
 * prompt, the failed SQL as the model's reply, then Spark's error (at most {@value #MAX_ERROR}
 * characters); an unreadable reply is UNABLE ("no usable SQL repair … after 1 request"). The caller runs
 * the SQL and decides whether to repair once. A blank question is INVALID_INPUT; an endpoint failure is
 * ERROR ({@link QaException#endpointFailed}). Requests go through the client's cache, so the same
 * question over the same table costs nothing the second time. Thread-safe when its client is.
 */
public final class LlmSqlWriter {
  public static final String PROMPT_RESOURCE = "sql-prompt.txt";
  public static final int DEFAULT_RETRIES = 5;
  public static final int DEFAULT_SAMPLE_ROWS = 5;
  /** The most characters of one sample cell. */
  public static final int MAX_CELL = 60;
  /** The most characters of Spark's error a repair sends. */
  public static final int MAX_ERROR = 2000;
  /** The most values of an array cell a sample row shows. */
  public static final int MAX_ITEMS = 5;

  static final String PROMPT = PromptTemplates.requirePlaceholders(PromptTemplates.load(LlmSqlWriter.class, PROMPT_RESOURCE),
      "QUESTION", "VIEW", "ROW_COUNT", "SCHEMA", "SAMPLE", "NORMALITY_CRITICAL", "CORRELATION_THRESHOLD");
  static final String AGAIN = "Reply again with only one Spark SQL query that starts with SELECT or WITH and reads the table,"
      + " in a ```sql block or as bare text, and nothing else.";
  static final String REPAIR = "Spark could not run this query. Its error:\n{{ERROR}}\n\nWrite a corrected query that answers the"
      + " question and follows all the rules above. Just output the SQL query, no other word or symbol.";

  private static final Pattern FENCE = Pattern.compile("```[ \\t]*([A-Za-z0-9_-]*)[ \\t]*\\R?(.*?)```", Pattern.DOTALL);
  private static final Pattern OPEN_FENCE = Pattern.compile("(?m)^[ \\t]*```[ \\t]*([A-Za-z0-9_-]*)[ \\t]*$");
  private static final Pattern LEADING_COMMENTS = Pattern.compile("^(?:\\s+|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*", Pattern.DOTALL);
  private static final Pattern QUERY_START = Pattern.compile("(?i)(SELECT|WITH)\\b");
  private static final Pattern WRITES = Pattern.compile("(?i)\\b(INSERT|UPDATE|DELETE|MERGE|DROP|CREATE|ALTER|TRUNCATE)\\b");

  private final CachingChatClient client;
  private final SqlBuilder.Config config;
  private final int retries;

  /** With the embedded SQL's statistics thresholds ({@link SqlBuilder.Config#DEFAULT}) and {@value #DEFAULT_RETRIES} retries. */
  public LlmSqlWriter(CachingChatClient client) {
    this(client, SqlBuilder.Config.DEFAULT, DEFAULT_RETRIES);
  }

  /**
   * @param config the thresholds the prompt states for normality and correlation
   * @param retries how many times an unreadable reply is asked again (>= 0)
   */
  public LlmSqlWriter(CachingChatClient client, SqlBuilder.Config config, int retries) {
    this.client = Objects.requireNonNull(client, "client");
    this.config = Objects.requireNonNull(config, "config");
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be >= 0, got " + retries);
    }
    this.retries = retries;
  }

  /** The prompt: the filled template as one user message (see the class comment). */
  public List<ChatMessage> messages(String question, String view, EntityTable table, int sampleRows) {
    Objects.requireNonNull(table, "table");
    if (view == null || view.isBlank()) {
      throw new IllegalArgumentException("the view needs a name");
    }
    if (sampleRows < 0) {
      throw new IllegalArgumentException("sampleRows must be >= 0, got " + sampleRows);
    }
    int n = table.rows().size();
    return List.of(ChatMessage.user(PromptTemplates.fill(PROMPT, Map.of(
        "QUESTION", question.strip(),
        "VIEW", view.strip(),
        "ROW_COUNT", n + (n == 1 ? " row" : " rows"),
        "SCHEMA", schema(table),
        "SAMPLE", sample(table, sampleRows),
        "NORMALITY_CRITICAL", number(config.normalityCritical()),
        "CORRELATION_THRESHOLD", number(config.correlationThreshold())))));
  }

  /** What {@link #repair} sends: the prompt, the failed SQL as the model's reply, then Spark's error. */
  public List<ChatMessage> repairMessages(String question, String view, EntityTable table, int sampleRows, String failedSql, String error) {
    Objects.requireNonNull(failedSql, "failedSql");
    List<ChatMessage> m = new ArrayList<>(messages(question, view, table, sampleRows));
    m.add(ChatMessage.assistant("```sql\n" + failedSql.strip() + "\n```"));
    String e = error == null || error.isBlank() ? "(no message)" : error.strip();
    if (e.length() > MAX_ERROR) {
      e = e.substring(0, MAX_ERROR) + "…";
    }
    m.add(ChatMessage.user(PromptTemplates.fill(REPAIR, Map.of("ERROR", e))));
    return m;
  }

  /**
   * The query answering {@code question} over {@code table}, registered as {@code view}.
   *
   * @param sampleRows how many of the table's first rows the prompt shows ({@value #DEFAULT_SAMPLE_ROWS} by
   *     the paper's "data samples"; 0 for none)
   * @throws QaException UNABLE when no reply is usable after the retries, ERROR when the endpoint failed
   */
  public String write(String question, String view, EntityTable table, int sampleRows) {
    requireQuestion(question);
    List<ChatMessage> conversation = new ArrayList<>(messages(question, view, table, sampleRows));
    String reply = "";
    String problem = "";
    for (int attempt = 0; attempt <= retries; attempt++) {
      reply = Replies.ask(client, conversation);
      try {
        return read(reply, view.strip());
      } catch (UnusableReply e) {
        problem = e.getMessage();
        conversation.add(ChatMessage.assistant(reply.isBlank() ? "(empty reply)" : reply));
        conversation.add(ChatMessage.user(Replies.COULD_NOT_BE_USED + problem + ". " + AGAIN));
      }
    }
    throw Replies.unable("SQL", client.model(), retries + 1, problem, reply);
  }

  /**
   * A corrected query after {@code failedSql} failed in Spark with {@code error}: one request (see the class
   * comment).
   *
   * @throws QaException UNABLE when the reply is not usable, ERROR when the endpoint failed
   */
  public String repair(String question, String view, EntityTable table, int sampleRows, String failedSql, String error) {
    requireQuestion(question);
    String reply = Replies.ask(client, repairMessages(question, view, table, sampleRows, failedSql, error));
    try {
      return read(reply, view.strip());
    } catch (UnusableReply e) {
      throw Replies.unable("SQL repair", client.model(), 1, e.getMessage(), reply);
    }
  }

  // ---- reading ------------------------------------------------------------------------------------

  /**
   * The query in {@code reply} (see the class comment).
   *
   * @throws UnusableReply saying what is wrong
   */
  public static String read(String reply, String view) {
    String text = Replies.withoutThinking(reply);
    String sql = fenced(text);
    sql = (sql == null ? text : sql).strip().replaceAll("[;\\s]+$", "");
    List<String> statements = SqlText.statements(sql);
    if (statements.isEmpty()) {
      throw new UnusableReply("the reply holds no SQL query");
    }
    if (statements.size() > 1) {
      throw new UnusableReply("the reply holds " + statements.size() + " statements; write exactly one query");
    }
    String statement = statements.get(0);
    Matcher lead = LEADING_COMMENTS.matcher(statement);
    String body = lead.lookingAt() ? statement.substring(lead.end()) : statement;
    if (!QUERY_START.matcher(body).lookingAt()) {
      String first = body.split("\\s+", 2)[0];
      throw new UnusableReply("the query starts with '" + (first.length() > 24 ? first.substring(0, 24) + "…" : first) + "', not SELECT or WITH");
    }
    String plain = scrub(statement);
    Matcher w = WRITES.matcher(plain.replaceAll("`[^`]*`", " "));
    if (w.find()) {
      throw new UnusableReply("the query contains " + w.group(1).toUpperCase(Locale.ROOT) + "; only a read-only SELECT is allowed");
    }
    String unquoted = plain.replace("`", "");
    if (!Pattern.compile("(?i)(?<![\\w])" + Pattern.quote(view) + "(?![\\w])").matcher(unquoted).find()) {
      throw new UnusableReply("the query does not read the table " + view);
    }
    return statement;
  }

  /** The SQL of the first SQL fence (an open one runs to the end), or null when there is none. */
  private static String fenced(String text) {
    Matcher f = FENCE.matcher(text);
    while (f.find()) {
      if (sqlLanguage(f.group(1))) {
        return f.group(2);
      }
    }
    Matcher open = OPEN_FENCE.matcher(text);
    if (open.find() && sqlLanguage(open.group(1)) && text.indexOf("```", open.end()) < 0) {
      return text.substring(open.end());
    }
    return null;
  }

  private static boolean sqlLanguage(String lang) {
    String l = lang.toLowerCase(Locale.ROOT);
    return l.isEmpty() || l.equals("sql") || l.equals("sparksql") || l.equals("spark-sql") || l.equals("spark");
  }

  /** The SQL with string literals and comments made spaces; back-quoted names are kept with their quotes. */
  static String scrub(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    int n = sql.length();
    for (int i = 0; i < n; i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        int j = i + 1;
        while (j < n && sql.charAt(j) != c) {
          j += sql.charAt(j) == '\\' ? 2 : 1;
        }
        out.append(' ');
        i = Math.min(j, n);
      } else if (c == '`') {
        int j = sql.indexOf('`', i + 1);
        int end = j < 0 ? n : j + 1;
        out.append(sql, i, end);
        i = end - 1;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int j = sql.indexOf('\n', i);
        out.append(' ');
        i = j < 0 ? n : j - 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int j = sql.indexOf("*/", i + 2);
        out.append(' ');
        i = j < 0 ? n : j + 1;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  // ---- the table in the prompt --------------------------------------------------------------------

  /**
   * The table's columns, one a line: {@code name TYPE  -- what it holds}, {@code entity} and {@code
   * entity_id} first.
   */
  public static String schema(EntityTable table) {
    StringBuilder b = new StringBuilder();
    b.append(EntityTable.ENTITY).append(" STRING  -- the entity's name\n");
    b.append(EntityTable.ENTITY_ID).append(" BIGINT  -- the entity's id\n");
    for (EntityTable.Column c : table.columns()) {
      b.append(c.name()).append(' ').append(sqlType(c)).append("  -- ");
      if (c.property().outgoing()) {
        b.append(c.multi() ? "the values of " : "the value of ").append(c.property().relation()).append(" for the entity");
      } else {
        b.append("the entities whose ").append(c.property().relation()).append(" is the entity");
      }
      b.append('\n');
    }
    return b.toString().stripTrailing();
  }

  /** A column's Spark SQL type: BIGINT, DOUBLE or STRING by kind, in an {@code ARRAY<…>} when multi-valued. */
  public static String sqlType(EntityTable.Column c) {
    String t = switch (c.kind()) {
      case INTEGER -> "BIGINT";
      case DECIMAL -> "DOUBLE";
      case TEXT -> "STRING";
    };
    return c.multi() ? "ARRAY<" + t + ">" : t;
  }

  /**
   * The table's first {@code rows} rows as the prompt shows them: a header line of column names, then one
   * line per row, cells joined by {@code " | "}; NULL for none, arrays in brackets with at most {@value
   * #MAX_ITEMS} values, text cut at {@value #MAX_CELL} characters. "(no rows shown)" when there are none.
   */
  public static String sample(EntityTable table, int rows) {
    int n = Math.min(Math.max(rows, 0), table.rows().size());
    if (n == 0) {
      return "(no rows shown)";
    }
    StringBuilder b = new StringBuilder("Its first ").append(n).append(n == 1 ? " row:\n" : " rows:\n");
    List<String> header = new ArrayList<>(List.of(EntityTable.ENTITY, EntityTable.ENTITY_ID));
    table.columns().forEach(c -> header.add(c.name()));
    b.append(String.join(" | ", header));
    for (EntityTable.Row r : table.rows().subList(0, n)) {
      List<String> cells = new ArrayList<>();
      cells.add(cell(r.entity()));
      cells.add(Long.toString(r.entityId()));
      r.cells().forEach(v -> cells.add(cell(v)));
      b.append('\n').append(String.join(" | ", cells));
    }
    return b.toString();
  }

  private static String cell(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof List<?> list) {
      List<String> items = new ArrayList<>();
      for (int i = 0; i < list.size() && i < MAX_ITEMS; i++) {
        items.add(cell(list.get(i)));
      }
      if (list.size() > MAX_ITEMS) {
        items.add("… " + (list.size() - MAX_ITEMS) + " more");
      }
      return "[" + String.join(", ", items) + "]";
    }
    if (v instanceof Double d) {
      return AnswerRenderer.number(d);
    }
    String s = v.toString().replaceAll("\\s+", " ");
    return s.length() > MAX_CELL ? s.substring(0, MAX_CELL) + "…" : s;
  }

  private static String number(double d) {
    return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  private static void requireQuestion(String question) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
  }

  @Override
  public String toString() {
    return "LlmSqlWriter{model=" + client.model() + ", retries=" + retries + "}";
  }
}
