package io.kgrag.jobs.internal.stage.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.apache.spark.sql.functions.col;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.understand.GraphSchema;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The schema stage: the rows it computes with Spark aggregations are the rows of {@link GraphSchema#of} over the
 * graph a QA run loads, and a QA run reads them only when they were computed from the graph versions it reads.
 */
class SchemaStageTest {

  private static List<GraphSchema.Row> stored(Catalog c) {
    return SchemaTable.convert(c.read(KgTable.GRAPH_SCHEMA).orderBy(col("relation"), col("forward").desc()).collectAsList());
  }

  @Test
  void theStoredRowsAreTheInMemorySchemaOfTheGraph() {
    SparkTestSession.get();
    Path dir = SparkTestSession.newDir("schema");
    // a self loop (the graph drops it), a number, a relation with several values, a node both ends of one relation
    Path kb = TestFiles.lines(dir, "kb.txt", List.of("Alien|directed_by|Ridley Scott", "Gladiator|directed_by|Ridley Scott", "Alien|release_year|1979",
        "Gladiator|release_year|2000", "Alien|starred_actors|Sigourney Weaver", "Alien|starred_actors|Tom Skerritt", "Ridley Scott|influenced|Ridley Scott",
        "Ridley Scott|influenced|Tony Scott", "Tony Scott|influenced|Alien"));
    String wh = dir.resolve("wh").toString();
    Cli index = Cli.run("index", "--input", kb.toString(), "--format", "pipe", "--stages", "ingest,schema", "--warehouse", wh);
    assertEquals(0, index.code, index.toString());
    Catalog c = new Catalog(SparkTestSession.get(), wh);
    KnowledgeGraph graph = GraphLoader.load(c);
    GraphSchema memory = GraphSchema.of(graph);
    assertEquals(memory.rows(), stored(c));
    assertEquals(8, memory.roles());
    GraphSchema.Row year = stored(c).stream().filter(r -> r.relation().equals("release_year") && r.forward()).findFirst().orElseThrow();
    assertEquals(2, year.numericEdges());
    assertEquals(1979.0, year.least());
    assertEquals(2000.0, year.greatest());
    SchemaTable.Basis basis = SchemaTable.Basis.of(c);
    long written = c.version(KgTable.GRAPH_SCHEMA);
    assertEquals(written, SchemaTable.writtenFrom(c, basis), "the stage's runs row names the graph versions it read");
    assertEquals(memory.rows(), SchemaTable.load(c).rows());

    // the same graph again: nothing is written
    Cli same = Cli.run("index", "--stages", "schema", "--warehouse", wh);
    assertEquals(0, same.code, same.toString());
    assertEquals(written, c.version(KgTable.GRAPH_SCHEMA));

    // the graph changes without the stage: the run computes the schema of the graph it reads, not the stored one
    Path more = TestFiles.lines(dir, "more.txt", List.of("Blade Runner|directed_by|Ridley Scott", "Blade Runner|release_year|1982"));
    Cli add = Cli.run("reindex", "--input", more.toString(), "--format", "pipe", "--stages", "ingest", "--warehouse", wh);
    assertEquals(0, add.code, add.toString());
    KnowledgeGraph bigger = GraphLoader.load(c);
    assertNotEquals(basis, SchemaTable.Basis.of(c));
    assertEquals(-1, SchemaTable.writtenFrom(c, SchemaTable.Basis.of(c)));
    assertEquals(GraphSchema.of(bigger).rows(), SchemaTable.load(c).rows());
    assertNotEquals(GraphSchema.of(bigger).rows(), stored(c), "the table still holds the older graph's schema");

    // kgrag reindex brings it up to date
    Cli again = Cli.run("reindex", "--stages", "schema", "--warehouse", wh);
    assertEquals(0, again.code, again.toString());
    assertEquals(GraphSchema.of(bigger).rows(), stored(c));
    assertEquals(GraphSchema.of(bigger).rows(), SchemaTable.load(c).rows());

    // a reader pinned at the older graph (a QA snapshot of the previous build) reads the older schema by time
    // travel: the stored rows, not a count over the newest graph
    Catalog older = c.pinned(Map.of(KgTable.ENTITIES, basis.entities(), KgTable.RELATIONS, basis.relations()), "the first build");
    assertEquals(memory.rows(), SchemaTable.load(older).rows());
  }

  @Test
  void onFb15kTheStageAndTheInMemorySchemaAgree() {
    Catalog c = new Catalog(SparkTestSession.get(), DemoWarehouse.copy("schema-fb").toString());
    assertTrue(c.exists(KgTable.GRAPH_SCHEMA), "a full index runs the schema stage");
    GraphSchema memory = GraphSchema.of(GraphLoader.load(c));
    assertEquals(memory.rows(), stored(c));
    assertTrue(memory.roles() > 100, "FB15k-237's demo slice has many relations: " + memory.roles());
  }
}
