package io.kgrag.core.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.runs.SnapshotRule.Choice;
import io.kgrag.core.runs.SnapshotRule.StageRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SnapshotRuleTest {
  private static final Set<String> SGRAG = Set.of("path-index", "reindex-path-index");

  /** The rows `kgrag index` writes: ingest, embed, gnn, paths, path-index, each reading what the one before wrote. */
  private static List<StageRow> fullBuild() {
    List<StageRow> rows = new ArrayList<>();
    rows.add(new StageRow("build", "ingest", 1, Map.of("entities", 0L, "relations", 0L)));
    rows.add(new StageRow("build", "embed", 2, Map.of("read.entities", 0L, "read.relations", 0L, "entity_embeddings", 0L, "relation_embeddings", 0L)));
    rows.add(new StageRow("build", "gnn", 3,
        Map.of("read.entities", 0L, "read.relations", 0L, "read.entity_embeddings", 0L, "gnn_models", 0L, "node_dominance", 0L)));
    rows.add(new StageRow("build", "paths", 4, Map.of("read.relations", 0L, "read.node_dominance", 0L, "paths", 0L)));
    rows.add(new StageRow("build", "path-index", 5, Map.of("read.paths", 0L, "path_index", 0L, "path_partitioning", 0L)));
    return rows;
  }

  private static Map<String, Long> latest(long entities, long relations, long embeddings, long dominance, long paths, long index) {
    return Map.of("entities", entities, "relations", relations, "entity_embeddings", embeddings, "relation_embeddings", embeddings,
        "gnn_models", 0L, "node_dominance", dominance, "paths", paths, "path_index", index, "path_partitioning", 0L);
  }

  @Test
  void midReindexEntitiesCommittedButPathsNotYetReadsTheLastCompleteBuild() {
    List<StageRow> rows = fullBuild();
    // reindex-b: ingest --append committed entities 1 and relations 1, embed committed 1; gnn, paths and path-index not yet
    rows.add(new StageRow("reindex-b", "ingest", 10, Map.of("entities", 1L, "relations", 1L)));
    rows.add(new StageRow("reindex-b", "embed", 11,
        Map.of("read.entities", 1L, "read.relations", 1L, "entity_embeddings", 1L, "relation_embeddings", 1L)));
    // reindex-gnn has committed node_dominance 1 but its runs row is not written yet: the latest version is 1
    Choice c = SnapshotRule.choose(SGRAG, rows, latest(1, 1, 1, 1, 0, 0));
    assertEquals(latest(0, 0, 0, 0, 0, 0), c.versions(), "every table at the version the last complete build left it: " + c);
    assertEquals("path-index", c.anchor().stage());
    assertEquals("build", c.anchor().runId());
    assertEquals(List.of("path-index", "paths", "gnn", "ingest", "embed"), c.chain().stream().map(StageRow::stage).toList());
    assertTrue(c.notes().isEmpty(), c.notes().toString());
  }

  @Test
  void aCompletedReindexIsReadInFullAndAReaderNeedingLessFollowsItsOwnLastStage() {
    List<StageRow> rows = fullBuild();
    rows.add(new StageRow("reindex-b", "ingest", 10, Map.of("entities", 1L, "relations", 1L)));
    rows.add(new StageRow("reindex-b", "embed", 11,
        Map.of("read.entities", 1L, "read.relations", 1L, "entity_embeddings", 1L, "relation_embeddings", 1L)));
    // SimGRAG, QAFD, SRAG end at embed: they see the new graph as soon as embed's row is written
    Choice embedOnly = SnapshotRule.choose(Set.of("embed"), rows, latest(1, 1, 1, 0, 0, 0));
    assertEquals(1L, embedOnly.versions().get("entities"));
    assertEquals(1L, embedOnly.versions().get("relation_embeddings"));

    rows.add(new StageRow("reindex-b", "reindex-gnn", 12,
        Map.of("read.entities", 1L, "read.relations", 1L, "read.entity_embeddings", 1L, "node_dominance", 1L)));
    rows.add(new StageRow("reindex-b", "reindex-paths", 13, Map.of("read.relations", 1L, "read.node_dominance", 1L, "paths", 1L)));
    rows.add(new StageRow("reindex-b", "reindex-path-index", 14, Map.of("read.paths", 1L, "path_index", 1L, "path_partitioning", 0L)));
    Choice c = SnapshotRule.choose(SGRAG, rows, latest(1, 1, 1, 1, 1, 1));
    assertEquals(latest(1, 1, 1, 1, 1, 1), c.versions());
    assertEquals("reindex-b", c.anchor().runId());
    // gnn_models: reindex-gnn kept the model and wrote no version of it; the latest is the one the build used
    assertEquals(0L, c.versions().get("gnn_models"));
  }

  @Test
  void aReadVersionWinsOverAnUpstreamRowsOtherOutputAndAMixedBuildIsReported() {
    List<StageRow> rows = fullBuild();
    // a label-only ingest: entities 1, relations unchanged at 0; gnn read entities 1, paths read relations 0
    rows.add(new StageRow("names", "ingest", 10, Map.of("entities", 1L, "relations", 0L)));
    rows.add(new StageRow("names", "embed", 10,
        Map.of("read.entities", 1L, "read.relations", 0L, "entity_embeddings", 1L, "relation_embeddings", 0L)));
    rows.add(new StageRow("names", "gnn", 11,
        Map.of("read.entities", 1L, "read.relations", 0L, "read.entity_embeddings", 1L, "node_dominance", 1L)));
    rows.add(new StageRow("names", "paths", 12, Map.of("read.relations", 0L, "read.node_dominance", 1L, "paths", 1L)));
    rows.add(new StageRow("names", "path-index", 13, Map.of("read.paths", 1L, "path_index", 1L)));
    Choice c = SnapshotRule.choose(SGRAG, rows, latest(1, 0, 1, 1, 1, 1));
    assertEquals(1L, c.versions().get("entities"), "what gnn read, not the entities 0 the first ingest wrote beside relations 0");
    assertTrue(c.notes().isEmpty(), c.notes().toString());

    // a build whose paths stage read relations 2 while gnn had read relations 1
    rows.add(new StageRow("mixed", "ingest", 20, Map.of("entities", 2L, "relations", 2L)));
    rows.add(new StageRow("mixed", "paths", 21, Map.of("read.relations", 2L, "read.node_dominance", 1L, "paths", 2L)));
    rows.add(new StageRow("mixed", "path-index", 22, Map.of("read.paths", 2L, "path_index", 2L)));
    Choice mixed = SnapshotRule.choose(SGRAG, rows, latest(2, 2, 1, 1, 2, 2));
    assertEquals(2L, mixed.versions().get("relations"), "the stage nearest the anchor wins");
    assertEquals(1L, mixed.versions().get("entities"), "what the gnn row of the chain read");
    assertEquals(2, mixed.notes().size(), "gnn and the embed behind it read relations 0: " + mixed.notes());
    assertTrue(mixed.notes().get(0).contains("gnn of run names read relations at version 0, a later stage at 2"), mixed.notes().toString());
  }

  @Test
  void withoutAnAnchorEveryTableIsReadAtItsLatestVersion() {
    Map<String, Long> latest = latest(3, 3, 2, 1, 1, 1);
    Choice c = SnapshotRule.choose(SGRAG, List.of(new StageRow("x", "ingest", 1, Map.of("entities", 3L))), latest);
    assertEquals(latest, c.versions());
    assertNull(c.anchor());
    assertTrue(c.notes().get(0).contains("no succeeded path-index or reindex-path-index run") || c.notes().get(0).contains("no succeeded reindex-path-index or path-index run"),
        c.notes().toString());
  }

  @Test
  void aRecordedVersionPastTheTablesLatestFallsBackToTheLatestAndSaysSo() {
    Choice c = SnapshotRule.choose(SGRAG, fullBuild(), Map.of("entities", 0L, "paths", 0L));
    assertEquals(Map.of("entities", 0L, "paths", 0L), c.versions(), "only the tables asked for");
    List<StageRow> rows = new ArrayList<>(fullBuild());
    rows.add(new StageRow("later", "path-index", 9, Map.of("read.paths", 5L, "path_index", 5L)));
    Choice recreated = SnapshotRule.choose(SGRAG, rows, Map.of("paths", 1L, "path_index", 1L));
    assertEquals(Map.of("paths", 1L, "path_index", 1L), recreated.versions());
    assertEquals(2, recreated.notes().size(), recreated.notes().toString());
  }
}
