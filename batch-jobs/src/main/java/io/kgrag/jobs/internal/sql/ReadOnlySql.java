package io.kgrag.jobs.internal.sql;

import io.kgrag.core.sql.SqlText;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.ExpressionWithUnresolvedIdentifier;
import org.apache.spark.sql.catalyst.analysis.PlanWithUnresolvedIdentifier;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableValuedFunction;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.QueryPlan;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoDir;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.ParsedStatement;
import org.apache.spark.sql.catalyst.plans.logical.ScriptTransformation;
import scala.collection.JavaConverters;

/**
 * Whether a parsed (unanalysed) Spark plan is a read-only query. Every node is visited: the plan's
 * children, its inner children (a WITH clause's common table expressions) and the plans of subquery
 * expressions. Refused:
 *
 * <ul>
 *   <li>any {@link Command}: DDL (CreateTable, DropTable, AlterTable…, CreateView), DML (DeleteFromTable,
 *       UpdateTable, MergeIntoTable, the V2 write commands), session commands (SetCommand, ResetCommand,
 *       SetCatalogAndNamespace), cache commands, SHOW / DESCRIBE / EXPLAIN (not queries);
 *   <li>any {@link ParsedStatement}: InsertIntoStatement (INSERT INTO / OVERWRITE);
 *   <li>{@link InsertIntoDir} ({@code INSERT OVERWRITE [LOCAL] DIRECTORY}, which writes files and is neither
 *       of the above) and {@link ScriptTransformation} ({@code SELECT TRANSFORM(…) USING 'command'}, which
 *       runs a shell command on the executors);
 *   <li>the {@code IDENTIFIER(…)} clause for a table or function ({@link PlanWithUnresolvedIdentifier},
 *       {@link ExpressionWithUnresolvedIdentifier}): its name is computed during analysis, after any check
 *       of the names read;
 *   <li>functions that touch the JVM or files: {@code reflect}, {@code java_method}, {@code try_reflect}
 *       (arbitrary static Java methods), {@code input_file_name}, {@code input_file_block_start},
 *       {@code input_file_block_length} (file paths), {@code read_files} (a file reader); and any function
 *       or table function named with a qualifier ({@code db.fn(…)}: a catalog function, which may load a
 *       class from a jar), so that only built-in and session functions are called.
 * </ul>
 *
 * Several statements are refused before parsing (Spark's parser reads one statement; see
 * {@link io.kgrag.core.qafd.sql.SqlText#statements}).
 */
public final class ReadOnlySql {
  private static final Set<String> FORBIDDEN_FUNCTIONS =
      Set.of("reflect", "java_method", "try_reflect", "input_file_name", "input_file_block_start", "input_file_block_length", "read_files");

  private ReadOnlySql() {}

  /** The kind of the first node that makes {@code plan} more than a read-only query, or empty. */
  public static Optional<String> refusal(LogicalPlan plan) {
    for (LogicalPlan p : nodes(plan)) {
      if (p instanceof Command || p instanceof ParsedStatement || p instanceof InsertIntoDir) {
        return Optional.of(p.getClass().getSimpleName());
      }
      if (p instanceof ScriptTransformation) {
        return Optional.of("TRANSFORM … USING, a shell command");
      }
      if (p instanceof PlanWithUnresolvedIdentifier) {
        return Optional.of("IDENTIFIER clause, a table named at run time");
      }
      if (p instanceof UnresolvedTableValuedFunction t) {
        Optional<String> f = function(list(t.name()), "table function ");
        if (f.isPresent()) {
          return f;
        }
      }
      for (Expression root : list(p.expressions())) {
        for (Expression e : expressions(root)) {
          if (e instanceof ExpressionWithUnresolvedIdentifier) {
            return Optional.of("IDENTIFIER clause, a function named at run time");
          }
          if (e instanceof UnresolvedFunction f) {
            Optional<String> refused = function(list(f.nameParts()), "function ");
            if (refused.isPresent()) {
              return refused;
            }
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Why a call of the function {@code name} is refused, or empty. */
  private static Optional<String> function(List<String> name, String what) {
    String joined = String.join(".", name).toLowerCase(Locale.ROOT);
    if (name.size() > 1) {
      return Optional.of(what + joined + ": only built-in and session functions may be called, without a qualifier");
    }
    return FORBIDDEN_FUNCTIONS.contains(joined) ? Optional.of(what + joined) : Optional.empty();
  }

  /**
   * The unqualified names of the functions and table functions a parsed plan calls (lower case), for a
   * caller that checks them against the session's catalog.
   */
  public static Set<String> functionNames(LogicalPlan root) {
    Set<String> out = new java.util.TreeSet<>();
    for (LogicalPlan p : nodes(root)) {
      if (p instanceof UnresolvedTableValuedFunction t && t.name().size() == 1) {
        out.add(t.name().head().toLowerCase(Locale.ROOT));
      }
      for (Expression e : list(p.expressions())) {
        for (Expression x : expressions(e)) {
          if (x instanceof UnresolvedFunction f && f.nameParts().size() == 1) {
            out.add(f.nameParts().head().toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    return out;
  }

  /**
   * Every node of a parsed plan, {@code root} first: its children, its inner children (a WITH clause's
   * common table expressions) and the plans of its subquery expressions, recursively.
   */
  public static List<LogicalPlan> nodes(LogicalPlan root) {
    List<LogicalPlan> out = new ArrayList<>();
    Deque<LogicalPlan> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      LogicalPlan p = todo.pop();
      out.add(p);
      for (LogicalPlan c : list(p.children())) {
        todo.push(c);
      }
      for (QueryPlan<?> c : list(p.innerChildren())) {
        if (c instanceof LogicalPlan l) {
          todo.push(l);
        }
      }
      for (Expression e : list(p.expressions())) {
        for (Expression x : expressions(e)) {
          if (x instanceof SubqueryExpression s) {
            todo.push(s.plan());
          }
        }
      }
    }
    return out;
  }

  /** Every node of an expression tree, {@code root} first. */
  private static List<Expression> expressions(Expression root) {
    List<Expression> out = new ArrayList<>();
    Deque<Expression> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      Expression e = todo.pop();
      out.add(e);
      for (Expression c : list(e.children())) {
        todo.push(c);
      }
    }
    return out;
  }

  private static <T> List<T> list(scala.collection.Seq<T> seq) {
    return JavaConverters.seqAsJavaList(seq);
  }
}
