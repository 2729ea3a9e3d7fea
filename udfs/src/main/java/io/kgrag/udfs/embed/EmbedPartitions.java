package io.kgrag.udfs.embed;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Embeds a text column on the executors: one {@link Embedder} per partition (what the DJL Spark extension
 * does), fed in batches, closed when the partition is done. The model itself is loaded once per executor
 * JVM by the embedder implementation.
 */
public final class EmbedPartitions {
  private EmbedPartitions() {}

  /**
   * Returns {@code df} with an {@code array<float>} column {@code outCol} holding the embedding of
   * {@code textCol} (null texts embed as the empty string).
   *
   * @param rowsPerCall rows handed to the embedder at once (it batches further by its own batch size)
   */
  public static Dataset<Row> embed(Dataset<Row> df, String textCol, String outCol, EmbedderSpec spec, int rowsPerCall) {
    StructType in = df.schema();
    int textIdx = in.fieldIndex(textCol);
    StructType out = in.add(outCol, DataTypes.createArrayType(DataTypes.FloatType, false), false);
    int width = in.size();
    MapPartitionsFunction<Row, Row> f =
        rows -> new EmbeddingIterator(rows, spec, textIdx, width, rowsPerCall);
    return df.mapPartitions(f, Encoders.row(out));
  }

  private static final class EmbeddingIterator implements Iterator<Row> {
    private final Iterator<Row> rows;
    private final EmbedderSpec spec;
    private final int textIdx;
    private final int width;
    private final int chunk;
    private Embedder embedder;
    private final List<Row> pending = new ArrayList<>();
    private float[][] vectors;
    private int pos;

    EmbeddingIterator(Iterator<Row> rows, EmbedderSpec spec, int textIdx, int width, int chunk) {
      this.rows = rows;
      this.spec = spec;
      this.textIdx = textIdx;
      this.width = width;
      this.chunk = chunk;
    }

    @Override
    public boolean hasNext() {
      if (pos < pending.size()) {
        return true;
      }
      pending.clear();
      pos = 0;
      while (pending.size() < chunk && rows.hasNext()) {
        pending.add(rows.next());
      }
      if (pending.isEmpty()) {
        if (embedder != null) {
          embedder.close();
          embedder = null;
        }
        return false;
      }
      if (embedder == null) {
        embedder = spec.open();
      }
      List<String> texts = new ArrayList<>(pending.size());
      for (Row r : pending) {
        String t = r.isNullAt(textIdx) ? "" : r.getString(textIdx);
        texts.add(t);
      }
      vectors = embedder.embed(texts);
      return true;
    }

    @Override
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Row r = pending.get(pos);
      Object[] values = new Object[width + 1];
      for (int i = 0; i < width; i++) {
        values[i] = r.get(i);
      }
      float[] v = vectors[pos++];
      Float[] boxed = new Float[v.length];
      for (int i = 0; i < v.length; i++) {
        boxed[i] = v[i];
      }
      values[width] = boxed;
      return RowFactory.create(values);
    }
  }
}
