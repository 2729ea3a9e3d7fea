package io.kgrag.core.srag;

import io.kgrag.core.srag.EntityTable.Column;
import java.util.Locale;

/**
 * The embedded default's SQL (the paper's §4.3 Executor, without an LLM): one read-only Spark SQL query over
 * a question's entity table, built from the analysed operation. Every query returns the answer directly:
 * one value, one column of values (a set), or (value, count) rows for a distribution.
 *
 * <p>Statistics follow the usual tests, computed in SQL: normality by Jarque–Bera,
 * JB = n/6 · (S² + K²/4) with Spark's population skewness S and excess kurtosis K, against the χ²(2)
 * critical value of {@link Config#normalityCritical}; correlation by Pearson's r ({@code corr}) against
 * {@link Config#correlationThreshold}; variance by the sample variance ({@code var_samp}). A member with
 * several numbers in a measure's column (a film released in two years) counts with the smallest.
 */
public final class SqlBuilder {
  /**
   * @param correlationThreshold |r| at or above which two measures are "linearly related" (0.3: Cohen's
   *     medium effect)
   * @param normalityCritical the JB statistic below which a sample "follows a normal distribution" (5.991:
   *     χ²(2) at α = 0.05)
   */
  public record Config(double correlationThreshold, double normalityCritical) implements java.io.Serializable {
    public static final Config DEFAULT = new Config(0.3, 5.991);

    public Config {
      if (!(correlationThreshold > 0 && correlationThreshold < 1)) {
        throw new IllegalArgumentException("correlation threshold must be in (0, 1), got " + correlationThreshold);
      }
      if (!(normalityCritical > 0)) {
        throw new IllegalArgumentException("normality critical value must be > 0, got " + normalityCritical);
      }
    }
  }

  private final Config config;

  public SqlBuilder(Config config) {
    this.config = config;
  }

  /** The query answering {@code q} over {@code table}, registered as view {@code view}. */
  public String sql(SetQuery q, EntityTable table, String view) {
    String t = ident(view);
    String e = ident(EntityTable.ENTITY);
    return switch (q.operation()) {
      case AGGREGATION -> count(q, table, t);
      case DISTRIBUTION -> q.group() != null ? groupCounts(table.column(q.group()), t) + " ORDER BY n DESC, lower(CAST(value AS STRING)), value"
          : "SELECT " + measure(q.measure(), table) + " AS value, count(*) AS n FROM " + t + " WHERE " + measure(q.measure(), table)
              + " IS NOT NULL GROUP BY 1 ORDER BY n DESC, lower(CAST(value AS STRING)), value";
      case SUPERLATIVE -> q.group() != null
          ? "WITH g AS (" + groupCounts(table.column(q.group()), t) + ") SELECT value AS answer FROM g WHERE n = (SELECT " + (q.highest() ? "max" : "min")
              + "(n) FROM g) ORDER BY lower(CAST(value AS STRING)), value"
          : "SELECT " + e + " AS answer FROM " + t + " WHERE " + measure(q.measure(), table) + " = (SELECT " + (q.highest() ? "max" : "min") + "("
              + measure(q.measure(), table) + ") FROM " + t + ") ORDER BY lower(" + e + "), " + e;
      case INTERCOMPARISON -> {
        Column g = table.column(q.group());
        String a = literal(q.values().get(0));
        String b = literal(q.values().get(1));
        yield "SELECT CASE WHEN a > b THEN " + a + " WHEN b > a THEN " + b + " ELSE 'equal' END AS answer FROM (SELECT count_if(" + has(g, q.values().get(0))
            + ") AS a, count_if(" + has(g, q.values().get(1)) + ") AS b FROM " + t + ")";
      }
      case HYPOTHETICAL -> {
        Column g = table.column(q.group());
        yield "SELECT CASE WHEN a + " + q.k() + " > b THEN 'yes' ELSE 'no' END AS answer FROM (SELECT count_if(" + has(g, q.values().get(0)) + ") AS a, count_if("
            + has(g, q.values().get(1)) + ") AS b FROM " + t + ")";
      }
      case DISTRIBUTION_COMPLIANCE -> {
        String x = measure(q.measure(), table);
        yield "SELECT CASE WHEN count(" + x + ") < 3 OR var_pop(" + x + ") = 0 THEN NULL WHEN count(" + x + ") / 6.0 * (pow(skewness(" + x
            + "), 2) + pow(kurtosis(" + x + "), 2) / 4) < " + number(config.normalityCritical()) + " THEN 'yes' ELSE 'no' END AS answer FROM " + t;
      }
      case CORRELATION -> "SELECT CASE WHEN corr(x, y) IS NULL OR isnan(corr(x, y)) THEN NULL WHEN abs(corr(x, y)) >= "
          + number(config.correlationThreshold()) + " THEN 'yes' ELSE 'no' END AS answer FROM (SELECT CAST(" + measure(q.measure(), table)
          + " AS DOUBLE) AS x, CAST(" + measure(q.measure2(), table) + " AS DOUBLE) AS y FROM " + t + ")";
      case VARIANCE -> {
        Column g = table.column(q.group());
        String x = measure(q.measure(), table);
        String a = literal(q.values().get(0));
        String b = literal(q.values().get(1));
        yield "SELECT CASE WHEN va IS NULL OR vb IS NULL THEN NULL WHEN va > vb THEN " + a + " WHEN vb > va THEN " + b
            + " ELSE 'equal' END AS answer FROM (SELECT var_samp(IF(" + has(g, q.values().get(0)) + ", " + x + ", NULL)) AS va, var_samp(IF("
            + has(g, q.values().get(1)) + ", " + x + ", NULL)) AS vb FROM " + t + ")";
      }
      case RELATIONSHIP -> "SELECT " + e + " AS answer FROM " + t + " WHERE " + has(table.column(q.group()), q.values().get(0)) + " ORDER BY lower(" + e + "), " + e;
    };
  }

