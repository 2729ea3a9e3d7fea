package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.qa.QueryGraph;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.eval.EvidenceExport;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * {@code kgrag eval} and {@code kgrag export-evidence} on a small hand-made run whose metrics are worked
 * out below.
 *
 * <p>Run r1, method sgrag. metaqa: q1 hop 1 exact, right (1/1/1); q2 hop 1 exact, ranked A, C tied at the
 * top with gold {A, B} (hit, P .5, R .5); q3 hop 2 unable (0); q4 hop 2 invalid_input (not graded); q5 hop 2
 * partial, "ZOE" for gold "Zoë" (hit). erqa: e1 1 constraint, P1 and P2 tied, gold {P1, P2} (1/1/1); e2 2
 * constraints, wrong (0); e3 2 constraints, right; e4 no question row (not graded). Run r2: one answer.
 */
class QaEvalCommandsTest {
  private static final double EPS = 1e-9;
  private static SparkSession spark;
  private static String warehouse;
  private static Catalog catalog;

  @BeforeAll
  static void writeARun() {
    spark = SparkTestSession.get();
    warehouse = SparkTestSession.newDir("qa-eval").toString();
    catalog = new Catalog(spark, warehouse);

    List<Row> questions = new ArrayList<>();
    questions.add(q("metaqa", "q1", "who starred in [Forrest Gump]", List.of("Tom Hanks"), Map.of("hop", "1")));
    questions.add(q("metaqa", "q2", "q two", List.of("A", "B"), Map.of("hop", "1")));
    questions.add(q("metaqa", "q3", "q three", List.of("X"), Map.of("hop", "2")));
    questions.add(q("metaqa", "q4", null, List.of("Y"), Map.of("hop", "2")));
    questions.add(q("metaqa", "q5", "q five", List.of("Zoë"), Map.of("hop", "2")));
    questions.add(q("metaqa", "q6", "never answered", List.of("W"), Map.of("hop", "3")));
    questions.add(q("erqa", "e1", "e one", List.of("P1", "P2"), null));
    questions.add(q("erqa", "e2", "e two", List.of("Q"), null));
    questions.add(q("erqa", "e3", "e three", List.of("S"), Map.of()));
    catalog.overwrite(KgTable.QUESTIONS, spark.createDataFrame(questions, KgTable.QUESTIONS.schema()));

    List<Row> answers = new ArrayList<>();
    answers.add(a("r1", "metaqa", "q1", "exact", 10, "tom hanks", 1.0, 11L, "Meg Ryan", 0.5, 12L));
    answers.add(a("r1", "metaqa", "q2", "exact", 20, "A", 2.0, null, "C", 2.0, null));
    answers.add(a("r1", "metaqa", "q3", "unable", 30));
    answers.add(a("r1", "metaqa", "q4", "invalid_input", 0));
    answers.add(a("r1", "metaqa", "q5", "partial", 40, "ZOE", 0.3, null));
    answers.add(a("r1", "erqa", "e1", "exact", 5, "P1", 1.0, null, "P2", 1.0, null, "P3", 0.2, null));
    answers.add(a("r1", "erqa", "e2", "fallback", 15, "R", 0.9, null));
    answers.add(a("r1", "erqa", "e3", "exact", 25, "S", 1.0, null));
    answers.add(a("r1", "erqa", "e4", "exact", 35, "T", 1.0, null));
    answers.add(a("r2", "metaqa", "q1", "exact", 7, "Meg Ryan", 1.0, null));
    catalog.overwrite(KgTable.ANSWERS, spark.createDataFrame(answers, KgTable.ANSWERS.schema()));

    List<Row> graphs = new ArrayList<>();
    graphs.add(g("r1", "erqa", "e1", 1));
    graphs.add(g("r1", "erqa", "e2", 2));
    graphs.add(g("r1", "erqa", "e3", 2));
    graphs.add(g("r2", "erqa", "e1", 3)); // another run: must not leak into r1's slices
    catalog.overwrite(KgTable.QUERY_GRAPHS, spark.createDataFrame(graphs, KgTable.QUERY_GRAPHS.schema()));

    List<Row> evidence = new ArrayList<>();
    evidence.add(RowFactory.create("r1", "sgrag", "metaqa", "q1", 1L, "Forrest Gump", "starred_actors", 11L, "Tom Hanks", null, null));
    evidence.add(RowFactory.create("r1", "sgrag", "metaqa", "q1", 1L, "Forrest Gump", "directed_by", 13L, "Robert <Zemeckis> & \"co\"", null, null));
    evidence.add(RowFactory.create("r1", "sgrag", "metaqa", "q1", 1L, "Forrest Gump", "starred_actors", 11L, "Tom Hanks", null, null));
    catalog.overwrite(KgTable.EVIDENCE, spark.createDataFrame(evidence, KgTable.EVIDENCE.schema()));
  }

