package io.kgrag.core.qa.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.graph.KnowledgeGraph;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A context's graph is read from its source once per JVM, however many tasks ask at once, and serialising the
 * context after it was read carries the source only, never the graph read.
 */
class ShippedGraphTest {
  /** Counts reads in this JVM; builds a graph of {@code n} nodes in a chain on each. */
  record CountingSource(int n) implements GraphSource {
    static final AtomicInteger READS = new AtomicInteger();

    @Override
    public KnowledgeGraph read() {
      READS.incrementAndGet();
      KnowledgeGraph.Builder b = KnowledgeGraph.builder();
      for (int i = 0; i < n; i++) {
        b.entity(i, "node number " + i);
      }
      for (int i = 1; i < n; i++) {
        b.edge(i - 1, "next", i);
      }
      return b.build();
    }

    @Override
    public long entityRows() {
      return n;
    }

    @Override
    public long edgeRows() {
      return n - 1;
    }
  }

  @Test
  void readOncePerJvmAndNeverSerialisedWithTheGraph() throws Exception {
    CountingSource.READS.set(0);
    ShippedGraph shipped = new ShippedGraph(new CountingSource(5_000));
    byte[] before = serialise(shipped);

    List<Thread> tasks = new ArrayList<>();
    List<KnowledgeGraph> seen = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 8; t++) {
      Thread th = new Thread(() -> {
        seen.add(shipped.graph());
        shipped.gazetteer();
      });
      tasks.add(th);
      th.start();
    }
    for (Thread th : tasks) {
      th.join();
    }
    assertEquals(1, CountingSource.READS.get(), "eight tasks, one read");
    for (KnowledgeGraph g : seen) {
      assertSame(seen.get(0), g);
    }
    assertEquals(5_000, shipped.graph().nodeCount());
    assertSame(shipped.gazetteer(), shipped.gazetteer());

    byte[] after = serialise(shipped);
    assertEquals(before.length, after.length, "the graph read is not serialised");
    assertTrue(after.length < 1_000, after.length + " bytes");
    ShippedGraph copy = (ShippedGraph) new ObjectInputStream(new ByteArrayInputStream(after)).readObject();
    assertNotSame(shipped.graph(), copy.graph());
    assertEquals(2, CountingSource.READS.get(), "another JVM's copy reads its own");
    assertEquals(shipped.graph().label(4_321), copy.graph().label(4_321));
  }

  @Test
  void aHeldGraphIsTheGraphItself() {
    KnowledgeGraph g = new CountingSource(3).read();
    GraphSource held = GraphSource.of(g);
    assertSame(g, new ShippedGraph(held).graph());
    assertEquals(3, held.entityRows());
    assertEquals(2, held.edgeRows());
  }

  private static byte[] serialise(Object o) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }
}
