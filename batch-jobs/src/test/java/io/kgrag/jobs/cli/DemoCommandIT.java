package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.qa.Methods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag demo}, the README's first command, end to end on the bundled data: it indexes both graphs, answers
 * their questions with every method that can serve a graph of triples, says why it skips the one that cannot
 * ({@code dense} ranks a text corpus's chunks), and prints the methods side by side.
 */
class DemoCommandIT {
  @Test
  void theDemoAnswersWithEveryMethodThatServesTriplesAndSaysWhyItSkipsTheRest() throws Exception {
    Path wh = Files.createTempDirectory("kgrag-demo-it");
    Cli r = Cli.run("demo", "--data", DemoWarehouse.data().getParent().toString(), "--warehouse", wh.toString(), "--run-id", "demo-it");
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.contains("skipped dense: "), r.out);
    Set<String> expected = new HashSet<>(Methods.all().keySet());
    expected.remove("dense");
    for (String graph : new String[] {"metaqa", "fb15k237"}) {
      assertTrue(r.out.contains("== " + graph), r.out);
      Catalog catalog = new Catalog(SparkTestSession.get(), wh.resolve(graph).toString());
      Set<String> answered = new HashSet<>(catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo("demo-it")).select("method").distinct()
          .as(Encoders.STRING()).collectAsList());
      assertEquals(expected, answered, graph);
    }
    for (String m : expected) {
      assertTrue(r.out.lines().anyMatch(l -> l.strip().startsWith(m + " ")), "no metrics line for " + m + ":\n" + r.out);
    }
  }
}
