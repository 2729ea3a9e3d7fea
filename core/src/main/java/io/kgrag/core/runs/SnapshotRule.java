package io.kgrag.core.runs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which Delta version of each index table a reader (a QA run) reads, so that it sees one consistent build
 * even while a re-index commits: the versions of the last <em>complete</em> build, found in the runs log.
 *
 * <p>The rule: take the newest succeeded row of the last stage the reader needs (its <em>anchor</em>, e.g.
 * {@code path-index} or {@code reindex-path-index} for SG-RAG). Pin the tables that row wrote at the versions
 * it wrote, and each table it read at the version it read ({@code read.<table>} in its versions map); then
 * follow each read version to the newest row that wrote that table at exactly that version, and do the same
 * with that row, back to the ingest. A read version always wins over a version another output of an upstream
 * row names, and the stage nearest the anchor wins when two stages read a table at different versions (the
 * build itself mixed them; {@link Choice#notes} says so). A stage's row is written only after its commits, so
 * a stage still running, or one that failed, is never followed: mid re-index (entities committed, paths not
 * yet) the choice is still the previous build's versions.
 *
 * <p>Tables no row of the chain names are pinned at their latest version (when the choice is made), as is
 * every table when no anchor row exists (a warehouse built before the runs log recorded read versions).
 * Spark-free: the caller reads the runs rows and the latest versions.
 */
public final class SnapshotRule {
  /** Prefix of the read versions in a runs row's versions map. */
  public static final String READ = "read.";

  private SnapshotRule() {}

  /**
   * One succeeded row of the runs table.
   *
   * @param order orders rows by when they started (newer is larger), e.g. started_at in milliseconds
   * @param versions the row's versions map: {@code <table>} for a version it wrote, {@code read.<table>} for
   *     one it read
   */
  public record StageRow(String runId, String stage, long order, Map<String, Long> versions) {
    public StageRow {
      Objects.requireNonNull(runId, "runId");
      Objects.requireNonNull(stage, "stage");
      versions = Map.copyOf(versions);
    }
  }

  /**
   * The chosen version of each table.
   *
   * @param versions table name to Delta version, for every table of {@code latest}
   * @param anchor the row the choice followed back from, or null when none was found (every table at its latest)
   * @param chain the rows followed, anchor first
   * @param notes what the caller may want to print: no anchor, a build that read a table at two versions, a
   *     recorded version the table no longer has
   */
  public record Choice(Map<String, Long> versions, StageRow anchor, List<StageRow> chain, List<String> notes) {}

  /**
   * Chooses the versions (see the class comment).
   *
   * @param anchors the names of the stage(s) whose newest succeeded row ends the build the reader needs
   * @param rows succeeded runs rows (any order; rows of other stages are ignored unless the chain reaches them)
   * @param latest the latest version of each table the snapshot pins (tables that do not exist left out)
   */
  public static Choice choose(Collection<String> anchors, Collection<StageRow> rows, Map<String, Long> latest) {
    List<StageRow> newestFirst = new ArrayList<>(rows);
    newestFirst.sort(Comparator.comparingLong(StageRow::order).thenComparing(StageRow::runId).reversed());
    StageRow anchor = newestFirst.stream().filter(r -> anchors.contains(r.stage())).findFirst().orElse(null);
    List<String> notes = new ArrayList<>();
    if (anchor == null) {
      notes.add("no succeeded " + String.join(" or ", anchors) + " run in runs: every table read at its latest version");
      return new Choice(Map.copyOf(latest), null, List.of(), notes);
    }
    Map<String, Long> pins = new LinkedHashMap<>();
    Set<StageRow> chain = new LinkedHashSet<>();
    Deque<StageRow> todo = new ArrayDeque<>();
    todo.add(anchor);
    chain.add(anchor);
    while (!todo.isEmpty()) {
      StageRow r = todo.poll();
      for (Map.Entry<String, Long> e : new TreeMap<>(r.versions()).entrySet()) { // by name: the same choice every time
        if (!e.getKey().startsWith(READ)) {
          continue;
        }
        String table = e.getKey().substring(READ.length());
        long v = e.getValue();
        Long had = pins.putIfAbsent(table, v);
        if (had != null) {
          if (had != v) {
            notes.add("stage " + r.stage() + " of run " + r.runId() + " read " + table + " at version " + v + ", a later stage at " + had
                + ": reading " + had);
          }
          continue;
        }
        newestFirst.stream()
            .filter(w -> !chain.contains(w) && Long.valueOf(v).equals(w.versions().get(table)))
            .findFirst()
            .ifPresent(w -> {
              chain.add(w);
              todo.add(w);
            });
      }
    }
    for (StageRow r : chain) { // then what the chain's rows wrote, for tables no stage of it read
      new TreeMap<>(r.versions()).forEach((k, v) -> {
        if (!k.startsWith(READ)) {
          pins.putIfAbsent(k, v);
        }
      });
    }
    Map<String, Long> out = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : latest.entrySet()) {
      Long v = pins.get(e.getKey());
      if (v == null) {
        out.put(e.getKey(), e.getValue());
      } else if (v > e.getValue()) {
        notes.add(e.getKey() + " is at version " + e.getValue() + " but run " + anchor.runId() + "'s build recorded " + v
            + " (the table was recreated?): reading " + e.getValue());
        out.put(e.getKey(), e.getValue());
      } else {
        out.put(e.getKey(), v);
      }
    }
    return new Choice(out, anchor, List.copyOf(chain), notes);
  }
}
