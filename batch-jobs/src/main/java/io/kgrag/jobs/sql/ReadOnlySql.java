package io.kgrag.jobs.sql;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.QueryPlan;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.ParsedStatement;
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
 *   <li>any {@link ParsedStatement}: InsertIntoStatement (INSERT INTO / OVERWRITE), InsertIntoDir;
 *   <li>calls of {@code reflect} / {@code java_method}, which run arbitrary static Java methods.
 * </ul>
 *
 * Several statements are refused before parsing (Spark's parser reads one statement; see
 * {@link io.kgrag.core.qafd.sql.SqlWriter#statements}).
 */
public final class ReadOnlySql {
  private static final Set<String> FORBIDDEN_FUNCTIONS = Set.of("reflect", "java_method");

  private ReadOnlySql() {}

  /** The kind of the first node that makes {@code plan} more than a read-only query, or empty. */
  public static Optional<String> refusal(LogicalPlan plan) {
    for (LogicalPlan p : nodes(plan)) {
      if (p instanceof Command || p instanceof ParsedStatement) {
        return Optional.of(p.getClass().getSimpleName());
      }
      for (Expression root : list(p.expressions())) {
        for (Expression e : expressions(root)) {
          if (e instanceof UnresolvedFunction f) {
            List<String> name = list(f.nameParts());
            String last = name.isEmpty() ? "" : name.get(name.size() - 1).toLowerCase(Locale.ROOT);
            if (FORBIDDEN_FUNCTIONS.contains(last)) {
              return Optional.of("function " + last);
            }
          }
        }
      }
    }
    return Optional.empty();
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
