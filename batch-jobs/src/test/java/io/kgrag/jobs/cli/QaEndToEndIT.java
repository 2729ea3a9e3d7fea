package io.kgrag.jobs.cli;

import static io.kgrag.jobs.cli.QaEndToEndTest.DATASET;
import static io.kgrag.jobs.cli.QaEndToEndTest.RUN;
import static io.kgrag.jobs.cli.QaEndToEndTest.VALID;
import static io.kgrag.jobs.cli.QaEndToEndTest.answers;
import static io.kgrag.jobs.cli.QaEndToEndTest.ofRun;
import static io.kgrag.jobs.cli.QaEndToEndTest.qa;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.Components;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.sgrag.qa.SgragComponents;
import io.kgrag.core.sgrag.qa.SgragContext;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.method.sgrag.SgragMethod;
import io.kgrag.jobs.internal.method.sgrag.SgragOptions;
import io.kgrag.jobs.internal.qa.QaJob;
import io.kgrag.jobs.internal.qa.QaSummary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag qa} on the indexed FB15k-237 demo slice, beyond {@link QaEndToEndTest}'s first run of the same
 * questions (with their malformed rows): the run repeated under its run id replaces its rows, and questions
 * that fail one by one get status error while the batch goes on.
 */
class QaEndToEndIT {
  private static SparkSession spark;
  private static Path wh;
  private static Catalog catalog;
  private static Path questions;

  @BeforeAll
  static void answerTheDemoQuestionsWithBadRowsAmongThem() throws IOException {
    spark = SparkTestSession.get();
    wh = DemoWarehouse.copy("qa-e2e-it");
    catalog = new Catalog(spark, wh.toString());
    questions = QaEndToEndTest.questionsWithBadRows();
    Cli r = qa(wh, questions, RUN);
    assertEquals(0, r.code, r.toString());
  }

  @Test
  void reRunningWithTheSameRunIdReplacesItsRows() {
    long answers = ofRun(catalog, KgTable.ANSWERS, RUN).count();
    long evidence = ofRun(catalog, KgTable.EVIDENCE, RUN).count();
    long graphs = ofRun(catalog, KgTable.QUERY_GRAPHS, RUN).count();
    long questionRows = catalog.read(KgTable.QUESTIONS).count();
    Cli again = qa(wh, questions, RUN);
    assertEquals(0, again.code, again.toString());
    assertEquals(answers, ofRun(catalog, KgTable.ANSWERS, RUN).count());
    assertEquals(evidence, ofRun(catalog, KgTable.EVIDENCE, RUN).count());
    assertEquals(graphs, ofRun(catalog, KgTable.QUERY_GRAPHS, RUN).count());
    assertEquals(questionRows, catalog.read(KgTable.QUESTIONS).count());
    assertEquals(VALID + 4, ofRun(catalog, KgTable.ANSWERS, RUN).select("qid").distinct().count());
  }

  /**
   * Failures of single questions, in both places a question can fail: the extractor throws for one question
   * (step 1), and the graph's label embeddings lack one entity (embed not re-run after a change), so label
   * completion (step 2) cannot compute the GNN vector of the question that names it. Each of the two gets
   * status error with the exception's class and message; the others are answered as before.
   */
  @Test
  void failingQuestionsGetStatusErrorWithTheExceptionAndTheBatchGoesOn() {
    Path stale = DemoWarehouse.copy("qa-e2e-stale");
    Catalog c = new Catalog(spark, stale.toString());
    c.delta(KgTable.ENTITY_EMBEDDINGS).delete(col("label").equalTo("Special Effects Supervisor"));
    Dataset<Row> qs = catalog.read(KgTable.QUESTIONS).filter(col("dataset").equalTo(DATASET).and(col("invalid_reason").isNull()));
    MethodSetup setup = new MethodSetup(c, EmbedderSpec.onnx().build(), SgragOptions.defaults(), Components.OFFLINE, null, 1, 0.8);
    QaSummary s = QaJob.run(new SgragMethod(new FailingOn("Tehran")), setup, qs, DATASET, "failing", 2);
    assertEquals(VALID, s.questions());
    assertEquals(2L, s.statuses().get("error"), s.statuses().toString());
    Map<String, Row> byQid = answers(c, "failing");
    assertEquals(VALID, byQid.size());

    Row extractor = byQid.get("002-0779"); // "Who is the female actor born in Tehran, …"
    assertEquals("error", extractor.getAs("status"), extractor.toString());
    assertEquals("IllegalArgumentException: extractor failed on purpose", extractor.getAs("reason"));

    Row completion = byQid.get("002-0459"); // "Which film features Matthew W. Mungle as the Special Effects Supervisor and …"
    assertEquals("error", completion.getAs("status"), completion.toString());
    String reason = completion.getAs("reason");
    assertTrue(reason.startsWith("IllegalStateException: no label feature for key ") && reason.contains("Special Effects Supervisor"), reason);

    for (Row failed : List.of(extractor, completion)) {
      assertTrue(failed.isNullAt(failed.fieldIndex("answer")) && failed.getList(failed.fieldIndex("ranked")).isEmpty(), failed.toString());
      assertEquals(0, ofRun(c, KgTable.EVIDENCE, "failing").filter(col("qid").equalTo(failed.<String>getAs("qid"))).count());
    }
    // the batch went on: the other questions are answered as in the first run
    Map<String, Row> first = answers(catalog, RUN);
    for (Row a : byQid.values()) {
      String qid = a.getAs("qid");
      if (!qid.equals("002-0779") && !qid.equals("002-0459")) {
        assertEquals(first.get(qid).<String>getAs("status"), a.getAs("status"), qid);
        assertEquals(first.get(qid).<String>getAs("answer"), a.getAs("answer"), qid);
      }
    }
  }

  /** The offline components, with an extractor that throws for questions containing a word. */
  private static final class FailingOn implements SgragComponents {
    private static final long serialVersionUID = 1L;
    private final String word;
    private final SgragComponents embedded = SgragComponents.of(Components.OFFLINE);

    FailingOn(String word) {
      this.word = word;
    }

    @Override
    public QueryGraphExtractor extractor(SgragContext ctx, Embedder embedder, CachingChatClient chat) {
      QueryGraphExtractor inner = embedded.extractor(ctx, embedder, chat);
      return question -> {
        if (question.contains(word)) {
          throw new IllegalArgumentException("extractor failed on purpose");
        }
        return inner.extract(question);
      };
    }

    @Override
    public AnswerGenerator generator(SgragContext ctx, CachingChatClient chat) {
      return embedded.generator(ctx, chat);
    }
  }
}
