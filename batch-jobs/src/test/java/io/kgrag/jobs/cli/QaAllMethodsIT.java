package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.qa.Methods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag qa --method all} on the MetaQA demo slice (ingest, embed, stem-gnn; no path index): every method
 * whose stages the warehouse has answers every question under one run id, SG-RAG is skipped with its reason,
 * {@code auto} answers every question with a complete set and evidence from the graph, and {@code kgrag eval}
 * prints the methods side by side.
 */
class QaAllMethodsIT {
  @Test
  void everyMethodThatCanAnswersUnderOneRunId() throws Exception {
    SparkSession spark = SparkTestSession.get();
    Path wh = DemoWarehouse.metaqa("all-methods");
    Path questions = DemoWarehouse.metaqaData().resolve("questions_1hop.txt");
    long lines = Files.readAllLines(questions).size();
    Cli r = Cli.run("qa", "--method", "all", "--warehouse", wh.toString(), "--questions", questions.toString(), "--format", "metaqa", "--dataset",
        "mq-all", "--run-id", "all-1");
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.contains("skipped") && r.out.contains("sgrag") && r.out.contains("dense"), r.toString());

    Catalog catalog = new Catalog(spark, wh.toString());
    Dataset<Row> answers = catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo("all-1"));
    Set<String> methods = new HashSet<>(answers.select("method").distinct().as(org.apache.spark.sql.Encoders.STRING()).collectAsList());
    Set<String> expected = new HashSet<>(Methods.all().keySet());
    expected.remove("sgrag");
    expected.remove("dense"); // a graph of triples has no chunks to rank
    assertEquals(expected, methods);
    for (String m : methods) {
      assertEquals(lines, answers.filter(col("method").equalTo(m)).count(), m);
    }
    Dataset<Row> auto = answers.filter(col("method").equalTo("auto"));
    assertEquals(lines, auto.filter(col("status").equalTo("exact")).count(), () -> auto.select("qid", "status", "reason").collectAsList().toString());
    // complete sets: a question with several gold answers gets more than one ranked answer somewhere
    assertTrue(auto.filter(org.apache.spark.sql.functions.size(col("ranked")).gt(1)).count() > 0);
    Dataset<Row> evidence = catalog.read(KgTable.EVIDENCE).filter(col("run_id").equalTo("all-1").and(col("method").equalTo("auto")));
    Dataset<Row> relations = catalog.read(KgTable.RELATIONS);
    assertTrue(evidence.count() >= lines);
    assertEquals(0, evidence.join(relations, evidence.col("src").equalTo(relations.col("src_id"))
        .and(evidence.col("relation").equalTo(relations.col("relation"))).and(evidence.col("dst").equalTo(relations.col("dst_id"))), "left_anti").count());

    Cli eval = Cli.run("eval", "--warehouse", wh.toString(), "--run-id", "all-1");
    assertEquals(0, eval.code, eval.toString());
    for (String m : List.of("auto", "simgrag", "qafd", "stem", "srag")) {
      assertTrue(eval.out.contains(m), m + " missing from " + eval.out);
    }
  }
}
