package io.kgrag.jobs.internal.stage.sgrag;

import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;
import java.util.Map;

/** The runs rows of reindex stages that did everything (a full build) or nothing. */
final class Reports {
  private Reports() {}

  /**
   * {@code report} for a full build that {@code full} (the {@code kgrag index} stage's report) did: its rows
   * and versions, {@code full_rebuild = 1}, the versions read, and why in the message.
   */
  static StageReport full(StageReport report, StageReport full, Map<KgTable, Long> read, String why) {
    full.rows().forEach(report::rows);
    full.versions().forEach(report::version);
    StageInputs.record(report, read);
    report.rows("full_rebuild", 1);
    report.summary("full build (" + why + "): " + full.finish().lineWithoutUsage().substring(full.stage().length()).trim());
    return report;
  }

  /** {@code report} for a run with nothing to do: every count of {@code work} 0, the outputs left as they are. */
  static StageReport nothing(StageReport report, Catalog catalog, List<KgTable> outputs, List<String> work, String why) {
    for (KgTable t : outputs) {
      report.version(t.tableName(), catalog.version(t));
    }
    for (String w : work) {
      report.rows(w, 0);
    }
    report.rows("full_rebuild", 0);
    report.summary("nothing to do: " + why);
    return report;
  }
}
