package io.kgrag.core.qafd.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaGraphTest {
  private final SchemaGraph g = TestSchema.schema();

  private boolean joined(String a, String b) {
    int x = g.indexOf(a);
    int y = g.indexOf(b);
    return g.joins().stream().anyMatch(e -> (e[0] == x && e[1] == y) || (e[0] == y && e[1] == x));
  }

  private List<String> neighbours(String name) {
    int v = g.indexOf(name);
    List<String> out = new ArrayList<>();
    for (int k = 0; k < g.graph().entryCount(v); k++) {
      out.add(g.node(g.graph().entryNeighbour(v, k)).name());
    }
    return out;
  }

  @Test
  void oneNodePerTableAndPerColumnNamedTableDotColumn() {
    int columns = TestSchema.tables().stream().mapToInt(t -> t.columns().size()).sum();
    assertEquals(6 + columns, g.nodeCount());
    assertEquals(0, g.indexOf("kgrag.runs"));
    assertEquals(SchemaGraph.Kind.TABLE, g.node(g.indexOf("kgrag.answers")).kind());
    SchemaGraph.Node runId = g.node(g.indexOf("kgrag.answers.run_id"));
    assertEquals(SchemaGraph.Kind.COLUMN, runId.kind());
    assertEquals("kgrag.answers", runId.table());
    assertEquals("run_id", runId.column());
    assertEquals("string", runId.type());
    // exact names only, case included
    assertEquals(-1, g.indexOf("KGRAG.answers.run_id"));
    assertEquals(-1, g.indexOf("answers.run_id"));
  }

  @Test
  void membershipAndSharedKeyAndAliasEdges() {
    assertTrue(neighbours("kgrag.answers.run_id").contains("kgrag.answers"));
    assertTrue(joined("kgrag.answers.run_id", "kgrag.runs.run_id"));
    assertTrue(joined("kgrag.answers.run_id", "kgrag.evidence.run_id"));
    assertTrue(joined("kgrag.answers.qid", "kgrag.questions.qid"));
    assertTrue(joined("kgrag.evidence.src", "kgrag.entities.entity_id"));
    assertTrue(joined("kgrag.evidence.dst", "kgrag.entities.entity_id"));
    // a shared name that is not a key makes no edge
    assertFalse(joined("kgrag.answers.status", "kgrag.runs.status"));
    // the alias to a table this schema lacks is skipped, not an error
    assertEquals(List.of(new SchemaGraph.Alias("kgrag.relations.src_id", "kgrag.entities.entity_id")), g.skippedAliases());
    // the table of cached replies shares no key: its own component
    assertEquals(List.of("kgrag.llm_cache"), neighbours("kgrag.llm_cache.model"));
    // a key in only one place joins nothing; no join inside a table
    for (int[] e : g.joins()) {
      assertFalse(g.node(e[0]).table().equals(g.node(e[1]).table()), g.node(e[0]).name());
      assertTrue(e[0] < e[1]);
    }
    assertEquals(g.joins().size() + g.nodeCount() - 6, g.edges().size());
  }

  @Test
  void nodeTextsAndSummary() {
    assertEquals("answers run id: string", g.text(g.indexOf("kgrag.answers.run_id")));
    assertEquals("runs table: one row per job stage run", g.text(g.indexOf("kgrag.runs")));
    String s = g.summary();
    assertTrue(s.contains("Table kgrag.answers -- the answer to each question of a run\n  kgrag.answers.run_id (string)\n"), s);
    assertTrue(s.contains("  kgrag.runs.run_id = kgrag.answers.run_id\n"), s);
    assertTrue(s.contains("  kgrag.evidence.src = kgrag.entities.entity_id"), s);
    assertEquals(s, TestSchema.schema().summary());
  }

  @Test
  void badInputIsRefused() {
    SchemaGraph.Table t = TestSchema.table("kgrag.x", "", "a:int");
    assertThrows(IllegalArgumentException.class, () -> SchemaGraph.of(List.of(t, t), SchemaGraph.Keys.NONE));
    assertThrows(IllegalArgumentException.class, () -> SchemaGraph.of(List.of(TestSchema.table("kgrag.y", "", "a:int", "a:string")), SchemaGraph.Keys.NONE));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SchemaGraph.Keys.parse(List.of("key a", "join a b")));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new SchemaGraph.Column(" a", "int", null));
  }
}
