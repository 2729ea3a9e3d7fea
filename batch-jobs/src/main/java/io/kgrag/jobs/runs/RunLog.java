package io.kgrag.jobs.runs;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.sql.RowFactory;

/** Records stage runs in the {@code runs} table and prints their progress lines. */
public final class RunLog {
  private static final Logger LOG = LogManager.getLogger("io.kgrag.progress");

  private final Catalog catalog;
  private final String runId;

  /**
   * @throws io.kgrag.core.UserInputException naming the key, when {@value StageProgress#INTERVAL} is set to a bad
   *     value
   */
  public RunLog(Catalog catalog, String runId) {
    this.catalog = catalog;
    this.runId = runId;
    // the session's conf holds the profile's spark.* entries and runtime settings (no import of conf: it imports runs)
    StageProgress.configure(catalog.spark().conf().get(StageProgress.INTERVAL, null));
  }

  public String runId() {
    return runId;
  }

  /** A new run id: UTC time plus a short random suffix, e.g. {@code 20261122-001502-3fa9}. */
  public static String newRunId() {
    return LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT))
        + "-" + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
  }

  /**
   * {@code id} checked as a run id: not blank, no quotes, backslashes or control characters (it is written into a
   * SQL predicate).
   *
   * @throws io.kgrag.core.UserInputException otherwise
   */
  public static String checkRunId(String id) {
    if (id == null || id.isBlank()) {
      throw new io.kgrag.core.UserInputException("--run-id must not be empty");
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c == '\'' || c == '"' || c == '`' || c == '\\' || Character.isISOControl(c)) {
        throw new io.kgrag.core.UserInputException(
            "--run-id '" + id.replaceAll("\\p{Cntrl}", "?") + "' must not contain quotes, backslashes or control characters");
      }
    }
    return id;
  }
  /** Prints a progress line without recording anything (sub-steps, notices). */
  public static void progress(String line) {
    StageProgress.global().clear();
    LOG.info(line);
  }

  /**
   * Prints the stage's progress line and appends its row to {@code runs}; the row's {@code rows} also get the
   * stage's Spark usage ({@link StageReport#usage()}).
   */
  public void succeeded(StageReport r) {
    r.finish();
    StageProgress.global().end(r);
    LOG.info(r.line());
    write(r, "succeeded", r.line());
  }

  /** Appends a failed stage's row to {@code runs} (best effort: never hides the original error). */
  public void failed(StageReport r, Throwable error) {
    r.finish();
    StageProgress.global().end(r);
    try {
      String msg = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
      write(r, "failed", msg.length() > 2000 ? msg.substring(0, 2000) : msg);
    } catch (RuntimeException e) {
      error.addSuppressed(e);
    }
  }

  private void write(StageReport r, String status, String message) {
    var rows = new java.util.LinkedHashMap<>(r.rows());
    rows.putAll(r.usage());
    var row =
        RowFactory.create(
            runId,
            r.stage(),
            r.input(),
            Timestamp.from(r.startedAt()),
            r.durationMs(),
            rows,
            new java.util.LinkedHashMap<>(r.versions()),
            status,
            message);
    catalog.append(KgTable.RUNS, catalog.spark().createDataFrame(List.of(row), KgTable.RUNS.schema()));
  }
}
