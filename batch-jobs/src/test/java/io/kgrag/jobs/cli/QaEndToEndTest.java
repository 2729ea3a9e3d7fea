package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag qa} and {@code kgrag eval} end to end, in process, on the indexed FB15k-237 demo slice: the
 * slice's 12 ERQA questions (each answerable from the slice) with four malformed rows among them. (A re-run
 * under the same run id, and questions that fail one by one: {@link QaEndToEndIT}.)
 */
class QaEndToEndTest {
  static final String RUN = "e2e";
  static final String DATASET = "erqa-demo";
  /** Valid questions in data/demo/fb15k237/questions.csv. */
  static final int VALID = 12;
  /**
   * Hit@1 floor on the valid questions. Measured: 11 of 12 (91.7 %, 9 exact and 3 partial), the same in
   * every run so far (retrieval is exact; the GNN only prunes). The floor leaves room for two more misses.
   */
  private static final double HIT1_FLOOR = 0.75;

  private static SparkSession spark;
  private static Path wh;
  private static Catalog catalog;
  private static Path questions;

  @BeforeAll
  static void answerTheDemoQuestionsWithBadRowsAmongThem() throws IOException {
    spark = SparkTestSession.get();
    wh = DemoWarehouse.copy("qa-e2e");
    catalog = new Catalog(spark, wh.toString());
    questions = questionsWithBadRows();
    Cli r = qa(wh, questions, RUN);
    assertEquals(0, r.code, r.toString());
  }

  /** The slice's 12 ERQA questions with four malformed rows among them, as a new file. */
  static Path questionsWithBadRows() throws IOException {
    List<String> lines = Files.readAllLines(DemoWarehouse.data().resolve("questions.csv"), StandardCharsets.UTF_8);
    assertEquals(VALID + 1, lines.size());
    List<Object> parts = new ArrayList<>();
    parts.add(lines.get(0) + "\n");
    for (int i = 1; i <= VALID; i++) {
      parts.add(lines.get(i) + "\n");
      switch (i) {
        case 2 -> parts.add("bad-empty,,Tilda Swinton\n");
        case 5 -> parts.add("bad-quote,Which \"film\" stars Tilda Swinton?,Orlando\n");
        case 8 -> parts.add("bad-columns,Which film stars Tilda Swinton?,Orlando,extra\n");
        case 11 -> parts.add(TestFiles.concat("bad-utf8,Which film stars Tilda Swinton", new byte[] {(byte) 0xC3, (byte) 0x28}, "?,Orlando\n"));
        default -> {}
      }
    }
    return TestFiles.bytes(SparkTestSession.newDir("qa-e2e-in"), "questions.csv", TestFiles.concat(parts.toArray()));
  }

  static Cli qa(Path warehouse, Path file, String runId) {
    return Cli.run("qa", "--warehouse", warehouse.toString(), "--questions", file.toString(), "--dataset", DATASET, "--run-id", runId);
  }

  static Dataset<Row> ofRun(Catalog c, KgTable t, String runId) {
    return c.read(t).filter(col("run_id").equalTo(runId).and(col("dataset").equalTo(DATASET)));
  }

  static Map<String, Row> answers(Catalog c, String runId) {
    Map<String, Row> out = new HashMap<>();
    for (Row r : ofRun(c, KgTable.ANSWERS, runId).collectAsList()) {
      out.put(r.getAs("qid"), r);
    }
    return out;
  }

  @Test
  void everyRowHasOneAnswerAndBadRowsSayWhatIsWrong() {
    Dataset<Row> qs = catalog.read(KgTable.QUESTIONS).filter(col("dataset").equalTo(DATASET));
    assertEquals(VALID + 4, qs.count());
    assertEquals(VALID + 4, ofRun(catalog, KgTable.ANSWERS, RUN).count());
    Map<String, Row> byQid = answers(catalog, RUN);
    Set<String> qids = new java.util.HashSet<>();
    qs.select("qid").collectAsList().forEach(r -> qids.add(r.getString(0)));
    assertEquals(qids, byQid.keySet(), "one answers row per input row, keyed by its qid");

    List<String> reasons = new ArrayList<>();
    for (Row a : byQid.values()) {
      String status = a.getAs("status");
      if (status.equals("invalid_input")) {
        reasons.add(a.getAs("reason"));
      } else {
        assertTrue(Set.of("exact", "partial", "fallback", "unable").contains(status), a.getAs("qid") + ": " + status + " " + a.getAs("reason"));
      }
    }
    assertEquals(4, reasons.size(), reasons.toString());
    for (String problem : new String[] {"empty question", "quote inside unquoted field 2 (query)", "4 fields, the header has 3", "not valid UTF-8"}) {
      assertEquals(1, reasons.stream().filter(x -> x != null && x.contains(problem)).count(), problem + " in " + reasons);
    }
    assertTrue(reasons.stream().allMatch(x -> x.startsWith("questions.csv line ")), "reasons name the line: " + reasons);
  }

  @Test
  void answeredQuestionsHaveEvidenceAndEveryEvidenceEdgeIsInTheGraph() {
    Dataset<Row> evidence = ofRun(catalog, KgTable.EVIDENCE, RUN);
    Dataset<Row> answered = ofRun(catalog, KgTable.ANSWERS, RUN).filter(col("status").isin("exact", "partial", "fallback"));
    assertTrue(answered.count() >= VALID * HIT1_FLOOR, "answered: " + answered.count());
    Dataset<Row> withoutEvidence = answered.join(evidence.select(col("qid").as("eqid")).distinct(), col("qid").equalTo(col("eqid")), "left_anti");
    assertEquals(0, withoutEvidence.count(), () -> "answered without evidence: " + withoutEvidence.select("qid", "status").collectAsList());

    Dataset<Row> relations = catalog.read(KgTable.RELATIONS);
    Dataset<Row> notInGraph =
        evidence.join(relations,
            evidence.col("src").equalTo(relations.col("src_id"))
                .and(evidence.col("relation").equalTo(relations.col("relation")))
                .and(evidence.col("dst").equalTo(relations.col("dst_id"))),
            "left_anti");
    assertEquals(0, notInGraph.count(), () -> "evidence edges not in relations: " + notInGraph.select("qid", "src_label", "relation", "dst_label").collectAsList());
    assertTrue(evidence.count() >= answered.count());
  }

  @Test
  void evalScoresTheValidQuestionsAboveTheMeasuredFloor() {
    Cli r = Cli.run("eval", "--run-id", RUN, "--warehouse", wh.toString());
    assertEquals(0, r.code, r.toString());
    Row all =
        catalog.read(KgTable.METRICS).filter(col("run_id").equalTo(RUN).and(col("dataset").equalTo(DATASET)).and(col("slice").equalTo("all"))).head();
    assertEquals(VALID, (long) all.getAs("n"), "invalid_input rows are not graded");
    double hit1 = all.getAs("hit1");
    assertTrue(hit1 >= HIT1_FLOOR, "Hit@1 " + hit1 + "\n" + r.out);
    // eval checks the evidence itself: every answered question has some, every edge is in the graph
    assertTrue(r.out.contains("answered questions without evidence: 0; evidence edges not in kgrag.relations: 0"), r.out);
    assertFalse(r.out.contains("evidence: 0 edges"), r.out);
    Map<String, Long> statuses = all.getJavaMap(all.fieldIndex("statuses"));
    assertEquals(4L, statuses.get("invalid_input"), statuses.toString());
    assertTrue(r.out.contains("erqa-demo") && r.out.contains("Hit@1 %"), r.out);
  }
}
