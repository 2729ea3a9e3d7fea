package io.kgrag.jobs.reliability;

import static io.kgrag.jobs.WarehouseContent.assertSameTables;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.WarehouseContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * kgrag's jobs on a real multi-process Spark cluster (a standalone master and two workers on 127.0.0.1,
 * one executor JVM each; {@link LocalCluster}), with faults: executors killed with SIGKILL in the middle of
 * the index and QA jobs, the driver killed with SIGKILL while a table's data files are written but not yet
 * committed, the same job run twice, and an incremental {@code --append} against a full rebuild. Every
 * test checks the tables afterwards against an undisturbed run, table by table and row by row.
 *
 * <p>Run by {@code mvn -Preliability -pl batch-jobs -am verify} (and {@code .ci/run}); it needs the packaged
 * jars, so it is a Failsafe integration test, not part of the unit suite.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFaultsIT {
  private static final Duration JOB = Duration.ofMinutes(8);
  private static final String[] INDEX_STAGES = {"--skip", "stem-gnn"};
  /** The QA's graph tables and outputs compared between runs. */
  private static final String[] QA_TABLES = {"questions", "query_graphs", "answers", "evidence"};

  private static Path root;
  private static LocalCluster cluster;
  private static Path profile;
  private static Path kb;
  private static Path partA;
  private static Path partB;
  private static Path questions;
  private static Path baseline;
  private static Map<String, List<String>> baselineContent;
  private static SparkSession spark;

  @BeforeAll
  static void startTheClusterAndBuildTheBaseline() throws Exception {
    spark = SparkTestSession.get();
    root = SparkTestSession.newDir("cluster-it");
    cluster = LocalCluster.start(root.resolve("cluster"));
    // the cluster's profile plus a GNN small enough to train in seconds (bounded by epochs: no stopping rule
    // reads a clock unless spark.kgrag.gnn.max-seconds asks for one)
    profile = root.resolve("it.properties");
    Files.writeString(profile, Files.readString(Path.of(cluster.conf()))
        + "\nspark.kgrag.gnn.epochs 8\nspark.kgrag.gnn.train-stars 400\n");
    Path data = LocalCluster.kgragHome().resolve("data/demo/metaqa");
    List<String> lines = Files.readAllLines(data.resolve("kb.txt"), StandardCharsets.UTF_8);
    kb = Files.write(root.resolve("kb.txt"), lines, StandardCharsets.UTF_8);
    int cut = lines.size() - 60;
    // the parts keep the file name: entities and relations record it as their source, and the incremental
    // build is compared with the full one column by column
    partA = Files.write(Files.createDirectories(root.resolve("a")).resolve("kb.txt"), lines.subList(0, cut), StandardCharsets.UTF_8);
    partB = Files.write(Files.createDirectories(root.resolve("b")).resolve("kb.txt"), lines.subList(cut, lines.size()), StandardCharsets.UTF_8);
    questions = data.resolve("questions_1hop.txt");

    baseline = root.resolve("wh-baseline");
    index(baseline, "baseline-index", kb, false).succeeds(JOB);
    qa(baseline, "baseline-qa").succeeds(JOB);
    baselineContent = WarehouseContent.of(spark, baseline);
    assertTrue(baselineContent.get("entities").size() > 300, "the baseline indexed the graph");
    assertEquals(20, baselineContent.get("answers").size(), "one answer row per question");
  }

  @AfterAll
  static void stopTheCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void jobsRunOnTwoExecutorJvms() throws Exception {
    // the baseline ran with the standalone master: its log names the cluster, and both workers ran executors
    String log = Files.readString(root.resolve("baseline-index.log"));
    assertFalse(log.contains("local["), log);
    try (Stream<Path> apps = Files.list(root.resolve("cluster/work/worker-1"))) {
      assertTrue(apps.findAny().isPresent(), "worker 1 ran an executor");
    }
    try (Stream<Path> apps = Files.list(root.resolve("cluster/work/worker-2"))) {
      assertTrue(apps.findAny().isPresent(), "worker 2 ran an executor");
    }
  }

  @Test
  @Order(2)
  void theIndexJobRunAgainOnTheSameWarehouseWithAnExecutorKilledGivesIdenticalTables() throws Exception {
    // the same input again, into the baseline's own tables (a scheduler's retry), while executors die
    Path wh = copy(baseline, "wh-rerun");
    LocalCluster.Job job = index(wh, "rerun-index", kb, false);
    job.awaitLine("kgrag ingest ", JOB);
    long first = cluster.killAnExecutor(Duration.ofMinutes(2));   // during embed
    job.awaitLine("kgrag gnn .*node vectors", JOB);
    long second = cluster.killAnExecutor(Duration.ofMinutes(2));  // during paths
    job.succeeds(JOB);
    assertNotEquals(first, second);
    assertSameTables(baselineContent, WarehouseContent.of(spark, wh));
  }

  @Test
  @Order(3)
  void theQaJobRunAgainWithAnExecutorKilledGivesIdenticalAnswersAndEvidence() throws Exception {
    Path wh = root.resolve("wh-rerun");
    LocalCluster.Job job = qa(wh, "rerun-qa");
    job.awaitLine("kgrag questions ", JOB);
    cluster.killAnExecutor(Duration.ofMinutes(2));
    job.succeeds(JOB);
    assertSameTables(baselineContent, WarehouseContent.of(spark, wh));
  }

  @Test
  @Order(5)
  void aDriverKilledMidWriteLeavesEveryTableAtACommittedVersionAndTheRerunCompletesIt() throws Exception {
    // the graph of part A, then --append part B: killed while a table's files are written, then run again
    Path wh = root.resolve("wh-driver-killed");
    index(wh, "index-a", partA, false).succeeds(JOB);
    Map<String, Long> before = WarehouseContent.versions(wh);
    Map<String, List<String>> contentBefore = WarehouseContent.of(spark, wh);
    LocalCluster.Job job = index(wh, "append-b-killed", partB, true);
    String caught = killWhenDataFilesAreUncommitted(job, wh, before);
    assertTrue(job.await(Duration.ofMinutes(1)) != 0, "the driver was killed");

    Map<String, Long> after = WarehouseContent.versions(wh);
    assertEquals(before.get(caught), after.get(caught), caught + " has no commit of the killed write");
    Map<String, List<String>> contentAfter = WarehouseContent.of(spark, wh);
    assertEquals(contentBefore.get(caught), contentAfter.get(caught), caught + " reads as before the killed run");
    for (Map.Entry<String, Long> t : after.entrySet()) {
      if (t.getValue().equals(before.get(t.getKey()))) {
        assertEquals(contentBefore.get(t.getKey()), contentAfter.get(t.getKey()), t.getKey() + " untouched");
      }
    }

    index(wh, "append-b-rerun", partB, true).succeeds(JOB);
    // an incremental --append of B after A gives the graph, embeddings, dominance vectors, paths and path index
    // the full build of A and B gave (the answers over them: ReindexCommandIT, in local mode)
    // (gnn_models keeps A's model beside the one trained on A and B, by design: models are kept by id)
    assertSameTables(graphTables(baselineContent), withoutSupersededModels(WarehouseContent.of(spark, wh)));
  }

  // ---------------------------------------------------------------------------------------------------

  private static LocalCluster.Job index(Path wh, String name, Path input, boolean append) throws IOException {
    List<String> args = new ArrayList<>(List.of("index", "--input", input.toString(), "--format", "pipe", "--warehouse", wh.toString(),
        "--index-partitions", "4", "--run-id", name));
    args.addAll(List.of(INDEX_STAGES));
    if (append) {
      args.add("--append");
    }
    return submit(name, args);
  }

  private static LocalCluster.Job qa(Path wh, String name) throws IOException {
    return submit(name, List.of("qa", "--method", "sgrag", "--questions", questions.toString(), "--format", "metaqa", "--dataset", "metaqa-demo",
        "--warehouse", wh.toString(), "--run-id", "qa-1"));
  }

  private static LocalCluster.Job submit(String name, List<String> args) throws IOException {
    List<String> all = new ArrayList<>(args);
    return cluster.submit(root.resolve(name + ".log"), profile, all.toArray(new String[0]));
  }

  /**
   * Watches every table directory of {@code wh} and kills the driver (SIGKILL) as soon as one holds a
   * data file that no commit names yet, that is in the middle of a write; returns that table's name.
   */
  private static String killWhenDataFilesAreUncommitted(LocalCluster.Job job, Path wh, Map<String, Long> versions) throws Exception {
    Map<String, Set<String>> known = new java.util.HashMap<>();
    for (String t : versions.keySet()) {
      known.put(t, dataFiles(wh.resolve(t)));
    }
    long deadline = System.nanoTime() + JOB.toNanos();
    while (System.nanoTime() < deadline && job.driver.isAlive()) {
      for (String t : versions.keySet()) {
        Set<String> now = dataFiles(wh.resolve(t));
        now.removeAll(known.get(t));
        if (!now.isEmpty() && WarehouseContent.versions(wh).get(t).equals(versions.get(t))) {
          job.driver.destroyForcibly();
          return t;
        }
      }
      Thread.sleep(2);
    }
    throw new AssertionError("no uncommitted data file seen before the job ended:\n" + job.log());
  }

  private static Set<String> dataFiles(Path table) {
    try (Stream<Path> files = Files.list(table)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".parquet")).collect(Collectors.toCollection(HashSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, List<String>> graphTables(Map<String, List<String>> content) {
    Map<String, List<String>> out = new java.util.TreeMap<>(content);
    for (String t : QA_TABLES) {
      out.remove(t);
    }
    return out;
  }

  /** {@code content} with only the dominance models that node_dominance uses left in gnn_models. */
  private static Map<String, List<String>> withoutSupersededModels(Map<String, List<String>> content) {
    Set<String> used = new HashSet<>();
    java.util.regex.Pattern id = java.util.regex.Pattern.compile("model_id=(\\S+) ");
    for (String row : content.get("node_dominance")) {
      java.util.regex.Matcher m = id.matcher(row);
      if (m.find()) {
        used.add(m.group(1));
      }
    }
    Map<String, List<String>> out = new java.util.TreeMap<>(content);
    out.put("gnn_models", content.get("gnn_models").stream().filter(row -> {
      java.util.regex.Matcher m = id.matcher(row);
      return m.find() && used.contains(m.group(1));
    }).toList());
    return out;
  }

  private static Path copy(Path from, String name) throws IOException {
    Path to = root.resolve(name);
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }
}
