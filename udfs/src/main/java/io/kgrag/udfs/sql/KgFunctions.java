package io.kgrag.udfs.sql;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.graph.StableIds;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF3;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * kgrag's functions for DataFrames and SQL, thin wrappers over {@code core}. {@link #register} makes
 * them callable by name in SQL ({@code SELECT kg_entity_id('/m/027rn')}).
 */
public final class KgFunctions {
  private KgFunctions() {}

  /** {@code kg_entity_id(key)}: the stable 64-bit id of an entity key. */
  public static final UserDefinedFunction ENTITY_ID =
      functions.udf((UDF1<String, Long>) StableIds::entityId, DataTypes.LongType);

  /** {@code kg_edge_id(src_key, relation, dst_key)}: the stable id of an edge. */
  public static final UserDefinedFunction EDGE_ID =
      functions.udf((UDF3<String, String, String, Long>) StableIds::edgeId, DataTypes.LongType);

  /** {@code kg_default_label(key)}: the label of an unnamed entity (an IRI's readable local name). */
  public static final UserDefinedFunction DEFAULT_LABEL =
      functions.udf((UDF1<String, String>) Labels::defaultLabel, DataTypes.StringType);

  /** {@code kg_relation_text(relation)}: a relation's name as words ({@code directed_by} → {@code directed by}). */
  public static final UserDefinedFunction RELATION_TEXT =
      functions.udf((UDF1<String, String>) Labels::relationText, DataTypes.StringType);

  /** {@code kg_normalize(label)}: the folded form labels are matched in. */
  public static final UserDefinedFunction NORMALIZE =
      functions.udf((UDF1<String, String>) Labels::normalize, DataTypes.StringType);

  /** {@code kg_label_key(label)}: the key labels are matched by (hash of the normalised label). */
  public static final UserDefinedFunction LABEL_KEY =
      functions.udf((UDF1<String, Long>) StableIds::labelKey, DataTypes.LongType);

  /** {@code kg_path_id(node_ids)}: the stable id of a path (array of node ids). */
  public static final UserDefinedFunction PATH_ID =
      functions.udf(
          (UDF1<scala.collection.Seq<Long>, Long>) ids -> StableIds.pathId(SparkArrays.longs(ids)), DataTypes.LongType);

  /** {@code kg_path_label_key(label_keys)}: the label key of a whole path. */
  public static final UserDefinedFunction PATH_LABEL_KEY =
      functions.udf(
          (UDF1<scala.collection.Seq<Long>, Long>) keys -> StableIds.pathLabelKey(SparkArrays.longs(keys)), DataTypes.LongType);

  /**
   * One SQL function: its name, the UDF, its arguments (the names {@code DESCRIBE FUNCTION} shows) and what it
   * returns.
   */
  public record Definition(String name, UserDefinedFunction udf, List<String> arguments, String returns) {
    /** {@code name(arg, ...) - returns}, the usage line {@code DESCRIBE FUNCTION} prints. */
    public String usage() {
      return name + "(" + String.join(", ", arguments) + ") - " + returns;
    }
  }

  /** Every function, in the order of this class. */
  public static final List<Definition> ALL = List.of(
      new Definition("kg_entity_id", ENTITY_ID, List.of("key"), "the stable 64-bit id of an entity key"),
      new Definition("kg_edge_id", EDGE_ID, List.of("src_key", "relation", "dst_key"), "the stable id of an edge"),
      new Definition("kg_default_label", DEFAULT_LABEL, List.of("key"), "the label of an unnamed entity (an IRI's readable local name)"),
      new Definition("kg_relation_text", RELATION_TEXT, List.of("relation"), "a relation's name as words (directed_by -> directed by)"),
      new Definition("kg_normalize", NORMALIZE, List.of("label"), "the folded form labels are matched in"),
      new Definition("kg_label_key", LABEL_KEY, List.of("label"), "the key labels are matched by (hash of the normalised label)"),
      new Definition("kg_path_id", PATH_ID, List.of("node_ids"), "the stable id of a path (array of node ids)"),
      new Definition("kg_path_label_key", PATH_LABEL_KEY, List.of("label_keys"), "the label key of a whole path"));

  /**
   * Registers every function {@code spark} lacks by its SQL name (as a session function). A session started with
   * {@link KgragExtensions} in {@code spark.sql.extensions} has them all already, and keeps those; this serves
   * sessions that were not.
   */
  public static void register(SparkSession spark) {
    for (Definition d : ALL) {
      if (!spark.sessionState().functionRegistry().functionExists(FunctionIdentifier.apply(d.name()))) {
        spark.udf().register(d.name(), d.udf());
      }
    }
  }
}
