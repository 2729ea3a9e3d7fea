package io.kgrag.jobs.sql;

import io.kgrag.core.qafd.sql.SqlWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedWith;
import scala.Tuple2;
import scala.collection.JavaConverters;

/**
 * A SQL text checked before anything runs: exactly one statement, parsed by Spark, read-only
 * ({@link ReadOnlySql}), reading only allowed tables when a list is given (a WITH clause's names count as
 * allowed), and analysed (names and types resolved). Nothing is executed here.
 *
 * @param df the analysed query, or null
 * @param refused why the SQL is not allowed (several statements, a write, another table), or null
 * @param error why it does not parse or analyse (Spark's message on one line), or null
 */
public record CheckedSql(Dataset<Row> df, String refused, String error) {
  /** Checks {@code sql}; {@code tables}: the table names it may read (case-insensitive), null for any. */
  public static CheckedSql check(SparkSession spark, String sql, Set<String> tables) {
    List<String> statements = SqlWriter.statements(sql);
    if (statements.isEmpty()) {
      return new CheckedSql(null, null, "no SQL statement");
    }
    if (statements.size() > 1) {
      return new CheckedSql(null, statements.size() + " statements (only one SELECT is run)", null);
    }
    LogicalPlan plan;
    try {
      plan = spark.sessionState().sqlParser().parsePlan(sql);
    } catch (Exception e) { // ParseException, an AnalysisException
      return new CheckedSql(null, null, oneLine(e));
    }
    Optional<String> refused = ReadOnlySql.refusal(plan);
    if (refused.isPresent()) {
      return new CheckedSql(null, "not a read-only query (" + refused.get() + ")", null);
    }
    if (tables != null) {
      Set<String> allowed = new TreeSet<>();
      tables.forEach(t -> allowed.add(t.toLowerCase(Locale.ROOT)));
      Set<String> read = new TreeSet<>();
      names(plan, read, allowed);
      read.removeAll(allowed);
      if (!read.isEmpty()) {
        return new CheckedSql(null, "reads " + String.join(", ", read) + "; only " + String.join(", ", tables) + " may be read", null);
      }
    }
    try {
      Dataset<Row> df = spark.sql(sql);
      df.queryExecution().assertAnalyzed();
      return new CheckedSql(df, null, null);
    } catch (Exception e) { // spark.sql throws AnalysisException undeclared
      if (e instanceof AnalysisException) {
        return new CheckedSql(null, null, oneLine(e));
      }
      throw e;
    }
  }

  /** The tables a parsed plan reads (whole name, lower case) into {@code read}; WITH names into {@code ctes}. */
  private static void names(LogicalPlan root, Set<String> read, Set<String> ctes) {
    for (LogicalPlan p : ReadOnlySql.nodes(root)) {
      if (p instanceof UnresolvedRelation r) {
        read.add(String.join(".", JavaConverters.seqAsJavaList(r.multipartIdentifier())).toLowerCase(Locale.ROOT));
      }
      if (p instanceof UnresolvedWith w) {
        for (Tuple2<String, ?> cte : JavaConverters.seqAsJavaList(w.cteRelations())) {
          ctes.add(cte._1().toLowerCase(Locale.ROOT));
        }
      }
    }
  }

  /** An exception's message on one line. */
  public static String oneLine(Exception e) {
    String m = e.getMessage() == null ? e.toString() : e.getMessage();
    return m.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
