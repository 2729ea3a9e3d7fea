package io.kgrag.jobs.internal.stage;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code read.<table>} entries of a stage's runs row ({@code versions} column): the Delta versions of the
 * tables it read ({@link Stage#reads()}) its result reflects, from which the next {@code kgrag reindex} of the
 * stage diffs, and through which a QA snapshot follows a build back ({@link io.kgrag.jobs.catalog.Catalog#snapshot}).
 */
public final class StageInputs {
  /** Prefix of the read versions in a runs row's versions map. */
  public static final String READ = "read.";

  private StageInputs() {}

  /** The current version of each of {@code reads} (a stage's inputs) that exists. */
  public static Map<KgTable, Long> snapshot(Catalog catalog, List<KgTable> reads) {
    Map<KgTable, Long> out = new LinkedHashMap<>();
    for (KgTable t : reads) {
      long v = catalog.version(t);
      if (v >= 0) {
        out.put(t, v);
      }
    }
    return out;
  }

  /** Adds {@code read.<table>} entries to {@code report} (an index stage's inputs, or what a QA run read through its snapshot). */
  public static StageReport record(StageReport report, Map<KgTable, Long> read) {
    read.forEach((t, v) -> report.version(READ + t.tableName(), v));
    return report;
  }
}
