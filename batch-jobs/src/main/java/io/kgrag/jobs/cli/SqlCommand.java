package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.sql.CatalogSchema;
import io.kgrag.jobs.internal.sql.CheckedSql;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code kgrag sql}: read-only Spark SQL over a warehouse's tables, each registered as {@code kgrag.<table>}.
 * One query from the command line, or statements read from standard input (each ended by {@code ;}) until
 * its end or {@code quit}. Output as an aligned table, CSV (RFC 4180) or JSON lines (one object per row,
 * nested values kept). Every query is checked before it runs ({@link CheckedSql}): one statement, parsed,
 * read-only, analysed; the tables are the jobs' to write, and a Delta commit is their only writer.
 */
@Command(
    name = "sql",
    mixinStandardHelpOptions = true,
    description = {
      "Runs read-only Spark SQL over the warehouse's tables (kgrag.answers, kgrag.evidence, kgrag.metrics, kgrag.runs, ...).",
      "With no query, reads statements ended by ';' from standard input until its end or 'quit'.",
      "Exit codes: 0 ok, 2 refused (not a read-only query) or bad options, 3 the SQL does not parse or analyse,",
      "4 the query failed while running (a failed assertion, a bad cast in ANSI mode, a division by zero)."
    })
public final class SqlCommand implements Callable<Integer> {
  /** The exit code of a query that does not parse or analyse. */
  public static final int INVALID_SQL = 3;

  /** The exit code of a query that parsed and analysed but failed while running ({@code assert_true(false)}). */
  public static final int QUERY_FAILED = 4;

  /** The exit code of a refused query (a write, a command, several statements). */
  public static final int REFUSED = 2;

  @Mixin JobOptions job = new JobOptions();

  @Parameters(arity = "0..1", paramLabel = "<query>", description = "The query; none: read statements from standard input.")
  String query;

  @Option(names = "--format", defaultValue = "table", paramLabel = "<fmt>", description = "table, csv or json (JSON lines). Default: ${DEFAULT-VALUE}.")
  String format;

  @Option(names = "--limit", defaultValue = "1000", paramLabel = "<n>", description = "Rows printed at most (0: all). Default: ${DEFAULT-VALUE}.")
  int limit;

  @Option(names = "--max-width", defaultValue = "60", paramLabel = "<n>", description = "table format: a longer cell is cut to this many characters. Default: ${DEFAULT-VALUE}.")
  int maxWidth;

  @Spec CommandSpec spec;

  /** Standard input, replaced by tests. */
  InputStream in = System.in;

