package io.kgrag.udfs.sgrag;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;

import io.kgrag.core.sgrag.gnn.DominanceModel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import io.kgrag.udfs.sql.SparkArrays;

/**
 * Computes dominance vectors on the executors from a broadcast {@link DominanceModel}: each node's label
 * feature is projected once, leaf projections are grouped by centre, and every node gets
 * {@link DominanceModel#starUpperBound} of its whole star (the vector the index stores).
 */
public final class DominanceUdfs {
  private DominanceUdfs() {}

  private static final StructType PROJ =
      new StructType()
          .add("entity_id", DataTypes.LongType, false)
          .add("label_key", DataTypes.LongType, false)
          .add("proj", DataTypes.createArrayType(DataTypes.FloatType, false), false);

  private static final StructType OUT =
      new StructType()
          .add("entity_id", DataTypes.LongType, false)
          .add("label_key", DataTypes.LongType, false)
          .add("vector", DataTypes.createArrayType(DataTypes.FloatType, false), false);

  /**
   * @param nodes {@code (entity_id, label_key, …)}
   * @param nbrs {@code (c, n)} undirected neighbour pairs
   * @param features {@code (label_key, feature)}
   * @return {@code (entity_id, label_key, vector)} for every node
   */
  public static Dataset<Row> nodeVectors(Dataset<Row> nodes, Dataset<Row> nbrs, Dataset<Row> features, Broadcast<DominanceModel> model) {
    Dataset<Row> withFeature = nodes.select("entity_id", "label_key").join(features, "label_key").select("entity_id", "label_key", "feature");
    MapPartitionsFunction<Row, Row> project =
        rows -> {
          DominanceModel m = model.value();
          List<Row> out = new ArrayList<>();
          while (rows.hasNext()) {
            Row r = rows.next();
            out.add(RowFactory.create(r.getLong(0), r.getLong(1), SparkArrays.boxed(m.project(SparkArrays.floats(r.getList(2))))));
          }
          return out.iterator();
        };
    Dataset<Row> proj = withFeature.mapPartitions(project, Encoders.row(PROJ));
    Dataset<Row> leafProj =
        nbrs.join(proj, nbrs.col("n").equalTo(proj.col("entity_id"))).groupBy(col("c")).agg(collect_list(col("proj")).as("leaves"));
    Dataset<Row> stars =
        proj.join(leafProj, proj.col("entity_id").equalTo(leafProj.col("c")), "left").select(col("entity_id"), col("label_key"), col("proj"), col("leaves"));
    MapPartitionsFunction<Row, Row> bound =
        rows -> {
          DominanceModel m = model.value();
          return new Iterator<Row>() {
            @Override
            public boolean hasNext() {
              return rows.hasNext();
            }

            @Override
            public Row next() {
              Row r = rows.next();
              List<float[]> leaves = new ArrayList<>();
              if (!r.isNullAt(3)) {
                for (Object l : r.getList(3)) {
                  leaves.add(SparkArrays.floats(asList(l)));
                }
              }
              return RowFactory.create(r.getLong(0), r.getLong(1), SparkArrays.boxed(m.starUpperBound(SparkArrays.floats(r.getList(2)), leaves)));
            }
          };
        };
    return stars.mapPartitions(bound, Encoders.row(OUT));
  }

  @SuppressWarnings("unchecked")
  private static List<Object> asList(Object o) {
    if (o instanceof List) {
      return (List<Object>) o;
    }
    return scala.collection.JavaConverters.seqAsJavaList((scala.collection.Seq<Object>) o);
  }
}
