package io.kgrag.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The graph built from rows does not depend on the order the rows came in (each JVM of a QA run reads the tables'
 * files itself, and Spark hands partitions over in an order that depends on the machine's cores): nodes are numbered
 * in entity-id order, relations in name order, and each node's entries in (relation, neighbour) order.
 */
class KnowledgeGraphTest {
  record Triple(long src, String relation, long dst) {}

  @Test
  void rowsInAnyOrderGiveTheSameGraph() {
    Random random = new Random(7);
    String[] relations = {"written_by", "directed_by", "has_genre", "starred_actors", "release_year"};
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      ids.add(1_000L + 37L * i);
    }
    List<Triple> edges = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      edges.add(new Triple(ids.get(random.nextInt(60)), relations[random.nextInt(relations.length)], ids.get(random.nextInt(60))));
    }
    KnowledgeGraph a = build(ids, edges);
    Collections.shuffle(ids, new Random(1));
    Collections.shuffle(edges, new Random(2));
    KnowledgeGraph b = build(ids, edges);

    assertEquals(List.of("directed_by", "has_genre", "release_year", "starred_actors", "written_by"), a.relationNames());
    assertEquals(a.relationNames(), b.relationNames());
    assertEquals(a.edgeCount(), b.edgeCount());
    for (int n = 0; n < a.nodeCount(); n++) {
      assertEquals(a.entityId(n), b.entityId(n));
      assertEquals(a.entryCount(n), b.entryCount(n));
      for (int k = 0; k < a.entryCount(n); k++) {
        assertEquals(a.entryNeighbour(n, k), b.entryNeighbour(n, k));
        assertEquals(a.entryRelationIndex(n, k), b.entryRelationIndex(n, k));
        assertEquals(a.entryOutgoing(n, k), b.entryOutgoing(n, k));
      }
    }
  }

  @Test
  void nodesComeInSignedIdOrderAndEachNodesOutgoingEdgesInRelationThenNeighbourOrder() {
    Random random = new Random(11);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ids.add(random.nextLong()); // content hashes: half of them negative
    }
    String[] relations = {"r" + 3, "r" + 1, "r" + 2};
    List<Triple> edges = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      edges.add(new Triple(ids.get(random.nextInt(40)), relations[random.nextInt(3)], ids.get(random.nextInt(200))));
    }
    edges.add(new Triple(ids.get(0), "r1", ids.get(0))); // a self loop
    edges.add(new Triple(ids.get(0), "r1", 42L)); // an end that is no entity
    KnowledgeGraph g = build(ids, edges);

    List<Long> sorted = new ArrayList<>(ids);
    Collections.sort(sorted);
    for (int n = 0; n < g.nodeCount(); n++) {
      assertEquals(sorted.get(n), g.entityId(n));
      assertEquals("entity " + sorted.get(n), g.label(n));
      assertEquals(n, g.index(sorted.get(n)));
    }
    assertEquals(-1, g.index(42L));
    long selfLoopsAndStrays = edges.stream().filter(t -> t.src() == t.dst() || !ids.contains(t.dst())).count();
    assertEquals(edges.size() - selfLoopsAndStrays, g.edgeCount());
    for (int n = 0; n < g.nodeCount(); n++) {
      long id = g.entityId(n);
      List<String> expected = new ArrayList<>();
      for (Triple t : edges) {
        if (t.src() == id && t.dst() != id && ids.contains(t.dst())) {
          expected.add(t.relation() + " " + String.format("%05d", g.index(t.dst())));
        }
      }
      Collections.sort(expected);
      List<String> outgoing = new ArrayList<>();
      for (int k = 0; k < g.entryCount(n); k++) {
        if (g.entryOutgoing(n, k)) {
          outgoing.add(g.entryRelation(n, k) + " " + String.format("%05d", g.entryNeighbour(n, k)));
        }
      }
      assertEquals(expected, outgoing, "node " + n);
    }
  }

  private static KnowledgeGraph build(List<Long> ids, List<Triple> edges) {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (long id : ids) {
      b.entity(id, "entity " + id);
    }
    for (Triple t : edges) {
      b.edge(t.src(), t.relation(), t.dst());
    }
    return b.build();
  }
}
