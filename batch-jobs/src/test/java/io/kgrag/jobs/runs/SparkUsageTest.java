package io.kgrag.jobs.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The delta and formatting of {@link SparkUsage.Totals}, and the shape of a progress line. */
class SparkUsageTest {

  @Test
  void aStageGetsTheDifferenceOfTwoReadings() {
    SparkUsage.Totals start = new SparkUsage.Totals(5_000_000_000L, 100, 200, 300);
    SparkUsage.Totals end = new SparkUsage.Totals(46_234_000_000L, 12_400_100, 12_400_200, 9_800_300);
    SparkUsage.Totals d = end.minus(start);
    assertEquals(new SparkUsage.Totals(41_234_000_000L, 12_400_000, 12_400_000, 9_800_000), d);
    assertEquals(Map.of("cpu_ms", 41_234L, "shuffle_write_bytes", 12_400_000L, "shuffle_read_bytes", 12_400_000L, "input_bytes", 9_800_000L), d.rows());
    assertEquals("[cpu 41.2 s, shuffle 12.4 MB w / 12.4 MB r, input 9.8 MB]", d.text());
  }

  @Test
  void bytesInDecimalUnits() {
    assertEquals("0 B", SparkUsage.bytes(0));
    assertEquals("999 B", SparkUsage.bytes(999));
    assertEquals("1.0 kB", SparkUsage.bytes(1000));
    assertEquals("1.0 MB", SparkUsage.bytes(999_999));
    assertEquals("3.2 GB", SparkUsage.bytes(3_210_000_000L));
  }

  @Test
  void theLineStillEndsWithItsSeconds() {
    StageReport r = new StageReport("ingest", "t.tsv").summary("3 lines read -> 2 entities, 1 relations").finish();
    String line = r.line();
    assertTrue(line.matches(".*\\(\\d+\\.\\d s\\)$"), line);
    assertTrue(r.lineWithoutUsage().matches("ingest     3 lines read -> 2 entities, 1 relations  \\(\\d+\\.\\d s\\)"), r.lineWithoutUsage());
    // with a listener registered (a session in this JVM) the figures sit between the summary and the seconds
    assertEquals(!r.usage().isEmpty(), line.contains("relations  [cpu "), line);
  }
}
