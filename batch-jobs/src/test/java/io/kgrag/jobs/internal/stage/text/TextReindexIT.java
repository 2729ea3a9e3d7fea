package io.kgrag.jobs.internal.stage.text;

import static org.apache.spark.sql.functions.col;
import static io.kgrag.jobs.internal.stage.text.TextTables.rows;
import static io.kgrag.jobs.internal.stage.text.TextTables.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag reindex} over documents: a corpus indexed in full, then the same corpus with an added batch
 * of documents given to reindex (as a daily drop would be), must skip the documents it has, extract only the
 * new ones, recompute only the stars and paths they touch, and end with the graph and the answers of a full
 * build of the combined corpus. Extraction is the test-scope {@code pattern} extractor.
 */
class TextReindexIT {
  private static final String[] CITIES = {"Warsaw", "Paris", "Lisbon", "Vienna", "Prague", "Oslo"};
  private static final String[] COUNTRIES = {"Poland", "France", "Portugal", "Austria", "Czechia", "Norway"};
  private static final String[] PEOPLE = {
    "Marie Curie", "Victor Hugo", "Fernando Pessoa", "Gustav Mahler", "Franz Kafka", "Edvard Munch", "Frederic Chopin",
    "Claude Monet", "Amalia Rodrigues", "Sigmund Freud", "Milos Forman", "Sonja Henie", "Joseph Conrad", "Edith Piaf"
  };
  private static final int IN_A = 9; // people 0..8 in the first corpus, 9..13 arrive with the batch

  private static Path reindexed;
  private static Path full;
  private static Map<String, Long> ingest;
  private static Map<String, Long> gnn;
  private static Map<String, Long> paths;

  private static String doc(int i) {
    String p = PEOPLE[i];
    String city = CITIES[i % CITIES.length];
    return "{\"id\": \"p" + i + "\", \"title\": \"" + p + "\", \"text\": \"" + p + " was born in " + city + ". " + p
        + " is the author of Work " + (char) ('A' + i) + ".\"}";
  }

  private static List<String> corpus(int people) {
    List<String> lines = new ArrayList<>();
    for (int c = 0; c < CITIES.length; c++) {
      lines.add("{\"id\": \"c" + c + "\", \"title\": \"" + CITIES[c] + "\", \"text\": \"" + CITIES[c] + " is the capital of " + COUNTRIES[c] + ".\"}");
    }
    for (int i = 0; i < people; i++) {
      lines.add(doc(i));
    }
    return lines;
  }

  private static Cli run(String command, Path in, Path wh, String runId) {
    List<String> args = new ArrayList<>(List.of(command, "--input", in.toString(), "--format", "jsonl", "--extractor", "pattern",
        "--warehouse", wh.toString(), "--run-id", runId, "--source", "people"));
    if (command.equals("index")) {
      args.addAll(List.of("--skip", "stem-gnn", "--index-partitions", "2"));
    }
    return Cli.run(args.toArray(new String[0]));
  }

  @BeforeAll
  static void indexReindexAndRebuild() {
    Path dir = SparkTestSession.newDir("text-reindex");
    Path a = TestFiles.lines(dir, "a.jsonl", corpus(IN_A));
    Path ab = TestFiles.lines(dir, "ab.jsonl", corpus(PEOPLE.length));
    reindexed = dir.resolve("wh-reindexed");
    Cli first = run("index", a, reindexed, "a");
    assertEquals(0, first.code, first.toString());
    Cli re = run("reindex", ab, reindexed, "ab");
    assertEquals(0, re.code, re.toString());
    full = dir.resolve("wh-full");
    Cli rebuilt = run("index", ab, full, "full");
    assertEquals(0, rebuilt.code, rebuilt.toString());
    Catalog c = new Catalog(SparkTestSession.get(), reindexed.toString());
    ingest = rows(c, "ab", "ingest");
    gnn = rows(c, "ab", "reindex-gnn");
    paths = rows(c, "ab", "reindex-paths");
  }

  @Test
  void onlyTheNewDocumentsAreExtractedAndOnlyTheirStarsRecomputed() {
    int docsA = CITIES.length + IN_A;
    int docsB = PEOPLE.length - IN_A;
    assertEquals(docsA, ingest.get("documents_skipped"), ingest.toString());
    assertEquals(docsB, ingest.get("documents_new"), ingest.toString());
    assertEquals(0, gnn.get("full_rebuild"), gnn.toString());
    assertEquals(2 * docsB, gnn.get("new_edges"), gnn.toString()); // born in + author of, per new person
    assertTrue(gnn.get("dominance_recomputed") < gnn.get("nodes_total"), gnn.toString());
    assertEquals(0, paths.get("full_rebuild"), paths.toString());
    assertTrue(paths.get("paths_added") > 0 && paths.get("paths_added") + paths.get("paths_changed") < paths.get("paths_total"), paths.toString());
  }

  @Test
  void theGraphIsTheFullBuildsGraph() {
    for (KgTable t : List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.CHUNKS, KgTable.EDGE_CHUNKS)) {
      assertEquals(table(full, t), table(reindexed, t), t.tableName());
    }
    assertEquals(
        new Catalog(SparkTestSession.get(), full.toString()).read(KgTable.PATHS).count(),
        new Catalog(SparkTestSession.get(), reindexed.toString()).read(KgTable.PATH_INDEX).selectExpr("sum(count)").head().getLong(0));
  }

  @Test
  void answersEqualThoseOfTheFullBuild() {
    Path dir = SparkTestSession.newDir("text-reindex-q");
    List<String> qs = new ArrayList<>();
    for (int i = 0; i < PEOPLE.length; i++) {
      qs.add("{\"qid\": \"born-" + i + "\", \"question\": \"Where was " + PEOPLE[i] + " born?\", \"answer\": \"" + CITIES[i % CITIES.length] + "\"}");
    }
    Path questions = TestFiles.lines(dir, "q.jsonl", qs);
    Map<String, String> a = answers(reindexed, questions, "q-reindexed");
    Map<String, String> b = answers(full, questions, "q-full");
    assertEquals(b, a);
    // the batch's people are answered, not only the first corpus's
    int last = PEOPLE.length - 1;
    assertTrue(a.get("born-" + last).startsWith(CITIES[last % CITIES.length]), a.toString());
    // evidence of a text graph carries the chunk each edge was read from
    List<Row> ev =
        new Catalog(SparkTestSession.get(), reindexed.toString()).read(KgTable.EVIDENCE)
            .filter(col("run_id").equalTo("q-reindexed").and(col("qid").equalTo("born-" + last))).select("relation", "chunk_id", "chunk_text")
            .collectAsList();
    assertTrue(ev.stream().anyMatch(r -> r.getString(0).equals("was born in") && !r.isNullAt(1)
        && r.getString(2).contains(PEOPLE[last] + " was born in " + CITIES[last % CITIES.length])), ev.toString());
  }

  private static Map<String, String> answers(Path wh, Path questions, String runId) {
    Cli r = Cli.run("qa", "--warehouse", wh.toString(), "--questions", questions.toString(), "--dataset", "people", "--run-id", runId, "--method", "sgrag");
    assertEquals(0, r.code, r.toString());
    Map<String, String> out = new TreeMap<>();
    for (Row x : new Catalog(SparkTestSession.get(), wh.toString()).read(KgTable.ANSWERS).filter(col("run_id").equalTo(runId))
        .select("qid", "answer", "status").collectAsList()) {
      out.put(x.getString(0), x.getString(1) + " [" + x.getString(2) + "]");
    }
    return out;
  }
}
