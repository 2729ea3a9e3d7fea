package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.qa.QaRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A QA run reads one consistent index while {@code kgrag reindex} commits new triples (issue 10, reliability).
 *
 * <p>Graph A: the 1-hop stars of five answers of the FB15k-237 demo questions (145 triples); batch B: the 22
 * triples of Shohreh Aghdashloo, the answer of question 002-0779, which B changes. The interleaving is forced,
 * not timed, on one warehouse: run "on-a" answers six questions on A; run "during" takes its snapshot; {@code
 * reindex --stages ingest,embed} commits B's entities, relations and embeddings; run "mid" starts ({@code kgrag
 * qa}, its own snapshot) while gnn, paths and path-index are not yet redone; {@code reindex --stages
 * gnn,paths,path-index} commits the rest; only then does "during" answer, through the snapshot it took before
 * the whole reindex; run "after" starts on the finished build. "during" and "mid" must answer with the answers
 * and evidence of "on-a" and record A's versions as {@code read.<table>}; "after" reads A ∪ B and answers
 * 002-0779 differently, so reading any of B would show. Without the pinning "during" would read A ∪ B and "mid"
 * B's entities with A's path index, and neither would record what it read.
 */
class ConcurrentReindexQaIT {
  private static final String DATASET = "erqa-snap";
  /** W., Michael Nesmith, Danny Trejo, Sherlock, Tom Cherones: graph A is their stars. */
  private static final Set<String> STARS = Set.of("/m/03m5y9p", "/m/01p45_v", "/m/01xllf", "/m/053x8hr", "/m/06v_gh");
  private static final String SHOHREH = "/m/02g9z1";
  private static final Set<String> QIDS = Set.of("002-0459", "002-0779", "006-0143", "008-0570", "009-0271", "010-0135");

  private static Path questions;
  private static Path wh;
  private static Catalog catalog;
  private static Map<KgTable, Long> versionsOfA;
  private static Map<KgTable, Long> versionsHalfway;
  private static Map<KgTable, Long> versionsAfterB;
  private static Map<String, String> answersOfA;
  private static Set<String> evidenceOfA;

  @BeforeAll
  static void answerOnAWhileBIsReindexed() throws IOException {
    Path in = SparkTestSession.newDir("snap-in");
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (String line : Files.readAllLines(DemoWarehouse.data().resolve("triples.tsv"), StandardCharsets.UTF_8)) {
      String[] t = line.split("\t");
      if (t[0].equals(SHOHREH) || t[2].equals(SHOHREH)) {
        b.add(line);
      } else if (STARS.contains(t[0]) || STARS.contains(t[2])) {
        a.add(line);
      }
    }
    assertEquals(22, b.size());
    Path fileA = TestFiles.lines(in, "a.tsv", a);
    Path batch = TestFiles.lines(in, "b.tsv", b);
    String names = DemoWarehouse.data().resolve("entity2name.tsv").toString();
    List<String> qs = new ArrayList<>();
    for (String line : Files.readAllLines(DemoWarehouse.data().resolve("questions.csv"), StandardCharsets.UTF_8)) {
      if (qs.isEmpty() || QIDS.contains(line.substring(0, line.indexOf(',')))) {
        qs.add(line);
      }
    }
    assertEquals(QIDS.size() + 1, qs.size());
    questions = TestFiles.lines(in, "questions.csv", qs);

    wh = SparkTestSession.newDir("snap");
    catalog = new Catalog(SparkTestSession.get(), wh.toString());
    Cli built = Cli.run("index", "--input", fileA.toString(), "--names", names, "--warehouse", wh.toString(), "--index-partitions", "2",
        "--skip", "stem-gnn", "--run-id", "build-a");
    assertEquals(0, built.code, built.toString());
    versionsOfA = indexVersions();
    Cli onA = qa("on-a");
    assertEquals(0, onA.code, onA.toString());
    answersOfA = answers("on-a");
    evidenceOfA = evidence("on-a");

    QaCommand during = new QaCommand();
    new CommandLine(during).parseArgs("--warehouse", wh.toString(), "--questions", questions.toString(), "--dataset", DATASET, "--run-id", "during",
        "--method", "sgrag");
    Catalog snapshot = QaRun.snapshot(catalog, during.checkOptions()); // the run starts

    Cli half = Cli.run("reindex", "--input", batch.toString(), "--names", names, "--warehouse", wh.toString(), "--stages", "ingest,embed",
        "--run-id", "reindex-b");
    assertEquals(0, half.code, half.toString());
    versionsHalfway = indexVersions();
    Cli mid = qa("mid");
    assertEquals(0, mid.code, mid.toString());

    Cli rest = Cli.run("reindex", "--warehouse", wh.toString(), "--stages", "gnn,paths,path-index", "--run-id", "reindex-b");
    assertEquals(0, rest.code, rest.toString());
    versionsAfterB = indexVersions();

    during.answer(catalog, snapshot); // its reads, after the whole reindex committed
    Cli after = qa("after");
    assertEquals(0, after.code, after.toString());
  }

