package io.kgrag.jobs.internal.sql;

import io.kgrag.core.sql.SqlText;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.catalog.SessionCatalog;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedWith;
import scala.Tuple2;
import scala.collection.JavaConverters;

/**
 * A SQL text checked before anything runs: exactly one statement, parsed by Spark, read-only
 * ({@link ReadOnlySql}: no command, write, shell or JVM call), calling only built-in and session functions
 * (a persistent catalog function, which may load any class from a jar, is refused), reading only allowed
 * tables when a list is given (a WITH clause's names count as allowed), and analysed (names and types
 * resolved). The list is an allow-list of whole names as written: a path read such as {@code
 * parquet.`/etc/x`} or {@code delta.`<warehouse>/entities`}, another database's table or a differently
 * qualified name is refused before Spark resolves it, so no file is opened for a refused query. Nothing is
 * executed here.
 *
 * @param df the analysed query, or null
 * @param refused why the SQL is not allowed (several statements, a write, another table), or null
 * @param error why it does not parse or analyse (Spark's message on one line), or null
 */
public record CheckedSql(Dataset<Row> df, String refused, String error) {
  /** Checks {@code sql}; {@code tables}: the table names it may read (case-insensitive), null for any. */
  public static CheckedSql check(SparkSession spark, String sql, Set<String> tables) {
    return check(spark, sql, tables, null);
  }

  /**
   * Checks {@code sql} as {@link #check(SparkSession, String, Set)}; besides, a name {@code
   * <database>.<name>} outside {@code tables} that names no table or view of the session is left to the
   * analysis, which reports it as not found (an error a caller may repair) rather than refused.
   */
  public static CheckedSql check(SparkSession spark, String sql, Set<String> tables, String database) {
    List<String> statements = SqlText.statements(sql);
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
    Optional<String> function = persistentFunction(spark.sessionState().catalog(), plan);
    if (function.isPresent()) {
      return new CheckedSql(null, "not a read-only query (function " + function.get() + " is a catalog function: only built-in and session functions may be called)", null);
    }
    if (tables != null) {
      Set<String> allowed = new TreeSet<>();
      tables.forEach(t -> allowed.add(t.toLowerCase(Locale.ROOT)));
      Set<String> read = new TreeSet<>();
      names(plan, read, allowed);
      read.removeAll(allowed);
      if (database != null) {
        read.removeIf(name -> unknownIn(spark.sessionState().catalog(), database, name));
      }
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

  /** Whether {@code name} is {@code database.x} (lower case) and the session knows no table or view x there. */
  private static boolean unknownIn(SessionCatalog sc, String database, String name) {
    String prefix = database.toLowerCase(Locale.ROOT) + ".";
    if (!name.startsWith(prefix) || name.indexOf('.', prefix.length()) >= 0) {
      return false;
    }
    return !sc.tableExists(new TableIdentifier(name.substring(prefix.length()), scala.Option.apply(database)));
  }

  /** The first function the plan calls that is neither built-in nor a session function but a catalog one. */
  private static Optional<String> persistentFunction(SessionCatalog sc, LogicalPlan plan) {
    for (String name : ReadOnlySql.functionNames(plan)) {
      FunctionIdentifier id = new FunctionIdentifier(name);
      if (!sc.isBuiltinFunction(id) && !sc.isTemporaryFunction(id) && sc.isPersistentFunction(id)) {
        return Optional.of(name);
      }
    }
    return Optional.empty();
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
