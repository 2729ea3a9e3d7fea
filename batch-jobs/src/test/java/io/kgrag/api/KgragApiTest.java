package io.kgrag.api;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.monotonically_increasing_id;
import static org.apache.spark.sql.functions.regexp_replace;
import static org.apache.spark.sql.functions.split;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The library API on the bundled MetaQA slice: the Java snippet of docs/api.md (between the markers below, and
 * checked to be there word for word) indexes, answers a DataFrame of questions and evaluates the run.
 */
class KgragApiTest {
  private static final String BEGIN = "// docs/api.md java: begin";
  private static final String END = "// docs/api.md java: end";

  @Test
  void theDocumentedJavaSnippetIndexesAnswersAndEvaluates() {
    SparkSession spark = SparkTestSession.get();
    String warehouse = SparkTestSession.newDir("api-wh").toString();
    String data = DemoWarehouse.metaqaData().toString();

    // docs/api.md java: begin
    Kgrag kg = Kgrag.on(spark).warehouse(warehouse);
    IndexResult built = kg.index().input(data + "/kb.txt").format("pipe").stages("ingest", "embed").run();

    // MetaQA lines: question<TAB>answer|answer; the [topic entity] brackets dropped
    Dataset<Row> questions = spark.read().option("sep", "\t").csv(data + "/questions_1hop.txt").toDF("question", "gold")
        .select(concat(lit("q"), monotonically_increasing_id()).as("qid"),
            regexp_replace(col("question"), "[\\[\\]]", "").as("question"),
            split(col("gold"), "\\|").as("answers"));

    Answers answers = kg.qa().method("auto").dataset("metaqa-1hop").run(questions);
    answers.answers().select("qid", "answer", "status").show(5, false);
    answers.evidence().show(5, false);

    Evaluation eval = kg.evaluate(answers.runId());
    eval.metrics().select("method", "slice", "n", "hit1").show();
    // docs/api.md java: end

    assertEquals(List.of("ingest", "embed"), built.stages().stream().map(IndexResult.Stage::name).toList());
    assertTrue(built.stage("ingest").rows().get("entities") > 0, built.stage("ingest").toString());
    assertTrue(built.stage("ingest").versions().containsKey("entities"), built.stage("ingest").toString());

    assertEquals(20, answers.questions());
    assertEquals(0, answers.invalid());
    assertEquals(List.of("auto"), answers.methods());
    Set<String> qids = questions.select("qid").collectAsList().stream().map(r -> r.getString(0)).collect(Collectors.toSet());
    Set<String> answered = answers.answers().select("qid").collectAsList().stream().map(r -> r.getString(0)).collect(Collectors.toSet());
    assertEquals(qids, answered, "an answers row for every question");
    assertEquals(20, answers.answers().count());
    assertTrue(answers.evidence().count() > 0, "evidence rows for the run");
    assertTrue(answers.queryGraphs().count() > 0, "query graphs for the run");

    List<Row> all = eval.metrics().filter("slice = 'all'").select("method", "n", "hit1").collectAsList();
    assertEquals(1, all.size(), all.toString());
    assertEquals("auto", all.get(0).getString(0));
    assertEquals(20L, ((Number) all.get(0).get(1)).longValue());
    double hit1 = ((Number) all.get(0).get(2)).doubleValue();
    assertTrue(hit1 > 0.5, "hit@1 of auto on the one-hop demo questions: " + hit1);
    assertTrue(eval.report().contains("auto"), eval.report());

    // a frame of questions goes the way a question file does: a bad row is answered invalid_input with its reason
    Dataset<Row> bad = spark.createDataFrame(List.of(
            org.apache.spark.sql.RowFactory.create("b1", "what movies was Barret Oliver an actor in"),
            org.apache.spark.sql.RowFactory.create("b2", "  ")),
        new StructType().add("qid", DataTypes.StringType).add("question", DataTypes.StringType));
    Answers some = kg.answer(bad, "auto");
    assertEquals(Qa.DEFAULT_DATASET, some.dataset());
    assertEquals(1, some.invalid());
    List<Row> statuses = some.answers().orderBy("qid").select("qid", "status").collectAsList();
    assertEquals("b2", statuses.get(1).getString(0));
    assertEquals("invalid_input", statuses.get(1).getString(1));
    assertFalse(statuses.get(0).getString(1).equals("invalid_input"), statuses.toString());
  }

  @Test
  void aQuestionsFrameWithoutItsColumnsIsRefusedNamingTheColumnAndTheSchema() {
    SparkSession spark = SparkTestSession.get();
    Kgrag kg = Kgrag.on(spark).warehouse(SparkTestSession.newDir("api-refused").toString());
    Dataset<Row> noQuestion = spark.createDataFrame(List.of(org.apache.spark.sql.RowFactory.create("q1", "x")),
        new StructType().add("qid", DataTypes.StringType).add("text", DataTypes.StringType));
    UserInputException e = assertThrows(UserInputException.class, () -> kg.answer(noQuestion, "auto"));
    assertTrue(e.getMessage().startsWith("questions DataFrame has no column question (nor query)"), e.getMessage());
    assertTrue(e.getMessage().contains("qid string") && e.getMessage().contains("columns found: qid, text"), e.getMessage());
    // nothing was written: the frame is checked before any table
    assertFalse(Files.exists(Path.of(kg.warehouse().replaceFirst("^file:", ""), "questions")), kg.warehouse());

    UserInputException m = assertThrows(UserInputException.class, () -> kg.answer(noQuestion, "no-such-method"));
    assertTrue(m.getMessage().contains("no-such-method"), m.getMessage());
    UserInputException s = assertThrows(UserInputException.class, () -> kg.index().stages("ingest").run());
    assertTrue(s.getMessage().contains("stage ingest needs --input"), s.getMessage());
  }

  @Test
  void aSessionWithoutDeltaIsRefusedNamingBothSettings() {
    SparkSession plain = SparkTestSession.get().newSession();
    plain.conf().set("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.execution.datasources.v2.V2SessionCatalog");
    UserInputException e = assertThrows(UserInputException.class, () -> Kgrag.on(plain));
    assertTrue(e.getMessage().contains("spark.sql.extensions=io.delta.sql.DeltaSparkSessionExtension")
        && e.getMessage().contains("spark.sql.catalog.spark_catalog=org.apache.spark.sql.delta.catalog.DeltaCatalog"), e.getMessage());
    assertNotNull(Kgrag.on(SparkTestSession.get()));
  }

  @Test
  void docsApiMdHoldsTheJavaSnippetOfThisTestWordForWord() throws IOException {
    List<String> lines = Files.readAllLines(Path.of("src/test/java/io/kgrag/api/KgragApiTest.java"), StandardCharsets.UTF_8);
    List<String> block = new ArrayList<>();
    boolean in = false;
    for (String l : lines) {
      if (l.strip().equals(END)) {
        break;
      }
      if (in) {
        block.add(l);
      }
      if (l.strip().equals(BEGIN)) {
        in = true;
      }
    }
    assertTrue(block.size() > 5, "the snippet between the markers: " + block);
    int indent = block.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    String snippet = block.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).collect(Collectors.joining("\n"));
    String docs = Files.readString(Path.of("..", "docs", "api.md"), StandardCharsets.UTF_8);
    assertTrue(docs.contains("```java\n" + snippet + "\n```"), "docs/api.md must hold this code block exactly:\n```java\n" + snippet + "\n```");
  }
}
