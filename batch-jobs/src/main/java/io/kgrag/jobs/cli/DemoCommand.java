package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.TripleFormat;
import io.kgrag.core.method.Components;
import io.kgrag.core.qa.eval.AnswerMatch;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.api.RetrievalMethod;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.pipeline.PipelineRun;
import io.kgrag.jobs.internal.qa.Methods;
import io.kgrag.jobs.internal.qa.QaRun;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.internal.stage.TriplesInput;
import io.kgrag.jobs.internal.stage.schema.Schema;
import io.kgrag.jobs.runs.RunLog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kgrag demo}: runs the whole product on the bundled slices of MetaQA and FB15k-237 (data/demo/,
 * made by data/demo/make_demo.py from the shared data): index (every stage of {@code kgrag index}), answer
 * the bundled questions ({@code kgrag qa}), score them ({@code kgrag eval}), one warehouse per graph, and
 * print what it built, the metrics, one answered question with its evidence and what to try next.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Runs kgrag end to end on the bundled demo data (a MetaQA slice and an FB15k-237 slice) with the offline",
      "defaults: index (every stage), qa with every method on the bundled questions, eval side by side. Prints",
      "each warehouse's tables, the metrics, an example answer with its evidence and the next commands to try.",
      "Warehouses: <warehouse>/metaqa and <warehouse>/fb15k237 (default warehouse: <spark.kgrag.warehouse>/demo).",
      "Run id: demo unless --run-id is given; a second demo replaces its rows."
    })
public final class DemoCommand implements Callable<Integer> {
  /** The run id of the demo's rows when --run-id is not given (re-running the demo replaces them). */
  static final String RUN_ID = "demo";

  /**
   * GNN training settings for the demo's small graphs when the profile sets none: the full defaults (30
   * epochs, up to 4,000 stars) would dominate the demo's time.
   */
  static final Map<String, String> DEMO_GNN =
      Map.of("spark.kgrag.gnn.epochs", "8", "spark.kgrag.gnn.train-stars", "400");

  @Mixin JobOptions job = new JobOptions();

  @Spec CommandSpec spec;

  @Option(names = "--data", paramLabel = "<dir>", description = "The demo data folder. Default: data/demo of the kgrag installation.")
  String data;

  /** One bundled graph and its questions. */
  private record Graph(String name, String triples, TripleFormat format, String names, String questions, String questionFormat, String dataset) {}

