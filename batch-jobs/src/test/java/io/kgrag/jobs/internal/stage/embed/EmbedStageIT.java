package io.kgrag.jobs.internal.stage.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.StableIds;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.GraphFeatures;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

class EmbedStageIT {

  private static Map<String, float[]> vectors(Catalog c, KgTable t, String keyCol) {
    Map<String, float[]> out = new HashMap<>();
    for (Row r : c.read(t).select(keyCol, "vector").collectAsList()) {
      List<Float> v = r.getList(1);
      float[] a = new float[v.size()];
      for (int i = 0; i < a.length; i++) {
        a[i] = v.get(i);
      }
      out.put(String.valueOf(r.get(0)), a);
    }
    return out;
  }

  private static Map<String, Long> lastRunRows(Catalog c) {
    Row last = c.read(KgTable.RUNS).filter("stage = 'embed'").orderBy(org.apache.spark.sql.functions.desc("started_at")).head();
    return last.getJavaMap(last.fieldIndex("rows"));
  }

  /** label_index holds one shard of every label key of the model, built from the current embeddings. */
  private static void assertLabelIndexIsCurrent(Catalog c) {
    long keys = new GraphFeatures(c, "all-MiniLM-L6-v2").keyLabels().count();
    Row li = c.read(KgTable.LABEL_INDEX).filter("model = 'all-MiniLM-L6-v2'").selectExpr("sum(labels)", "min(source_version)", "count(*)").head();
    assertEquals(keys, li.getLong(0));
    assertEquals(c.version(KgTable.ENTITY_EMBEDDINGS), li.getLong(1));
    assertEquals(1L, li.getLong(2));
    assertEquals(keys, lastRunRows(c).get("label_index_labels"));
  }