  private static Row q(String dataset, String qid, String question, List<String> gold, Map<String, String> meta) {
    return RowFactory.create(dataset, qid, question, gold, meta == null ? null : new HashMap<>(meta), null);
  }

  /** An answer row of method sgrag; ranked from (label, score, entity id) triples. */
  private static Row a(String run, String dataset, String qid, String status, double latency, Object... ranked) {
    List<Row> r = new ArrayList<>();
    for (int i = 0; i < ranked.length; i += 3) {
      r.add(RowFactory.create(ranked[i], ranked[i + 2], ranked[i + 1]));
    }
    String answer = r.isEmpty() ? null : (String) ranked[0];
    return RowFactory.create(run, "sgrag", dataset, qid, answer, r, status, status.equals("unable") ? "no candidate" : null, latency);
  }

  /** A query graph with {@code edges} edges: a star around the unknown target. */
  private static Row g(String run, String dataset, String qid, int edges) {
    QueryGraph.Builder b = QueryGraph.builder();
    int t = b.unknown(null);
    for (int i = 0; i < edges; i++) {
      b.edge(t, b.entity("E" + i), null);
    }
    QueryGraph qg = b.build();
    return RowFactory.create(run, "sgrag", dataset, qid, "test", QueryGraphRows.nodes(qg, null), QueryGraphRows.edges(qg));
  }

  private static Map<String, Row> metrics(String run) {
    Map<String, Row> out = new HashMap<>();
    for (Row r : catalog.read(KgTable.METRICS).filter(col("run_id").equalTo(run)).collectAsList()) {
      out.put(r.getAs("dataset") + "/" + r.getAs("slice"), r);
    }
    return out;
  }

  private static void check(Row r, long n, double hit1, double p, double rec, double f1, Double p50, Double p95) {
    String at = r.getAs("dataset") + "/" + r.getAs("slice");
    assertEquals(n, (long) r.getAs("n"), at);
    assertEquals(hit1, r.<Double>getAs("hit1"), EPS, at);
    assertEquals(p, r.<Double>getAs("precision"), EPS, at);
    assertEquals(rec, r.<Double>getAs("recall"), EPS, at);
    assertEquals(f1, r.<Double>getAs("f1"), EPS, at);
    assertEquals(p50, r.<Double>getAs("latency_p50_ms"), at);
    assertEquals(p95, r.<Double>getAs("latency_p95_ms"), at);
  }

  private static void checkSets(Row r, double hit3, double inExactSet) {
    String at = r.getAs("dataset") + "/" + r.getAs("slice");
    assertEquals(hit3, r.<Double>getAs("hit3"), EPS, at);
    assertEquals(inExactSet, r.<Double>getAs("gold_in_exact_set"), EPS, at);
  }

