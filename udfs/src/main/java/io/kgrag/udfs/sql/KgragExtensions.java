package io.kgrag.udfs.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.Function1;
import scala.Tuple3;
import scala.collection.JavaConverters;
import scala.collection.Seq;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * kgrag's SQL functions ({@link KgFunctions#ALL}: {@code kg_entity_id}, {@code kg_normalize}, …) for any Spark
 * session, by {@code spark.sql.extensions=io.kgrag.udfs.sql.KgragExtensions} (comma-separated after Delta's
 * {@code io.delta.sql.DeltaSparkSessionExtension}). Each function is injected with its usage, so {@code DESCRIBE
 * FUNCTION kg_normalize} explains it. It also refuses a plan that appends to or overwrites a table of a {@link
 * ReadOnlyCatalog} (kgrag's catalog: {@code INSERT INTO kgrag.answers …}). Needs kgrag-udfs and kgrag-core on the
 * session's classpath.
 */
public final class KgragExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  /** The value to add to {@code spark.sql.extensions}. */
  public static final String CLASS_NAME = KgragExtensions.class.getName();

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    for (KgFunctions.Definition d : KgFunctions.ALL) {
      ExpressionInfo info = new ExpressionInfo(KgFunctions.class.getName(), null, d.name(), d.usage(), "");
      extensions.injectFunction(new Tuple3<>(FunctionIdentifier.apply(d.name()), info, new Builder(d)));
    }
    extensions.injectCheckRule(new AbstractFunction1<SparkSession, Function1<LogicalPlan, BoxedUnit>>() {
      @Override
      public Function1<LogicalPlan, BoxedUnit> apply(SparkSession session) {
        return new AbstractFunction1<LogicalPlan, BoxedUnit>() {
          @Override
          public BoxedUnit apply(LogicalPlan plan) {
            refuseWritesToReadOnlyCatalogs(plan);
            return BoxedUnit.UNIT;
          }
        };
      }
    });
    return BoxedUnit.UNIT;
  }

  /** Throws {@link ReadOnlyCatalog#refusal} when {@code plan} writes a table of a {@link ReadOnlyCatalog}. */
  static void refuseWritesToReadOnlyCatalogs(LogicalPlan plan) {
    if (plan instanceof V2WriteCommand w && w.table() instanceof DataSourceV2Relation r && r.catalog().isDefined()
        && r.catalog().get() instanceof ReadOnlyCatalog c && r.identifier().isDefined()) {
      throw c.refusal(r.identifier().get(), "written");
    }
    for (LogicalPlan child : JavaConverters.seqAsJavaList(plan.children())) {
      refuseWritesToReadOnlyCatalogs(child);
    }
  }

  /** Makes the function's expression (the UDF applied to its arguments), after checking their number. */
  private static final class Builder extends AbstractFunction1<Seq<Expression>, Expression> {
    private final KgFunctions.Definition d;

    Builder(KgFunctions.Definition d) {
      this.d = d;
    }

    @Override
    public Expression apply(Seq<Expression> children) {
      List<Expression> args = JavaConverters.seqAsJavaList(children);
      if (args.size() != d.arguments().size()) {
        throw new IllegalArgumentException(
            d.name() + " takes " + d.arguments().size() + " argument" + (d.arguments().size() == 1 ? "" : "s") + ", got " + args.size()
                + ": " + d.usage());
      }
      List<Column> cols = new ArrayList<>();
      for (Expression e : args) {
        cols.add(new Column(e));
      }
      return d.udf().withName(d.name()).apply(cols.toArray(new Column[0])).expr();
    }
  }
}