  @Override
  public Integer call() {
    Path dir = dataDir();
    List<Graph> graphs =
        List.of(
            new Graph("metaqa", "metaqa/kb.txt", TripleFormat.PIPE, null, "metaqa/questions_1hop.txt", "metaqa", "metaqa-demo"),
            new Graph("fb15k237", "fb15k237/triples.tsv", TripleFormat.TSV, "fb15k237/entity2name.tsv", "fb15k237/questions.csv", "csv", "erqa-demo"));
    for (Graph g : graphs) {
      for (String f : new String[] {g.triples(), g.questions()}) {
        if (!Files.isReadable(dir.resolve(f))) {
          throw new UserInputException("demo data missing: " + dir.resolve(f) + " (run python3 data/demo/make_demo.py)");
        }
      }
    }
    String runId = job.runId != null ? RunLog.checkRunId(job.runId) : RUN_ID;
    SparkSession spark = job.session("kgrag demo");
    SparkConf sc = spark.sparkContext().getConf(); // a copy
    Map<String, String> gnn = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : DEMO_GNN.entrySet()) {
      if (!sc.contains(e.getKey())) {
        sc.set(e.getKey(), e.getValue());
        gnn.put(e.getKey(), e.getValue());
      }
    }
    KgragConf conf = new KgragConf(sc);
    List<RetrievalMethod> methods = new ArrayList<>(Methods.all().values());
    java.util.Set<String> stages = new java.util.LinkedHashSet<>();
    for (RetrievalMethod m : methods) {
      stages.addAll(m.requiredStages());
    }
    stages.add(Schema.NAME); // the question understanding's schema, which the methods read when it is there
    String root = job.where.warehouse != null ? job.where.warehouse : conf.warehouse(null) + "/demo";
    EmbedderSpec embedder = conf.embedder(null, null, null);
    PrintWriter out = spec.commandLine().getOut();
    if (!gnn.isEmpty()) {
      out.println("demo: small GNN training for the small graphs (set in your --conf-file to change): "
          + String.join(", ", gnn.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).sorted().toList()));
      out.flush();
    }
    String exampleQid = "<qid>";
    for (Graph g : graphs) {
      Catalog catalog = job.catalog(spark, root + "/" + g.name());
      RunLog log = new RunLog(catalog, runId);
      StageSetup setup = new StageSetup(catalog, conf, embedder, runId);
      TriplesInput o = new TriplesInput();
      o.input = dir.resolve(g.triples()).toString();
      o.format = g.format();
      o.names = g.names() == null ? null : dir.resolve(g.names()).toString();
      o.source = "demo-" + g.name();
      setup.triples = o;
      // every stage any method reads, then every method on the same questions, side by side
      new PipelineRun(setup, log).build(List.copyOf(stages));
      Map<String, String> skipped = new LinkedHashMap<>();
      for (RetrievalMethod method : methods) {
        // 20 and 12 questions: two partitions are enough (kgrag qa's default, 2 x the parallelism, makes empty tasks)
        Catalog snapshot = QaRun.snapshot(catalog, method);
        MethodSetup qa =
            new MethodSetup(snapshot, embedder, conf.options(method.optionsType(), "spark.kgrag." + method.name() + "."), Components.OFFLINE, null, 1, 0.8);
        try {
          QaRun.answer(log, dir.resolve(g.questions()).toString(), g.dataset(), g.questionFormat(), method, qa, 2);
        } catch (UserInputException e) {
          if (method.isDefault()) {
            throw e;
          }
          // a method these graphs cannot serve (dense ranks a text corpus's chunks) finds so before it writes an
          // answer, and is skipped with its reason, as `kgrag qa --method all` skips it
          RunLog.progress("kgrag demo: skipping " + method.name() + ": " + e.getMessage());
          skipped.put(method.name(), e.getMessage());
        }
      }

      StringWriter metrics = new StringWriter();
      PrintWriter m = new PrintWriter(metrics);
      EvalCommand.evaluate(catalog, runId, m);
      m.flush();

      out.println();
      out.println("== " + g.name() + "  (" + root + "/" + g.name() + ", run id " + runId + ")");
      tables(out, catalog);
      out.println();
      metrics.toString().lines().forEach(l -> out.println("   " + l));
      skipped.forEach((name, why) -> out.println("   skipped " + name + ": " + why));
      String qid = example(out, catalog, runId, g.dataset(), Methods.defaultMethod().name());
      if (g.name().equals("fb15k237") && qid != null) {
        exampleQid = qid;
      }
      out.flush();
    }
    next(out, root, runId, dir, exampleQid, new Catalog(spark, root + "/fb15k237"));
    out.flush();
    return 0;
  }

  /** Row counts of the warehouse's tables, grouped by what wrote them. */
  private static void tables(PrintWriter out, Catalog catalog) {
    Object[][] groups = {
      {"graph", new KgTable[] {KgTable.ENTITIES, KgTable.RELATIONS, KgTable.INGEST_REJECTS}},
      {"index", new KgTable[] {KgTable.ENTITY_EMBEDDINGS, KgTable.RELATION_EMBEDDINGS, KgTable.GNN_MODELS, KgTable.NODE_DOMINANCE, KgTable.PATHS, KgTable.PATH_INDEX}},
      {"qa", new KgTable[] {KgTable.QUESTIONS, KgTable.QUERY_GRAPHS, KgTable.ANSWERS, KgTable.EVIDENCE, KgTable.METRICS, KgTable.RUNS}},
    };
    for (Object[] group : groups) {
      List<String> parts = new ArrayList<>();
      for (KgTable t : (KgTable[]) group[1]) {
        if (catalog.exists(t)) {
          parts.add(t.tableName() + " " + String.format(Locale.ROOT, "%,d", catalog.read(t).count()));
        }
      }
      out.printf(Locale.ROOT, "   %-6s %s%n", group[0], String.join(", ", parts));
    }
  }

  /** Prints one question the method answered (the first exact right answer, else the first answer); its qid. */
  private static String example(PrintWriter out, Catalog catalog, String runId, String dataset, String method) {
    List<Row> rows =
        catalog.read(KgTable.ANSWERS)
            .filter(col("run_id").equalTo(runId).and(col("dataset").equalTo(dataset)).and(col("method").equalTo(method)).and(col("answer").isNotNull()))
            .join(catalog.read(KgTable.QUESTIONS).filter(col("dataset").equalTo(dataset)).select("qid", "question", "answers"), "qid")
            .select("qid", "question", "answer", "status", "answers")
            .orderBy("qid").collectAsList();
    Row pick = null;
    for (Row r : rows) {
      boolean right = AnswerMatch.goldSet(r.getList(4)).containsAll(AnswerMatch.goldSet(List.of(r.getString(2))));
      if (right && r.getString(3).equals("exact")) {
        pick = r;
        break;
      }
      if (pick == null) {
        pick = r;
      }
    }
    if (pick == null) {
      return null;
    }
    List<String> gold = pick.getList(4);
    out.println();
    out.println("   example (" + method + ") " + pick.getString(0) + ": " + pick.getString(1));
    out.println("     answer: " + pick.getString(2) + "  (" + pick.getString(3) + "; gold: "
        + String.join(" | ", gold.size() > 3 ? gold.subList(0, 3) : gold) + (gold.size() > 3 ? " | …" : "") + ")");
    List<Row> ev =
        catalog.read(KgTable.EVIDENCE)
            .filter(col("run_id").equalTo(runId).and(col("dataset").equalTo(dataset)).and(col("method").equalTo(method)).and(col("qid").equalTo(pick.getString(0))))
            .select("src_label", "relation", "dst_label").distinct().orderBy("relation", "src_label", "dst_label").collectAsList();
    out.println("     evidence (" + ev.size() + (ev.size() == 1 ? " edge" : " edges") + "):");
    for (int i = 0; i < Math.min(6, ev.size()); i++) {
      Row e = ev.get(i);
      out.println("       " + e.getString(0) + "  --" + e.getString(1) + "-->  " + e.getString(2));
    }
    if (ev.size() > 6) {
      out.println("       … " + (ev.size() - 6) + " more (kgrag export-evidence)");
    }
    return pick.getString(0);
  }

  private static void next(PrintWriter out, String root, String runId, Path dir, String qid, Catalog fb) {
    String wh = root + "/fb15k237";
    out.println();
    out.println("Next, on the FB15k-237 demo warehouse:");
    out.println("  bin/kgrag qa --warehouse " + wh + " --questions " + shown(dir.resolve("fb15k237/questions.csv")) + " --dataset erqa-demo --run-id my-run");
    out.println("  bin/kgrag eval --warehouse " + wh + " --run-id " + runId);
    out.println("  bin/kgrag qa --method all --warehouse " + wh + " --questions " + shown(dir.resolve("fb15k237/questions.csv")) + " --dataset erqa-demo --run-id my-all");
    out.println("  bin/kgrag export-evidence --warehouse " + wh + " --run-id " + runId + " --qid " + qid + " --out evidence");
    out.println("  Spark SQL: SELECT qid, status, answer FROM delta.`" + fb.location(KgTable.ANSWERS) + "` WHERE run_id = '" + runId + "'");
  }

  /** {@code p} relative to the working directory when it lies under it. */
  private static String shown(Path p) {
    Path cwd = Paths.get("").toAbsolutePath();
    Path abs = p.toAbsolutePath().normalize();
    return abs.startsWith(cwd) ? cwd.relativize(abs).toString() : abs.toString();
  }

  private Path dataDir() {
    if (data != null) {
      return Paths.get(data);
    }
    String home = System.getProperty("kgrag.home", System.getenv("KGRAG_HOME"));
    return home != null ? Paths.get(home, "data", "demo") : Paths.get("data", "demo");
  }
}
