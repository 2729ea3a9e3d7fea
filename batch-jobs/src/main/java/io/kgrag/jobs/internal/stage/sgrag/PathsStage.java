package io.kgrag.jobs.internal.stage.sgrag;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.array_join;
import static org.apache.spark.sql.functions.array_sort;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_set;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import io.kgrag.udfs.sql.KgFunctions;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Stage "paths" (SG-RAG eq. 4, §5.4): every path of length l of the graph, in both orientations, with its
 * nodes' label keys and its dominance vector o(p) = [o(v1), …, o(v_l+1)] (eq. 16), built with joins.
 *
 * <p>Length 1 paths are the undirected edges (2 per node pair); length 2 paths join two of them on the
 * middle node (u ≠ w). A hop's relations are all relations between its two nodes, either direction, sorted
 * and joined with " | ". Length 2 grows with the sum of squared degrees: on FB15k-237 that is far larger
 * than the edge count, which is why l = 1 is the default.
 */
public final class PathsStage {
  private final Catalog catalog;
  private final int length;

  public PathsStage(Catalog catalog, int length) {
    if (length != 1 && length != 2) {
      throw new UserInputException("--path-length must be 1 or 2, got " + length);
    }
    this.catalog = catalog;
    this.length = length;
  }

  public StageReport run() {
    StageReport report = new StageReport("paths", "l=" + length);
    if (!catalog.exists(KgTable.NODE_DOMINANCE)) {
      throw new UserInputException("stage paths needs node dominance vectors: run `kgrag index --stages gnn` first");
    }
    Dataset<Row> dom = catalog.read(KgTable.NODE_DOMINANCE);
    String modelId = dom.select("model_id").head().getString(0);
    Dataset<Row> paths = build(catalog.read(KgTable.RELATIONS), dom, length, modelId, null);
    long v = catalog.replaceWhere(KgTable.PATHS, paths, "length = " + length);
    long n = catalog.read(KgTable.PATHS).filter(col("length").equalTo(length)).count();
    report.version("paths", v).rows("paths", n);
    report.summary(String.format(Locale.ROOT, "%,d paths of length %d (both orientations), model %s", n, length, modelId));
    return report;
  }

  /**
   * The paths of length {@code length} (rows of table {@code paths}) of the graph {@code rel} with the vectors
   * {@code dom}; with {@code through} (one column {@code node}) only the paths through one of those nodes.
   */
  public static Dataset<Row> build(Dataset<Row> rel, Dataset<Row> dom, int length, String modelId, Dataset<Row> through) {
    Dataset<Row> hops =
        rel.select(col("src_id").as("u"), col("dst_id").as("v"), col("relation"))
            .union(rel.select(col("dst_id").as("u"), col("src_id").as("v"), col("relation")))
            .filter(col("u").notEqual(col("v")))
            .groupBy("u", "v")
            .agg(array_join(array_sort(collect_set(col("relation"))), " | ").as("rels"));
    Dataset<Row> d0 = dom.select(col("entity_id").as("i0"), col("label_key").as("k0"), col("vector").as("o0"));
    Dataset<Row> d1 = dom.select(col("entity_id").as("i1"), col("label_key").as("k1"), col("vector").as("o1"));
    Dataset<Row> paths;
    if (length == 1) {
      Dataset<Row> first = through == null ? hops : touching(hops, through, "u", "v");
      paths =
          first.join(d0, first.col("u").equalTo(d0.col("i0"))).join(d1, col("v").equalTo(d1.col("i1")))
              .select(
                  array(col("u"), col("v")).as("node_ids"),
                  array(col("rels")).as("relations"),
                  array(col("k0"), col("k1")).as("label_keys"),
                  concat(col("o0"), col("o1")).as("dominance"));
    } else {
      Dataset<Row> second = hops.select(col("u").as("m"), col("v").as("w"), col("rels").as("rels2"));
      Dataset<Row> walks;
      if (through == null) {
        walks = hops.join(second, hops.col("v").equalTo(second.col("m")));
      } else {
        // through a node: its first hop touches it, or its second hop does
        Dataset<Row> firstTouching = touching(hops, through, "u", "v");
        Dataset<Row> secondTouching = touching(second, through, "m", "w");
        walks =
            firstTouching.join(second, firstTouching.col("v").equalTo(second.col("m")))
                .union(hops.join(secondTouching, hops.col("v").equalTo(secondTouching.col("m"))))
                .dropDuplicates("u", "v", "w");
      }
      Dataset<Row> d2 = dom.select(col("entity_id").as("i2"), col("label_key").as("k2"), col("vector").as("o2"));
      paths =
          walks.filter(col("u").notEqual(col("w")))
              .join(d0, col("u").equalTo(d0.col("i0"))).join(d1, col("v").equalTo(d1.col("i1"))).join(d2, col("w").equalTo(d2.col("i2")))
              .select(
                  array(col("u"), col("v"), col("w")).as("node_ids"),
                  array(col("rels"), col("rels2")).as("relations"),
                  array(col("k0"), col("k1"), col("k2")).as("label_keys"),
                  concat(col("o0"), col("o1"), col("o2")).as("dominance"));
    }
    return paths.select(
        KgFunctions.PATH_ID.apply(col("node_ids")).as("path_id"),
        lit(length).as("length"),
        col("node_ids"),
        col("relations"),
        col("label_keys"),
        KgFunctions.PATH_LABEL_KEY.apply(col("label_keys")).as("label_key"),
        col("dominance"),
        lit(modelId).as("model_id"));
  }

  /** The hops of {@code hops} with end {@code a} or end {@code b} among {@code through}'s nodes. */
  private static Dataset<Row> touching(Dataset<Row> hops, Dataset<Row> through, String a, String b) {
    Dataset<Row> t = through.select(col("node").as("t_node"));
    return hops.join(t, hops.col(a).equalTo(t.col("t_node")), "left_semi")
        .union(hops.join(t, hops.col(b).equalTo(t.col("t_node")), "left_semi"))
        .distinct();
  }
}
