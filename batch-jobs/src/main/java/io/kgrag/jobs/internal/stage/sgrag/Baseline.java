package io.kgrag.jobs.internal.stage.sgrag;

import static org.apache.spark.sql.functions.col;

import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * What an index stage last left behind, from its newest succeeded row in {@code runs} (a {@code kgrag
 * index} stage or its {@code reindex-} counterpart, for the same input): the versions it read and the
 * versions of the tables it maintains. A reindex stage diffs from it only when it still describes the
 * tables (nobody wrote them since); otherwise {@link #problem} says why and the stage builds in full.
 */
public final class Baseline {
  private final Map<String, Long> versions;
  private final String runId;

  private Baseline(String runId, Map<String, Long> versions) {
    this.runId = runId;
    this.versions = versions;
  }

  /** The newest succeeded row of {@code stage} or {@code reindex-<stage>} with this input, or null. */
  public static Baseline find(Catalog catalog, String stage, String input) {
    if (!catalog.exists(KgTable.RUNS)) {
      return null;
    }
    List<Row> rows =
        catalog.read(KgTable.RUNS)
            .filter(col("status").equalTo("succeeded").and(col("stage").isin(stage, "reindex-" + stage)).and(col("input").equalTo(input)))
            .orderBy(col("started_at").desc(), col("run_id").desc())
            .select("run_id", "versions")
            .limit(1)
            .collectAsList();
    if (rows.isEmpty()) {
      return null;
    }
    Map<String, Long> v = new LinkedHashMap<>();
    if (!rows.get(0).isNullAt(1)) {
      v.putAll(rows.get(0).getJavaMap(1));
    }
    return new Baseline(rows.get(0).getString(0), v);
  }

  /** Run id of the row. */
  public String runId() {
    return runId;
  }

  /** The version of input {@code t} the stage read. */
  public long read(KgTable t) {
    return versions.get(StageInputs.READ + t.tableName());
  }

  /**
   * Why this row cannot be diffed from, or null: it must name every input's read version, and each table in
   * {@code outputs} must still be at the version the row left it at.
   */
  public String problem(Catalog catalog, List<KgTable> inputs, List<KgTable> outputs) {
    for (KgTable t : inputs) {
      if (!versions.containsKey(StageInputs.READ + t.tableName())) {
        return "run " + runId + " recorded no version of " + t.tableName() + " it read";
      }
    }
    for (KgTable t : outputs) {
      Long v = versions.get(t.tableName());
      long now = catalog.version(t);
      if (v == null || v != now) {
        return t.tableName() + " is at version " + now + ", not the " + v + " run " + runId + " left";
      }
    }
    return null;
  }

  /** The problem of a missing row. */
  public static String missing(String stage) {
    return "no earlier " + stage + " run recorded in runs";
  }
}