  /** How many members pass the filter, how many distinct values of {@code group} they have, or how many there are. */
  private String count(SetQuery q, EntityTable table, String view) {
    if (q.group() != null && q.values().isEmpty()) {
      return "SELECT count(*) AS answer FROM (" + groupCounts(table.column(q.group()), view) + ")";
    }
    if (q.group() == null && q.measure() == null) {
      return "SELECT count(*) AS answer FROM " + view;
    }
    return "SELECT count(*) AS answer FROM " + view + " WHERE " + filter(q, table);
  }

  private String filter(SetQuery q, EntityTable table) {
    if (q.group() != null) {
      return has(table.column(q.group()), q.values().get(0));
    }
    return measure(q.measure(), table) + " " + q.comparison().sql() + " " + number(q.number());
  }

  /** (value, n): members per value of a column, arrays exploded (a member counts once per value). */
  private static String groupCounts(Column c, String view) {
    return c.multi()
        ? "SELECT v AS value, count(*) AS n FROM " + view + " LATERAL VIEW explode(" + ident(c.name()) + ") x AS v GROUP BY v"
        : "SELECT " + ident(c.name()) + " AS value, count(*) AS n FROM " + view + " WHERE " + ident(c.name()) + " IS NOT NULL GROUP BY 1";
  }

  /** The member's number: the column's value, or how many values it has. */
  static String measure(Measure m, EntityTable table) {
    Column c = table.column(m.property());
    if (m.count()) {
      return c.multi() ? "size(" + ident(c.name()) + ")" : "IF(" + ident(c.name()) + " IS NULL, 0, 1)";
    }
    if (!c.kind().numeric()) {
      throw new IllegalArgumentException("column " + c.name() + " holds text; it has no numeric value");
    }
    // a member with several numbers (a film released in two years) counts with its smallest
    return c.multi() ? "array_min(" + ident(c.name()) + ")" : ident(c.name());
  }

  /** Whether a member's column holds {@code value}: never, for a word in a column of numbers. */
  static String has(Column c, String value) {
    String v;
    if (c.kind() == EntityTable.Kind.TEXT) {
      v = literal(value);
    } else if (ValueNormaliser.value(value) instanceof Number n) {
      v = c.kind() == EntityTable.Kind.INTEGER && ValueNormaliser.value(value) instanceof Long ? n.toString() : "CAST(" + number(n.doubleValue()) + " AS DOUBLE)";
    } else {
      return "FALSE"; // no member's number is 'city': the set is empty (it was an error that failed the question)
    }
    return c.multi() ? "array_contains(" + ident(c.name()) + ", " + v + ")" : ident(c.name()) + " = " + v;
  }

  /** A Spark SQL identifier in back-quotes (a back-quote doubled). */
  public static String ident(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  /** A Spark SQL string literal: quotes and backslashes escaped (Spark reads backslash escapes in literals). */
  public static String literal(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  private static String number(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : String.format(Locale.ROOT, "%s", d);
  }
}
