package io.kgrag.jobs.internal.data;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/** Building rows of the result tables from parts. */
public final class Rows {
  private Rows() {}

  /** {@code head}'s values with {@code columns} after them (a job's common columns, then a method's or a stage's own). */
  public static Row append(Row head, Object... columns) {
    Object[] v = new Object[head.size() + columns.length];
    for (int i = 0; i < head.size(); i++) {
      v[i] = head.get(i);
    }
    System.arraycopy(columns, 0, v, head.size(), columns.length);
    return RowFactory.create(v);
  }
}