  @Test
  void evalWritesMetricsPerDatasetAndSliceAndPrintsThem() {
    Cli r2 = Cli.run("eval", "--run-id", "r2", "--warehouse", warehouse);
    assertEquals(0, r2.code, r2.toString());
    Cli first = Cli.run("eval", "--run-id", "r1", "--warehouse", warehouse);
    assertEquals(0, first.code, first.toString());
    Cli again = Cli.run("eval", "--run-id", "r1", "--warehouse", warehouse);
    assertEquals(0, again.code, again.toString());

    Map<String, Row> m = metrics("r1");
    assertEquals(
        Set.of("metaqa/all", "metaqa/hop=1", "metaqa/hop=2", "erqa/all", "erqa/constraints=1", "erqa/constraints=2"),
        m.keySet(), "re-running replaces the run's rows");
    check(m.get("metaqa/all"), 4, 0.75, 0.625, 0.625, 0.625, 20.0, 40.0);
    check(m.get("metaqa/hop=1"), 2, 1.0, 0.75, 0.75, 0.75, 10.0, 20.0);
    check(m.get("metaqa/hop=2"), 2, 0.5, 0.5, 0.5, 0.5, 30.0, 40.0);
    check(m.get("erqa/all"), 3, 2.0 / 3, 2.0 / 3, 2.0 / 3, 2.0 / 3, 15.0, 35.0);
    check(m.get("erqa/constraints=1"), 1, 1.0, 1.0, 1.0, 1.0, 5.0, 5.0);
    check(m.get("erqa/constraints=2"), 2, 0.5, 0.5, 0.5, 0.5, 15.0, 25.0);
    // Hit@3 and gold in the exact set: q5's gold is its (partial) top answer, so a hit at 3 but not an exact set
    checkSets(m.get("metaqa/all"), 0.75, 0.5);
    checkSets(m.get("metaqa/hop=1"), 1.0, 1.0);
    checkSets(m.get("metaqa/hop=2"), 0.5, 0.0);
    checkSets(m.get("erqa/all"), 2.0 / 3, 2.0 / 3);
    Map<String, Long> st = m.get("metaqa/all").getJavaMap(m.get("metaqa/all").fieldIndex("statuses"));
    assertEquals(Map.of("exact", 2L, "partial", 1L, "unable", 1L, "invalid_input", 1L), st);
    assertEquals(Map.of("exact", 3L, "fallback", 1L), m.get("erqa/all").getJavaMap(m.get("erqa/all").fieldIndex("statuses")));
    assertEquals("sgrag", m.get("erqa/all").getAs("method"));
    assertFalse(m.get("erqa/all").isNullAt(m.get("erqa/all").fieldIndex("computed_at")));

    Map<String, Row> other = metrics("r2");
    assertEquals(Set.of("metaqa/all", "metaqa/hop=1"), other.keySet(), "r2's rows survive r1's evaluation");
    check(other.get("metaqa/all"), 1, 0.0, 0.0, 0.0, 0.0, 7.0, 7.0);

    // the printed table: a header and one aligned line per row, in method, dataset, slice order
    String[] lines = again.out.split("\n");
    assertTrue(
        lines[0].matches("method\\s+dataset\\s+slice\\s+n\\s+Hit@1 %\\s+Hit@3 %\\s+in exact %\\s+P\\s+R\\s+F1\\s+EM %\\s+tok F1\\s+p50 ms\\s+p95 ms\\s+statuses"),
        lines[0]);
    assertTrue(lines[1].matches("sgrag\\s+erqa\\s+all\\s+3\\s+66\\.7\\s+66\\.7\\s+66\\.7\\s+0\\.667\\s+0\\.667\\s+0\\.667\\s+66\\.7\\s+0\\.\\d{3}\\s+15\\.0\\s+35\\.0\\s+exact=3 fallback=1"), lines[1]);
    assertTrue(lines[2].contains("constraints=1") && lines[3].contains("constraints=2"), again.out);
    assertTrue(lines[4].matches("sgrag\\s+metaqa\\s+all\\s+4\\s+75\\.0\\s+75\\.0\\s+50\\.0\\s+0\\.625\\s+0\\.625\\s+0\\.625\\s+\\d+\\.\\d\\s+0\\.\\d{3}\\s+20\\.0\\s+40\\.0\\s+exact=2 partial=1 unable=1 invalid_input=1"), lines[4]);
    assertTrue(lines[5].contains("hop=1") && lines[6].contains("hop=2"), again.out);
    int statusColumn = lines[0].indexOf("statuses");
    for (int i = 1; i <= 6; i++) {
      assertEquals(statusColumn, lines[i].indexOf("exact") >= 0 ? lines[i].indexOf("exact") : lines[i].indexOf("partial"), "aligned: " + lines[i]);
    }
    assertTrue(again.out.contains("note: 1 answers have no row in kgrag.questions"), again.out);

    // the eval stage is recorded under the run it evaluated
    assertEquals(2, catalog.read(KgTable.RUNS).filter(col("run_id").equalTo("r1").and(col("stage").equalTo("eval"))).count());
  }

