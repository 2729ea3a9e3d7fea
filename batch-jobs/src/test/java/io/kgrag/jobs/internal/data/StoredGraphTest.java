package io.kgrag.jobs.internal.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.qa.SharedContext;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * The graph a QA context ships as the files of its tables: small to ship, and read by an executor into the very
 * graph the driver would have loaded; a table whose files cannot be read row for row is loaded through Spark, and a
 * file gone while a run reads it is named with what to do.
 */
class StoredGraphTest {

  @Test
  void anExecutorReadsTheGraphTheDriverWouldHaveLoadedFromWhatIsShipped() throws Exception {
    SparkSession spark = SparkTestSession.get();
    Catalog catalog = new Catalog(spark, DemoWarehouse.metaqaGraphOnly("stored-graph").toString());
    KnowledgeGraph loaded = GraphLoader.load(catalog);

    GraphSource source = StoredGraph.of(catalog);
    assertFalse(source instanceof GraphSource.Held, "the graph travels as its files");
    assertEquals(catalog.read(KgTable.ENTITIES).count(), source.entityRows());
    assertEquals(catalog.read(KgTable.RELATIONS).count(), source.edgeRows());
    // what is shipped names the files, whatever the graph's size: none of its labels travels. The shipped bytes hold
    // file names with random digits and hex and Java's class and field names, so a label is looked for only where
    // it has a space, which none of those has ("1970" turned up in a random folder name once, "rome" in the rest)
    byte[] shipped = SharedContext.write(source);
    String text = new String(shipped, java.nio.charset.StandardCharsets.ISO_8859_1);
    int looked = 0;
    for (int n = 0; n < loaded.nodeCount(); n++) {
      String label = loaded.label(n);
      if (label.length() > 5 && label.contains(" ")) {
        looked++;
        assertFalse(text.contains(label), "label " + label + " is shipped");
      }
    }
    assertTrue(looked > 50, "labels looked for: " + looked);

    KnowledgeGraph read = ((GraphSource) SharedContext.read(shipped)).read();
    assertSameGraph(loaded, read);

    // a table whose files cannot be read row for row is loaded through Spark; a file gone is named
    String relations = catalog.location(KgTable.RELATIONS);
    spark.sql("ALTER TABLE delta.`" + relations + "` SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
    GraphSource viaSpark = StoredGraph.of(catalog);
    assertTrue(viaSpark instanceof GraphSource.Held, "loaded through Spark: " + viaSpark.getClass());
    assertSameGraph(loaded, viaSpark.read());
    spark.sql("ALTER TABLE delta.`" + relations + "` SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'false')");

    GraphSource files = StoredGraph.of(catalog);
    assertFalse(files instanceof GraphSource.Held);
    try (Stream<Path> parquet = Files.list(Path.of(relations.replaceFirst("^file:", "")))) {
      for (Path p : parquet.filter(p -> p.toString().endsWith(".parquet")).toList()) {
        Files.delete(p);
      }
    }
    UncheckedIOException e = assertThrows(UncheckedIOException.class, files::read);
    assertTrue(e.getMessage().startsWith("cannot read graph relations file ") && e.getMessage().contains("run it again"), e.getMessage());
  }

  /** Same nodes (id, label) in the same order and the same adjacency entries. */
  static void assertSameGraph(KnowledgeGraph a, KnowledgeGraph b) {
    assertEquals(a.nodeCount(), b.nodeCount());
    assertEquals(a.edgeCount(), b.edgeCount());
    assertEquals(a.relationNames(), b.relationNames());
    for (int n = 0; n < a.nodeCount(); n++) {
      assertEquals(a.entityId(n), b.entityId(n));
      assertEquals(a.label(n), b.label(n));
      assertEquals(a.entryCount(n), b.entryCount(n), a.label(n));
      for (int k = 0; k < a.entryCount(n); k++) {
        assertEquals(a.entryNeighbour(n, k), b.entryNeighbour(n, k));
        assertEquals(a.entryRelation(n, k), b.entryRelation(n, k));
        assertEquals(a.entryOutgoing(n, k), b.entryOutgoing(n, k));
      }
    }
  }
}