  private static double cos(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  @Test
  void embeddingsAreRealNormalisedDeterministicAndIncremental() {
    Path dir = SparkTestSession.newDir("embed");
    Path wh = dir.resolve("wh");
    Path in = TestFiles.lines(dir, "kb.tsv", List.of(
        "/m/obama\t/people/person/profession\t/m/politician",
        "/m/obama2\t/people/person/profession\t/m/politician",
        "/m/dressage\t/olympics/olympic_sport/games\t/m/2008",
        "/m/dressage\tdirected_by\t/m/x"));
    Path names = TestFiles.lines(dir, "names.tsv", List.of(
        "/m/obama\tBarack Obama", "/m/obama2\tObama", "/m/dressage\tDressage", "/m/politician\tPolitician", "/m/2008\t2008 Summer Olympics"));
    Cli r = Cli.run("index", "--input", in.toString(), "--names", names.toString(), "--warehouse", wh.toString());
    assertEquals(0, r.code, r.toString());
    Catalog c = new Catalog(SparkTestSession.get(), wh.toString());

    Map<String, float[]> ev = vectors(c, KgTable.ENTITY_EMBEDDINGS, "entity_id");
    assertEquals(6, ev.size());
    for (float[] v : ev.values()) {
      assertEquals(384, v.length);
      assertEquals(1.0, Math.sqrt(cos(v, v)), 1e-5);
    }
    float[] barack = ev.get(String.valueOf(StableIds.entityId("/m/obama")));
    float[] obama = ev.get(String.valueOf(StableIds.entityId("/m/obama2")));
    float[] dressage = ev.get(String.valueOf(StableIds.entityId("/m/dressage")));
    assertTrue(cos(barack, obama) > cos(barack, dressage) + 0.2, cos(barack, obama) + " vs " + cos(barack, dressage));
    assertEquals("all-MiniLM-L6-v2", c.read(KgTable.ENTITY_EMBEDDINGS).head().getString(1));

    Map<String, float[]> rv = vectors(c, KgTable.RELATION_EMBEDDINGS, "relation");
    assertEquals(3, rv.size());
    assertEquals("directed by", c.read(KgTable.RELATION_EMBEDDINGS).filter("relation = 'directed_by'").head().getString(2));

    assertLabelIndexIsCurrent(c);

    // a second run re-embeds nothing and leaves the vectors identical, and the label index as it is
    long version = c.version(KgTable.ENTITY_EMBEDDINGS);
    long labelIndex = c.version(KgTable.LABEL_INDEX);
    assertEquals(0, Cli.run("index", "--stages", "embed", "--warehouse", wh.toString()).code);
    assertEquals(0L, lastRunRows(c).get("entity_labels_embedded"));
    assertEquals(version, c.version(KgTable.ENTITY_EMBEDDINGS));
    assertEquals(labelIndex, c.version(KgTable.LABEL_INDEX));

    // append: only new or relabelled entities are embedded
    Path more = TestFiles.lines(dir, "more.tsv", List.of("/m/judo\t/olympics/olympic_sport/games\t/m/2008"));
    Path moreNames = TestFiles.lines(dir, "more-names.tsv", List.of("/m/judo\tJudo", "/m/x\tSome Director"));
    assertEquals(0, Cli.run("index", "--input", more.toString(), "--names", moreNames.toString(), "--append", "--warehouse", wh.toString()).code);
    assertEquals(2L, lastRunRows(c).get("entity_labels_embedded"));
    assertEquals(0L, lastRunRows(c).get("relation_labels_embedded"));
    Map<String, float[]> ev2 = vectors(c, KgTable.ENTITY_EMBEDDINGS, "entity_id");
    assertEquals(7, ev2.size());
    assertLabelIndexIsCurrent(c);
    for (String k : List.of("/m/obama", "/m/dressage", "/m/politician")) {
      String id = String.valueOf(StableIds.entityId(k));
      assertTrue(java.util.Arrays.equals(ev.get(id), ev2.get(id)), k + " changed");
    }

    // a full rebuild on a smaller graph removes the vectors of entities that are gone
    Path small = TestFiles.lines(dir, "small.tsv", List.of("/m/obama\t/people/person/profession\t/m/politician"));
    assertEquals(0, Cli.run("index", "--input", small.toString(), "--names", names.toString(), "--warehouse", wh.toString()).code);
    assertEquals(5L, lastRunRows(c).get("entity_vectors_removed"));
    assertLabelIndexIsCurrent(c);
    Map<String, float[]> ev3 = vectors(c, KgTable.ENTITY_EMBEDDINGS, "entity_id");
    assertEquals(2, ev3.size());
    assertTrue(java.util.Arrays.equals(barack, ev3.get(String.valueOf(StableIds.entityId("/m/obama")))), "same label, same vector");
  }

  /** Entities that share a label share one embedding: the text is embedded once and both get its vector. */
  @Test
  void aLabelSharedByTwoEntitiesIsEmbeddedOnce() {
    Path dir = SparkTestSession.newDir("embed-shared");
    Path wh = dir.resolve("wh");
    Path in = TestFiles.lines(dir, "kb.tsv", List.of(
        "/m/springfield_il\t/location/location/containedby\t/m/illinois",
        "/m/springfield_ma\t/location/location/containedby\t/m/massachusetts"));
    Path names = TestFiles.lines(dir, "names.tsv", List.of(
        "/m/springfield_il\tSpringfield", "/m/springfield_ma\tSpringfield", "/m/illinois\tIllinois", "/m/massachusetts\tMassachusetts"));
    Cli r = Cli.run("index", "--input", in.toString(), "--names", names.toString(), "--warehouse", wh.toString(), "--stages", "ingest,embed");
    assertEquals(0, r.code, r.toString());
    Catalog c = new Catalog(SparkTestSession.get(), wh.toString());
    Map<String, Long> rows = lastRunRows(c);
    assertEquals(4L, rows.get("entity_labels_embedded"));
    assertEquals(3L, rows.get("entity_texts_embedded"));
    Map<String, float[]> ev = vectors(c, KgTable.ENTITY_EMBEDDINGS, "entity_id");
    assertEquals(4, ev.size());
    assertTrue(java.util.Arrays.equals(ev.get(String.valueOf(StableIds.entityId("/m/springfield_il"))), ev.get(String.valueOf(StableIds.entityId("/m/springfield_ma")))));
    assertLabelIndexIsCurrent(c);
  }
}