  @Test
  void theReindexCommittedEveryIndexTableBetweenTheRuns() {
    assertTrue(versionsHalfway.get(KgTable.ENTITIES) > versionsOfA.get(KgTable.ENTITIES), versionsOfA + " -> " + versionsHalfway);
    assertTrue(versionsHalfway.get(KgTable.RELATIONS) > versionsOfA.get(KgTable.RELATIONS), versionsOfA + " -> " + versionsHalfway);
    assertEquals(versionsOfA.get(KgTable.PATH_INDEX), versionsHalfway.get(KgTable.PATH_INDEX), "path-index not yet redone halfway");
    for (KgTable t : List.of(KgTable.NODE_DOMINANCE, KgTable.PATHS, KgTable.PATH_INDEX)) {
      assertTrue(versionsAfterB.get(t) > versionsOfA.get(t), t + ": " + versionsOfA + " -> " + versionsAfterB);
    }
  }

  @Test
  void aRunWhoseSnapshotPrecedesTheWholeReindexAnswersFromTheIndexBeforeIt() {
    assertEquals(QIDS, answersOfA.keySet());
    assertEquals(answersOfA, answers("during"), "the answers of A, not of A ∪ B nor a mix");
    assertEquals(evidenceOfA, evidence("during"));
    Map<KgTable, Long> read = readVersions("during", "qa");
    assertTrue(read.keySet().containsAll(List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.GNN_MODELS, KgTable.PATH_INDEX, KgTable.RELATION_EMBEDDINGS)),
        "the qa row names every index table sgrag read: " + read);
    assertEquals(subset(versionsOfA, read.keySet()), read, "runs records the versions of A");
    assertEquals(readVersions("on-a", "qa"), read, "what the run on A alone read");
  }

  @Test
  void aRunStartedMidReindexReadsTheLastCompleteBuild() {
    assertEquals(answersOfA, answers("mid"));
    assertEquals(evidenceOfA, evidence("mid"));
    Map<KgTable, Long> read = readVersions("mid", "qa");
    assertEquals(subset(versionsOfA, read.keySet()), read, "A's entities with A's path index, not the new entities: " + read + ", now " + versionsHalfway);
  }

  @Test
  void theRunAfterTheReindexReadsTheFinishedBuildWhichChangesAnAnswer() {
    Map<KgTable, Long> read = readVersions("after", "qa");
    assertEquals(subset(versionsAfterB, read.keySet()), read, "the finished build");
    Map<String, String> answersOfAB = answers("after");
    assertNotEquals(top(answersOfA.get("002-0779")), top(answersOfAB.get("002-0779")), "B's triples answer 002-0779: " + answersOfAB);
    assertEquals(top(answersOfA.get("006-0143")), top(answersOfAB.get("006-0143")), "B does not touch Michael Nesmith");
  }

  @Test
  void evalChecksTheRunsEvidenceAgainstTheGraphItRead() {
    Cli eval = Cli.run("eval", "--warehouse", wh.toString(), "--run-id", "during");
    assertEquals(0, eval.code, eval.toString());
    assertEquals(Map.of(KgTable.RELATIONS, versionsOfA.get(KgTable.RELATIONS)), readVersions("during", "eval"));
  }

  private static String top(String answer) {
    return answer.substring(0, answer.indexOf(" ["));
  }

  private static Cli qa(String runId) {
    return Cli.run("qa", "--warehouse", wh.toString(), "--questions", questions.toString(), "--dataset", DATASET, "--run-id", runId,
        "--method", "sgrag");
  }

  /** The latest version of every index table that exists. */
  private static Map<KgTable, Long> indexVersions() {
    Map<KgTable, Long> out = new EnumMap<>(KgTable.class);
    for (KgTable t : Catalog.INDEX_TABLES) {
      long v = catalog.version(t);
      if (v >= 0) {
        out.put(t, v);
      }
    }
    return out;
  }

  private static Map<KgTable, Long> subset(Map<KgTable, Long> versions, Set<KgTable> tables) {
    Map<KgTable, Long> out = new EnumMap<>(KgTable.class);
    tables.forEach(t -> out.put(t, versions.get(t)));
    return out;
  }

  /** The read.<table> entries of the run's row of {@code stage}. */
  private static Map<KgTable, Long> readVersions(String runId, String stage) {
    List<Row> rows = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo(runId).and(col("stage").equalTo(stage))).select("versions", "status")
        .collectAsList();
    assertEquals(1, rows.size(), stage + " rows of " + runId);
    assertEquals("succeeded", rows.get(0).getString(1));
    Map<String, Long> v = rows.get(0).getJavaMap(0);
    Map<KgTable, Long> out = new EnumMap<>(KgTable.class);
    for (KgTable t : KgTable.values()) {
      Long read = v.get("read." + t.tableName());
      if (read != null) {
        out.put(t, read);
      }
    }
    return out;
  }

  private static Map<String, String> answers(String runId) {
    Map<String, String> out = new TreeMap<>();
    for (Row a : catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo(runId)).select("qid", "answer", "status", "ranked").collectAsList()) {
      out.put(a.getString(0), a.getString(1) + " [" + a.getString(2) + "] " + a.get(3));
    }
    return out;
  }

  private static Set<String> evidence(String runId) {
    Set<String> out = new TreeSet<>();
    for (Row e : catalog.read(KgTable.EVIDENCE).filter(col("run_id").equalTo(runId)).select("qid", "src", "relation", "dst").collectAsList()) {
      out.add(e.getString(0) + " " + e.getLong(1) + " " + e.getString(2) + " " + e.getLong(3));
    }
    return out;
  }
}
