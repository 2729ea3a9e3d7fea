package io.kgrag.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link Index#run} built: the run id and each stage run, in order, with the figures of its row in
 * {@code kgrag.runs} and its progress line.
 *
 * @param runId the id the stages were recorded under
 * @param stages the stages run, in pipeline order
 */
public record IndexResult(String runId, List<Stage> stages) {
  public IndexResult {
    stages = List.copyOf(stages);
  }

  /**
   * One stage run.
   *
   * @param name the stage as the runs table names it ({@code ingest}, {@code embed}, {@code reindex-embed}, …)
   * @param rows row counts by name ({@code entities}, {@code relations}, …)
   * @param versions the Delta versions it wrote (by table name) and read ({@code read.<table>})
   * @param line its progress line, as {@code kgrag index} prints it
   */
  public record Stage(String name, Map<String, Long> rows, Map<String, Long> versions, String line) {
    public Stage {
      rows = Collections.unmodifiableMap(new LinkedHashMap<>(rows));
      versions = Collections.unmodifiableMap(new LinkedHashMap<>(versions));
    }
  }

  /** The stage named {@code name}, or null when it did not run. */
  public Stage stage(String name) {
    return stages.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
  }
}