  @Test
  void evalRejectsUnknownOrUnsafeRunIdsAndMissingTables() {
    Cli unknown = Cli.run("eval", "--run-id", "nope", "--warehouse", warehouse);
    assertEquals(2, unknown.code, unknown.toString());
    assertTrue(unknown.err.contains("'nope'") && unknown.err.contains("SELECT DISTINCT run_id FROM kgrag.answers"), unknown.err);

    Cli quoted = Cli.run("eval", "--run-id", "x' OR '1'='1", "--warehouse", warehouse);
    assertEquals(2, quoted.code, quoted.toString());
    assertTrue(quoted.err.contains("must not contain quotes"), quoted.err);

    assertEquals(2, Cli.run("eval", "--warehouse", warehouse).code); // --run-id is required

    Cli empty = Cli.run("eval", "--run-id", "r1", "--warehouse", SparkTestSession.newDir("no-qa").toString());
    assertEquals(2, empty.code, empty.toString());
    assertTrue(empty.err.contains("kgrag.answers does not exist") && empty.err.contains("run `kgrag qa` first"), empty.err);
  }

  @Test
  void exportEvidenceWritesGraphmlAndDot() throws Exception {
    Path out = SparkTestSession.newDir("evidence-out");
    Cli r = Cli.run("export-evidence", "--run-id", "r1", "--qid", "q1", "--out", out.toString(), "--warehouse", warehouse);
    assertEquals(0, r.code, r.toString());
    Path graphml = out.resolve("q1.graphml");
    Path dot = out.resolve("q1.dot");
    assertTrue(r.out.contains(graphml.toString()) && r.out.contains(dot.toString()), r.out);
    assertTrue(r.out.contains("3 nodes, 2 edges"), r.out);

    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(Files.readAllBytes(graphml)));
    String ns = "http://graphml.graphdrawing.org/xmlns";
    assertEquals(3, doc.getElementsByTagNameNS(ns, "node").getLength());
    assertEquals(2, doc.getElementsByTagNameNS(ns, "edge").getLength());
    String xml = Files.readString(graphml, StandardCharsets.UTF_8);
    assertTrue(xml.contains("<node id=\"n11\"><data key=\"label\">Tom Hanks</data><data key=\"entity_id\">11</data><data key=\"answer\">true</data>"), xml);
    assertTrue(xml.contains("Robert &lt;Zemeckis&gt; &amp; &quot;co&quot;"), xml);
    assertTrue(xml.contains("who starred in [Forrest Gump]"), xml);
    String d = Files.readString(dot, StandardCharsets.UTF_8);
    assertTrue(d.contains("\"n11\" [label=\"Tom Hanks\", style=\"rounded,filled,bold\""), d);
    assertTrue(d.contains("Robert <Zemeckis> & \\\"co\\\""), d);
  }

  @Test
  void exportEvidenceSaysWhyThereIsNothingToExport() {
    Path out = SparkTestSession.newDir("evidence-none");
    Cli unable = Cli.run("export-evidence", "--run-id", "r1", "--qid", "q3", "--out", out.toString(), "--warehouse", warehouse);
    assertEquals(2, unable.code, unable.toString());
    assertTrue(unable.err.contains("status unable (no candidate) and no evidence"), unable.err);
    assertFalse(Files.exists(out.resolve("q3.graphml")));

    Cli qid = Cli.run("export-evidence", "--run-id", "r1", "--qid", "zz", "--warehouse", warehouse);
    assertEquals(2, qid.code, qid.toString());
    assertTrue(qid.err.contains("no answer for question 'zz'"), qid.err);

    Cli method = Cli.run("export-evidence", "--run-id", "r1", "--qid", "q1", "--method", "simgrag", "--warehouse", warehouse);
    assertEquals(2, method.code, method.toString());
    assertTrue(method.err.contains("by method simgrag"), method.err);

    Cli run = Cli.run("export-evidence", "--run-id", "nope", "--qid", "q1", "--warehouse", warehouse);
    assertEquals(2, run.code, run.toString());
    assertTrue(run.err.contains("no answers for run 'nope'"), run.err);
  }

  @Test
  void helpListsTheCommands() {
    Cli top = Cli.run("--help");
    assertTrue(top.out.contains("eval") && top.out.contains("export-evidence"), top.out);
    Cli export = Cli.run("export-evidence", "--help");
    assertEquals(0, export.code);
    for (String opt : new String[] {"--run-id", "--qid", "--method", "--dataset", "--out", "--warehouse"}) {
      assertTrue(export.out.contains(opt), opt + " missing from: " + export.out);
    }
  }

  @Test
  void fileNamesAreSafe() {
    assertEquals("1-hop_qa_test_17", EvidenceExport.fileName("1-hop/qa test/17"));
    assertEquals("_hidden", EvidenceExport.fileName(".hidden"));
  }
}