  @Override
  public Integer call() {
    String fmt = format.strip().toLowerCase(Locale.ROOT);
    if (!List.of("table", "csv", "json").contains(fmt)) {
      throw new UserInputException("--format " + format.replaceAll("\\p{Cntrl}", "?") + " is not known: use table, csv or json");
    }
    if (limit < 0 || maxWidth < 4) {
      throw new UserInputException(limit < 0 ? "--limit must be 0 (all) or more, got " + limit : "--max-width must be at least 4, got " + maxWidth);
    }
    SparkSession spark = job.session("kgrag sql");
    // a query that fails in a task is reported in one line ({@link #failure}); in a local run the task's executor
    // is this JVM, and its logged stack traces would bury that line
    for (String logger : List.of("org.apache.spark.executor.Executor", "org.apache.spark.scheduler.TaskSetManager")) {
      org.apache.logging.log4j.core.config.Configurator.setLevel(logger, org.apache.logging.log4j.Level.OFF);
    }
    Catalog catalog = job.catalog(spark, null);
    CatalogSchema.registerHere(catalog);
    if (java.util.Arrays.stream(KgTable.values()).noneMatch(catalog::exists)) {
      throw new UserInputException("no kgrag table exists under " + catalog.root() + " (run `kgrag index` / `kgrag qa` first, or check --warehouse)");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (query != null) {
      return run(spark, query, fmt, out, err);
    }
    return interactive(spark, fmt, out, err);
  }

  /** Statements from {@link #in} until its end or {@code quit}; a failing one is reported and the next read. */
  private int interactive(SparkSession spark, String fmt, PrintWriter out, PrintWriter err) {
    boolean prompt = System.console() != null && in == System.in;
    int last = 0;
    StringBuilder statement = new StringBuilder();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      while (true) {
        if (prompt) {
          err.print(statement.length() == 0 ? "kgrag> " : "  ...> ");
          err.flush();
        }
        String line = r.readLine();
        if (line == null) {
          break;
        }
        String t = line.strip();
        if (statement.length() == 0 && (t.equalsIgnoreCase("quit") || t.equalsIgnoreCase("exit") || t.equalsIgnoreCase("quit;") || t.equalsIgnoreCase("exit;"))) {
          break;
        }
        if (t.isEmpty() && statement.length() == 0) {
          continue;
        }
        statement.append(line).append('\n');
        if (t.endsWith(";")) {
          String sql = statement.toString().strip();
          statement.setLength(0);
          last = run(spark, sql.substring(0, sql.length() - 1), fmt, out, err);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read standard input", e);
    }
    if (statement.toString().strip().length() > 0) {
      last = run(spark, statement.toString().strip(), fmt, out, err);
    }
    return last;
  }

  /** Checks and runs one query, printing its rows; the exit code. */
  private int run(SparkSession spark, String sql, String fmt, PrintWriter out, PrintWriter err) {
    CheckedSql c = CheckedSql.check(spark, sql, null);
    if (c.refused() != null) {
      err.println("kgrag sql: refused: " + c.refused() + "; nothing was run (kgrag's tables are written by its jobs only)");
      err.flush();
      return REFUSED;
    }
    if (c.error() != null) {
      err.println("kgrag sql: the SQL does not run: " + c.error());
      err.flush();
      return INVALID_SQL;
    }
    Dataset<Row> df = c.df();
    Dataset<Row> shown = limit > 0 ? df.limit(limit + 1) : df;
    // the rows are collected before any is printed, so a query that fails while running prints none of them
    List<String> json = null;
    List<Row> rows;
    String[] cols = df.columns();
    try {
      if (fmt.equals("json")) {
        json = shown.toJSON().collectAsList();
        rows = null;
      } else {
        List<Column> asText = new ArrayList<>();
        for (String name : cols) {
          asText.add(df.col("`" + name.replace("`", "``") + "`").cast("string"));
        }
        rows = shown.select(asText.toArray(new Column[0])).collectAsList();
      }
    } catch (Exception e) { // SparkException is checked in Java's eyes but thrown by Scala undeclared
      err.println("kgrag sql: the query failed while running: " + failure(e) + "; no row was printed");
      err.flush();
      return QUERY_FAILED;
    }
    int printed;
    boolean more;
    if (json != null) {
      more = limit > 0 && json.size() > limit;
      printed = more ? limit : json.size();
      json.subList(0, printed).forEach(out::println);
    } else {
      more = limit > 0 && rows.size() > limit;
      printed = more ? limit : rows.size();
      if (fmt.equals("csv")) {
        out.println(csvLine(List.of(cols)));
        for (Row row : rows.subList(0, printed)) {
          out.println(csvLine(cells(row, cols.length, "")));
        }
      } else {
        table(out, cols, rows.subList(0, printed));
      }
    }
    out.flush();
    err.println(String.format(Locale.ROOT, "(%,d row%s%s)", printed, printed == 1 ? "" : "s", more ? "; more not shown: --limit " + limit : ""));
    err.flush();
    return 0;
  }

  /**
   * What a query's failure says, without Spark's job and stage wrapping: the innermost cause's message (its first
   * line: Spark appends the executor's stack trace to a task failure's), or its class when it has none.
   */
  static String failure(Throwable t) {
    Throwable inner = t;
    while (inner.getCause() != null && inner.getCause() != inner) {
      inner = inner.getCause();
    }
    String msg = inner.getMessage();
    if (msg == null || msg.isBlank()) {
      return inner.getClass().getSimpleName();
    }
    return msg.strip().lines().findFirst().orElse(msg).strip();
  }

  private static List<String> cells(Row row, int n, String nullText) {
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(row.isNullAt(i) ? nullText : row.getString(i));
    }
    return out;
  }

  /** One CSV record: a field with a comma, quote or line break quoted, quotes doubled. */
  static String csvLine(List<String> fields) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      String f = fields.get(i);
      if (i > 0) {
        b.append(',');
      }
      if (f.contains(",") || f.contains("\"") || f.contains("\n") || f.contains("\r")) {
        b.append('"').append(f.replace("\"", "\"\"")).append('"');
      } else {
        b.append(f);
      }
    }
    return b.toString();
  }

  /** An aligned table: a header, a rule, the rows; NULL for null; cells cut at --max-width, line breaks as spaces. */
  private void table(PrintWriter out, String[] cols, List<Row> rows) {
    List<List<String>> cells = new ArrayList<>();
    int[] width = new int[cols.length];
    for (int i = 0; i < cols.length; i++) {
      width[i] = Math.min(maxWidth, cols[i].length());
    }
    for (Row row : rows) {
      List<String> cs = new ArrayList<>();
      for (String c : cells(row, cols.length, "NULL")) {
        String one = c.replaceAll("\\s*\\R\\s*", " ");
        cs.add(one.length() > maxWidth ? one.substring(0, maxWidth - 1) + "…" : one);
      }
      for (int i = 0; i < cols.length; i++) {
        width[i] = Math.max(width[i], cs.get(i).length());
      }
      cells.add(cs);
    }
    out.println(line(List.of(cols), width));
    StringBuilder rule = new StringBuilder();
    for (int i = 0; i < cols.length; i++) {
      rule.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
    }
    out.println(rule);
    cells.forEach(cs -> out.println(line(cs, width)));
  }

  private static String line(List<String> cells, int[] width) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i).length() > width[i] ? cells.get(i).substring(0, width[i]) : cells.get(i);
      b.append(i == 0 ? "" : "  ").append(c).append(" ".repeat(width[i] - c.length()));
    }
    return b.toString().stripTrailing();
  }
}
