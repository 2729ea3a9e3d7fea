package io.kgrag.jobs.internal.stage.text;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;

/** What the text reindex tests compare: a table's rows without run ids, and one stage run's counts. */
final class TextTables {
  private TextTables() {}

  /** Every row of {@code t} in the warehouse at {@code wh}, run_id left out, as sorted strings. */
  static List<String> table(Path wh, KgTable t) {
    Catalog c = new Catalog(SparkTestSession.get(), wh.toString());
    String[] cols = Arrays.stream(c.read(t).columns()).filter(n -> !n.equals("run_id")).toArray(String[]::new);
    return c.read(t).selectExpr(cols).collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }

  /** The {@code rows} map of run {@code runId}'s one succeeded run of {@code stage}. */
  static Map<String, Long> rows(Catalog c, String runId, String stage) {
    List<Row> r = c.read(KgTable.RUNS).filter(col("run_id").equalTo(runId).and(col("stage").equalTo(stage))).select("rows", "status").collectAsList();
    assertEquals(1, r.size(), stage + " of " + runId + ": " + c.read(KgTable.RUNS).select("run_id", "stage").collectAsList());
    assertEquals("succeeded", r.get(0).getString(1));
    return new TreeMap<>(r.get(0).getJavaMap(0));
  }
}
