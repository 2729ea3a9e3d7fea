package io.kgrag.jobs.internal.stage.text;

import static io.kgrag.jobs.internal.stage.text.TextTables.rows;
import static io.kgrag.jobs.internal.stage.text.TextTables.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag reindex --sync}: a corpus indexed in full, then given again without two of its documents (one
 * person, one city), must end with the tables of a full build of the smaller corpus, recomputing only what
 * the removed documents touched; documents of another source stay. Extraction is the test-scope {@code pattern}
 * extractor.
 */
class TextSyncIT {
  private static final String[] CITIES = {"Warsaw", "Paris", "Lisbon", "Vienna", "Prague", "Oslo"};
  private static final String[] COUNTRIES = {"Poland", "France", "Portugal", "Austria", "Czechia", "Norway"};
  private static final String[] PEOPLE = {
    "Marie Curie", "Victor Hugo", "Fernando Pessoa", "Gustav Mahler", "Franz Kafka", "Edvard Munch", "Frederic Chopin", "Claude Monet"
  };
  private static final int GONE_PERSON = 2; // Fernando Pessoa: the only document naming Work C
  private static final int GONE_CITY = 5; // Oslo: the only document naming Norway; Edvard Munch's still names Oslo

  private static Path synced;
  private static Path full;
  private static Map<String, Long> ingest;
  private static Map<String, Long> gnn;

  private static List<String> corpus(boolean all) {
    List<String> lines = new ArrayList<>();
    for (int c = 0; c < CITIES.length; c++) {
      if (all || c != GONE_CITY) {
        lines.add("{\"id\": \"c" + c + "\", \"title\": \"" + CITIES[c] + "\", \"text\": \"" + CITIES[c] + " is the capital of " + COUNTRIES[c] + ".\"}");
      }
    }
    for (int i = 0; i < PEOPLE.length; i++) {
      if (all || i != GONE_PERSON) {
        String p = PEOPLE[i];
        lines.add("{\"id\": \"p" + i + "\", \"title\": \"" + p + "\", \"text\": \"" + p + " was born in " + CITIES[i % CITIES.length] + ". " + p
            + " is the author of Work " + (char) ('A' + i) + ".\"}");
      }
    }
    return lines;
  }

  private static Cli run(String command, Path in, Path wh, String runId, String... more) {
    List<String> args = new ArrayList<>(List.of(command, "--input", in.toString(), "--format", "jsonl", "--extractor", "pattern",
        "--warehouse", wh.toString(), "--run-id", runId, "--source", "people"));
    if (command.equals("index")) {
      args.addAll(List.of("--skip", "stem-gnn", "--index-partitions", "2"));
    }
    args.addAll(List.of(more));
    return Cli.run(args.toArray(new String[0]));
  }

  @BeforeAll
  static void indexSyncAndRebuild() {
    Path dir = SparkTestSession.newDir("text-sync");
    // the corpus file is edited in place, as a user's would be: its documents keep their uri
    Path before = TestFiles.lines(dir, "corpus/corpus.jsonl", corpus(true));
    synced = dir.resolve("wh-synced");
    Cli first = run("index", before, synced, "before");
    assertEquals(0, first.code, first.toString());
    // a document of another source, appended beside the corpus: --sync of "people" must leave it
    Path other = TestFiles.lines(dir, "other/notes.jsonl",
        List.of("{\"id\": \"n1\", \"title\": \"Note\", \"text\": \"Lyon is the third city of France.\"}"));
    Cli notes = Cli.run("index", "--input", other.toString(), "--format", "jsonl", "--extractor", "pattern", "--warehouse", synced.toString(),
        "--append", "--stages", "ingest", "--source", "notes");
    assertEquals(0, notes.code, notes.toString());
    Path after = TestFiles.lines(dir, "corpus/corpus.jsonl", corpus(false));
    Cli sync = run("reindex", after, synced, "sync", "--sync");
    assertEquals(0, sync.code, sync.toString());
    full = dir.resolve("wh-full");
    Cli rebuilt = run("index", after, full, "full");
    assertEquals(0, rebuilt.code, rebuilt.toString());
    Cli fullNotes = Cli.run("index", "--input", other.toString(), "--format", "jsonl", "--extractor", "pattern", "--warehouse", full.toString(),
        "--append", "--source", "notes", "--skip", "stem-gnn");
    assertEquals(0, fullNotes.code, fullNotes.toString());
    Catalog c = new Catalog(SparkTestSession.get(), synced.toString());
    ingest = rows(c, "sync", "ingest");
    gnn = rows(c, "sync", "reindex-gnn");
  }

