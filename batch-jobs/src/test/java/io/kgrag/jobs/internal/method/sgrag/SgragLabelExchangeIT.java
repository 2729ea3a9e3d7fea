package io.kgrag.jobs.internal.method.sgrag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphFeatures;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.embed.LabelIndexTable;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * SG-RAG with {@code spark.kgrag.sgrag.label-lookups=exchange} (no executor holds the label index; each question's
 * lookups go to the index's shards between rounds of its steps) answers every question exactly as with the whole
 * index on each executor: the same ranked answers with the same scores, the same statuses, over an index of several
 * shards.
 */
class SgragLabelExchangeIT {
  private static final String KEY = "spark.kgrag.sgrag.label-lookups";

  @Test
  void theExchangeAnswersAsTheWholeIndexDoes() {
    SparkSession spark = SparkTestSession.get();
    Path wh = DemoWarehouse.copy("sgrag-exchange");
    Catalog catalog = new Catalog(spark, wh.toString());
    String model = EmbedderSpec.onnx().build().modelId();
    long labels = new GraphFeatures(catalog, model).keyLabels().count();
    LabelIndexTable.Built built = new LabelIndexTable(catalog, (int) Math.max(1, labels / 3)).build(model);
    assertTrue(built.rebuilt() && built.shards() >= 3, built.toString());

    Path questions = DemoWarehouse.data().resolve("questions.csv");
    Cli local = Cli.run("qa", "--warehouse", wh.toString(), "--questions", questions.toString(), "--dataset", "erqa-demo", "--run-id", "local");
    assertEquals(0, local.code, local.toString());
    spark.conf().set(KEY, "exchange");
    try {
      Cli exchange = Cli.run("qa", "--warehouse", wh.toString(), "--questions", questions.toString(), "--dataset", "erqa-demo", "--run-id", "exchange");
      assertEquals(0, exchange.code, exchange.toString());
    } finally {
      spark.conf().unset(KEY);
    }

    String answers = catalog.location(KgTable.ANSWERS);
    List<Row> pairs =
        spark
            .sql(
                "select a.qid, to_json(a.ranked) = to_json(b.ranked) and a.status = b.status, a.status, size(a.ranked) from delta.`"
                    + answers + "` a join delta.`" + answers + "` b on a.qid = b.qid"
                    + " where a.run_id = 'local' and b.run_id = 'exchange'")
            .collectAsList();
    assertEquals(12, pairs.size(), "every question answered in both runs");
    int answered = 0;
    for (Row r : pairs) {
      assertTrue(r.getBoolean(1), "question " + r.getString(0) + " is answered alike");
      answered += r.getInt(3) > 0 ? 1 : 0;
    }
    assertTrue(answered >= 10, answered + " of 12 questions have answers");
  }
}
