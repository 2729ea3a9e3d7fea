package io.kgrag.jobs.internal.stage.sgrag;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables each index stage reads, and the {@code read.<table>} entries of the {@code versions} column of
 * its runs row: the Delta versions its result reflects, from which the next {@code kgrag reindex} of the
 * stage diffs.
 */
public final class StageInputs {
  /** Prefix of the read versions in a runs row's versions map. */
  public static final String READ = "read.";

  private StageInputs() {}

  /**
   * The tables stage {@code stage} (embed, gnn, stem-gnn, paths, path-index, or their reindex-… names) reads; a QA
   * snapshot follows these recorded versions back to the build it reads ({@link io.kgrag.jobs.catalog.Catalog#snapshot}).
   */
  public static List<KgTable> of(String stage) {
    switch (stage.startsWith("reindex-") ? stage.substring("reindex-".length()) : stage) {
      case "embed":
        return List.of(KgTable.ENTITIES, KgTable.RELATIONS);
      case "gnn":
        return List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.ENTITY_EMBEDDINGS);
      case "paths":
        return List.of(KgTable.RELATIONS, KgTable.NODE_DOMINANCE);
      case "path-index":
        return List.of(KgTable.PATHS);
      case "stem-gnn":
        return List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.ENTITY_EMBEDDINGS, KgTable.RELATION_EMBEDDINGS);
      default:
        return List.of();
    }
  }

  /** The current version of each input of {@code stage} that exists. */
  public static Map<KgTable, Long> snapshot(Catalog catalog, String stage) {
    Map<KgTable, Long> out = new LinkedHashMap<>();
    for (KgTable t : of(stage)) {
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
