package io.kgrag.jobs.catalog;

import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;
import static org.apache.spark.sql.types.DataTypes.createArrayType;

import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.RankedAnswer;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;

/** Struct types nested in the QA tables, and conversions between them and the core records. */
public final class QueryGraphRows {
  /*
   * The fields of these structs (and the elements of entity_ids) are declared nullable although the writers
   * below always set id, unknown, src, dst, answer and score: Delta cannot enforce NOT NULL inside an array
   * and refuses to create a table that declares it (DELTA_NESTED_NOT_NULL_CONSTRAINT).
   */

  /** {@code query_graphs.nodes[]}: entity_ids are the graph entities the label was normalised to. */
  public static final StructType NODE =
      new StructType()
          .add("id", IntegerType, true)
          .add("label", StringType, true)
          .add("unknown", BooleanType, true)
          .add("type_hint", StringType, true)
          .add("description", StringType, true)
          .add("entity_ids", createArrayType(LongType, true), true);

  /** {@code query_graphs.edges[]}. */
  public static final StructType EDGE =
      new StructType().add("src", IntegerType, true).add("dst", IntegerType, true).add("phrase", StringType, true);

  /** {@code answers.ranked[]}. */
  public static final StructType RANKED =
      new StructType().add("answer", StringType, true).add("entity_id", LongType, true).add("score", DoubleType, true);

  private QueryGraphRows() {}

  public static List<Row> nodes(QueryGraph q, java.util.function.IntFunction<long[]> entityIds) {
    List<Row> out = new ArrayList<>();
    for (QueryGraph.Node n : q.nodes()) {
      long[] ids = entityIds == null ? null : entityIds.apply(n.id());
      Long[] boxed = null;
      if (ids != null) {
        boxed = new Long[ids.length];
        for (int i = 0; i < ids.length; i++) {
          boxed[i] = ids[i];
        }
      }
      out.add(RowFactory.create(n.id(), n.label(), n.unknown(), n.typeHint(), n.description(), boxed));
    }
    return out;
  }

  public static List<Row> edges(QueryGraph q) {
    List<Row> out = new ArrayList<>();
    for (QueryGraph.Edge e : q.edges()) {
      out.add(RowFactory.create(e.src(), e.dst(), e.phrase()));
    }
    return out;
  }

  /** {@code ranked} as rows of {@link #RANKED}: an entity id of {@link Long#MIN_VALUE} and a NaN score are null. */
  public static List<Row> ranked(List<RankedAnswer> ranked) {
    List<Row> out = new ArrayList<>();
    for (RankedAnswer r : ranked) {
      out.add(RowFactory.create(r.answer(), r.entityId() == Long.MIN_VALUE ? null : r.entityId(), Double.isNaN(r.score()) ? null : r.score()));
    }
    return out;
  }
}
