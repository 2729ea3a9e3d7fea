package io.kgrag.jobs.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Issue 27's scale run at a tenth of its size, as the integration tier can afford it: the 1M-edge synthetic graph
 * ({@code kgrag synth}: 100,000 entities, 300 relation types) and its 1,000 questions of known answers, indexed on
 * this machine, then answered by SG-RAG on the two-worker standalone cluster with the label lookups exchanged
 * ({@code spark.kgrag.sgrag.label-lookups exchange}: no executor holds the label index). The heaps are the 10M
 * run's scaled down as far as Spark lets them be: executors of 768 MB (10M: 4,096 MB; Spark keeps 300 MB of every
 * heap for itself, so 768 MB leaves 468 MB, an eighth of the 3,796 MB the 10M executors have) and a driver of
 * 512 MB (10M: 2 GB; Spark refuses a heap under 450 MB). At 1M edges 640 MB executors also answer and 512 MB ones
 * run out of memory (bench/RESULTS.md). Every question is answered, Hit@1 is the local run's (100 %), no executor
 * is lost, and both workers ran one.
 */
class ScaleClusterIT {
  private static final Duration JOB = Duration.ofMinutes(20);
  private static final int QUESTIONS = 1000;

  @Test
  void theMillionEdgeGraphIsAnsweredOnTwoSmallExecutorsWithHit1Unchanged() throws Exception {
    Path root = SparkTestSession.newDir("scale-cluster-it");
    Path synth = root.resolve("synth-1m");
    Path wh = root.resolve("wh-1m");
    LocalCluster.runLocally(root.resolve("synth.log"), "1g", "synth", "--edges", "1000000", "--questions", Integer.toString(QUESTIONS),
        "--out", synth.toString()).succeeds(JOB);
    LocalCluster.runLocally(root.resolve("index.log"), "4g", "index", "--input", synth.resolve("kb.txt").toString(), "--format", "pipe",
        "--warehouse", wh.toString(), "--skip", "stem-gnn").succeeds(JOB);

    try (LocalCluster cluster = LocalCluster.start(root.resolve("cluster"), "960m")) {
      String conf = Files.readString(Path.of(cluster.conf()));
      assertTrue(Pattern.compile("(?m)^spark\\.executor\\.memory\\s+768m$").matcher(conf).find(), conf);
      Path profile = Files.writeString(root.resolve("scale.properties"),
          conf.replaceAll("(?m)^spark\\.driver\\.memory .*$", "spark.driver.memory 512m") + "\nspark.kgrag.sgrag.label-lookups exchange\n");
      LocalCluster.Job qa = cluster.submit(root.resolve("qa.log"), profile, "qa", "--method", "sgrag", "--warehouse", wh.toString(), "--questions",
          synth.resolve("questions.csv").toString(), "--dataset", "scale-1m", "--run-id", "scale-1m");
      qa.succeeds(JOB);
      String log = qa.log();
      assertFalse(log.contains("local["), "the job ran on the standalone master:\n" + log);
      assertFalse(log.contains("Lost executor") || log.contains("OutOfMemoryError"), "no executor was lost:\n" + log);
      for (String worker : List.of("worker-1", "worker-2")) {
        try (Stream<Path> apps = Files.list(root.resolve("cluster/work").resolve(worker))) {
          assertTrue(apps.findAny().isPresent(), worker + " ran an executor");
        }
      }
    }

    LocalCluster.runLocally(root.resolve("eval.log"), "1g", "eval", "--warehouse", wh.toString(), "--run-id", "scale-1m").succeeds(JOB);
    SparkSession spark = SparkTestSession.get();
    List<Row> all = spark.sql("select n, hit1 from delta.`" + new Catalog(spark, wh.toString()).location(KgTable.METRICS) + "` where run_id = 'scale-1m' and slice = 'all'").collectAsList();
    assertEquals(1, all.size(), "one overall metrics row: " + all);
    assertEquals(QUESTIONS, all.get(0).getLong(0), "every question answered");
    assertEquals(1.0, all.get(0).getDouble(1), 1e-9, "Hit@1 as the local run's (bench/RESULTS.md: 100 % at 1M edges)");
  }
}