  @Test
  void theRemovedDocumentsAndWhatOnlyTheySupportedAreGone() {
    assertEquals(2L, ingest.get("documents_removed"), ingest.toString());
    assertEquals(0L, ingest.get("documents_new"), ingest.toString());
    assertEquals(0L, ingest.get("chunks"), ingest.toString()); // nothing extracted again
    // Fernando Pessoa, Work C and Norway had no other document
    assertEquals(3L, ingest.get("entities_deleted"), ingest.toString());
    assertEquals(3L, ingest.get("relations_deleted"), ingest.toString());
    assertEquals(0, gnn.get("full_rebuild"), gnn.toString());
    List<String> labels = table(synced, KgTable.ENTITIES);
    assertFalse(labels.stream().anyMatch(l -> l.contains("Fernando Pessoa") || l.contains("Norway") || l.contains("Work C")), labels.toString());
    assertTrue(labels.stream().anyMatch(l -> l.contains("Oslo")) && labels.stream().anyMatch(l -> l.contains("Lyon")), labels.toString());
  }

  @Test
  void theTablesAreThoseOfAFullBuildWithoutThem() {
    for (KgTable t : List.of(KgTable.DOCUMENTS, KgTable.ENTITIES, KgTable.RELATIONS, KgTable.CHUNKS, KgTable.ENTITY_MENTIONS, KgTable.EDGE_CHUNKS)) {
      assertEquals(table(full, t), table(synced, t), t.tableName());
    }
    assertEquals(keys(full, KgTable.ENTITY_EMBEDDINGS, "entity_id"), keys(synced, KgTable.ENTITY_EMBEDDINGS, "entity_id"));
    assertEquals(keys(full, KgTable.CHUNK_EMBEDDINGS, "chunk_id"), keys(synced, KgTable.CHUNK_EMBEDDINGS, "chunk_id"));
    assertEquals(keys(full, KgTable.RELATION_EMBEDDINGS, "relation"), keys(synced, KgTable.RELATION_EMBEDDINGS, "relation"));
    assertEquals(
        new Catalog(SparkTestSession.get(), full.toString()).read(KgTable.PATHS).count(),
        new Catalog(SparkTestSession.get(), synced.toString()).read(KgTable.PATH_INDEX).selectExpr("sum(count)").head().getLong(0));
  }

  @Test
  void aCorpusWithUnreadableRecordsRemovesNothing() {
    Path dir = SparkTestSession.newDir("text-sync-rejects");
    List<String> lines = new ArrayList<>(corpus(false));
    lines.set(0, "{\"id\": \"c0\", \"title\": \"Warsaw\", \"text\": ");  // cut: is Warsaw still there?
    lines.remove(1);
    Path broken = TestFiles.lines(dir, "corpus.jsonl", lines);
    List<String> before = table(synced, KgTable.DOCUMENTS);
    Cli r = Cli.run("reindex", "--input", broken.toString(), "--format", "jsonl", "--extractor", "pattern", "--warehouse", synced.toString(),
        "--source", "people", "--sync", "--stages", "ingest");
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("--sync: 1 record(s)") && r.err.contains("no document was removed or added"), r.err);
    assertEquals(before, table(synced, KgTable.DOCUMENTS));
  }

  private static List<String> keys(Path wh, KgTable t, String key) {
    return new Catalog(SparkTestSession.get(), wh.toString()).read(t).select(key).collectAsList().stream().map(Row::toString).sorted()
        .collect(Collectors.toList());
  }
}
