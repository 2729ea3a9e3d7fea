package io.kgrag.jobs.internal.stage.text;

import io.kgrag.core.text.TextGraph;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/** Column functions of the text ingest. */
final class TextUdfs {
  private TextUdfs() {}

  /** {@link TextGraph#entityKey}: the key of the entity an extracted name denotes. */
  static final UserDefinedFunction ENTITY_KEY =
      functions.udf((UDF1<String, String>) TextGraph::entityKey, DataTypes.StringType);
}
