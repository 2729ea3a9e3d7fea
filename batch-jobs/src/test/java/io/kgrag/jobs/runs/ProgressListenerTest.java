package io.kgrag.jobs.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.SparkTestSession;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Real Spark events reach a stage's progress: once its jobs are done, every task they counted is done. */
class ProgressListenerTest {

  @Test
  void countsTheTasksOfTheJobsRunWhileTheStageIsOpen() throws Exception {
    SparkSession spark = SparkTestSession.get();
    SparkContext sc = spark.sparkContext();
    List<String> lines = new ArrayList<>();
    StageProgress p = new StageProgress(() -> 0L, lines::add, s -> {}, false, 30);
    ProgressListener listener = new ProgressListener(p);
    sc.addSparkListener(listener);
    try {
      Object report = new Object();
      p.begin(report, "test");
      long n = spark.range(0, 10_000, 1, 4).selectExpr("id % 7 AS k").groupBy("k").count().count();
      assertEquals(7, n);
      sc.listenerBus().waitUntilEmpty(10_000);
      Matcher m = Pattern.compile("test: ([\\d,]+)/([\\d,]+) tasks so far \\(100%\\), 0 s").matcher(p.text(0));
      assertTrue(m.matches(), p.text(0));
      assertEquals(m.group(1), m.group(2));
      assertTrue(Long.parseLong(m.group(2).replace(",", "")) >= 4, "at least the 4 tasks of the range: " + p.text(0));
      p.end(report);
      spark.range(0, 100, 1, 2).count();
      sc.listenerBus().waitUntilEmpty(10_000);
      assertEquals(List.of(), lines, "the clock stood still: no update line");
    } finally {
      sc.removeSparkListener(listener);
    }
  }
}
