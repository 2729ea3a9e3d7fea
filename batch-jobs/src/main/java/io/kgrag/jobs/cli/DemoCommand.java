package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.desc;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.TripleFormat;
import io.kgrag.jobs.KgragConf;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.index.EmbedStage;
import io.kgrag.jobs.index.IngestStage;
import io.kgrag.jobs.runs.RunLog;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import scala.collection.mutable.WrappedArray;

/**
 * {@code kgrag demo}: indexes the bundled slices of MetaQA and FB15k-237 (data/demo/, made by
 * data/demo/make_demo.py from the shared data) into one warehouse each and prints what it built.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Indexes the bundled demo data (a MetaQA slice and an FB15k-237 slice) with the offline defaults",
      "and prints what it built. Warehouses: <warehouse>/metaqa and <warehouse>/fb15k237."
    })
public final class DemoCommand implements Callable<Integer> {
  @Mixin JobOptions job = new JobOptions();

  @Option(names = "--data", paramLabel = "<dir>", description = "The demo data folder. Default: data/demo of the kgrag installation.")
  String data;

  /** One bundled graph. */
  private static final class Graph {
    final String name;
    final String triples;
    final TripleFormat format;
    final String names;
    final String probe;

    Graph(String name, String triples, TripleFormat format, String names, String probe) {
      this.name = name;
      this.triples = triples;
      this.format = format;
      this.names = names;
      this.probe = probe;
    }
  }

  @Override
  public Integer call() {
    Path dir = dataDir();
    List<Graph> graphs =
        List.of(
            new Graph("metaqa", "metaqa/kb.txt", TripleFormat.PIPE, null, "who directed the film"),
            new Graph("fb15k237", "fb15k237/triples.tsv", TripleFormat.TSV, "fb15k237/entity2name.tsv", "Olympic sport"));
    for (Graph g : graphs) {
      if (!Files.isReadable(dir.resolve(g.triples))) {
        throw new UserInputException("demo data missing: " + dir.resolve(g.triples) + " (run python3 data/demo/make_demo.py)");
      }
    }
    SparkSession spark = job.session("kgrag demo");
    KgragConf conf = JobOptions.conf(spark);
    String root = job.warehouse != null ? job.warehouse : conf.warehouse(null) + "/demo";
    EmbedderSpec spec = conf.embedder(null, null, null);
    PrintStream out = System.out;
    for (Graph g : graphs) {
      Catalog catalog = job.catalog(spark, root + "/" + g.name);
      RunLog log = job.runLog(catalog);
      IngestStage.Options o = new IngestStage.Options();
      o.input = dir.resolve(g.triples).toString();
      o.format = g.format;
      o.names = g.names == null ? null : dir.resolve(g.names).toString();
      o.source = "demo-" + g.name;
      log.succeeded(new IngestStage(catalog).run(o, log.runId()));
      log.succeeded(new EmbedStage(catalog).run(spec));
      catalog.register();
      describe(out, g, catalog, spec);
    }
    out.println();
    out.println("Query these tables with Spark SQL, e.g. SELECT * FROM delta.`" + new Catalog(spark, root + "/fb15k237").location(KgTable.ENTITIES) + "` LIMIT 5");
    return 0;
  }

  private void describe(PrintStream out, Graph g, Catalog catalog, EmbedderSpec spec) {
    out.println();
    out.println("== " + g.name + "  (" + catalog.root() + ")");
    for (KgTable t : KgTable.values()) {
      if (catalog.exists(t)) {
        out.printf(Locale.ROOT, "   %-20s %,8d rows  (Delta version %d)%n", t.tableName(), catalog.read(t).count(), catalog.version(t));
      }
    }
    Dataset<Row> e = catalog.read(KgTable.ENTITIES);
    Dataset<Row> r = catalog.read(KgTable.RELATIONS);
    out.println("   most connected entities:");
    Dataset<Row> degree =
        r.select(col("src_id").as("id")).union(r.select(col("dst_id").as("id"))).groupBy("id").agg(count("*").as("degree"));
    for (Row row : degree.join(e, degree.col("id").equalTo(e.col("entity_id"))).orderBy(desc("degree"), col("label")).limit(5).select("label", "degree").collectAsList()) {
      out.printf(Locale.ROOT, "     %-40s %d edges%n", row.getString(0), row.getLong(1));
    }
    float[] probe;
    try (Embedder emb = spec.open()) {
      probe = emb.embed(List.of(g.probe))[0];
    }
    UserDefinedFunction cosine =
        functions.udf(
            (UDF1<WrappedArray<Float>, Double>)
                v -> {
                  double s = 0;
                  for (int i = 0; i < probe.length; i++) {
                    s += probe[i] * v.apply(i);
                  }
                  return s;
                },
            DataTypes.DoubleType);
    out.println("   relations nearest to \"" + g.probe + "\" by label embedding:");
    for (Row row :
        catalog.read(KgTable.RELATION_EMBEDDINGS).select(col("relation"), cosine.apply(col("vector")).as("cos"))
            .orderBy(desc("cos"), col("relation")).limit(3).collectAsList()) {
      out.printf(Locale.ROOT, "     %-60s cos %.3f%n", row.getString(0), row.getDouble(1));
    }
    out.println("   entities nearest to \"" + g.probe + "\" by label embedding:");
    Dataset<Row> ev = catalog.read(KgTable.ENTITY_EMBEDDINGS);
    for (Row row : ev.select(col("label"), cosine.apply(col("vector")).as("cos")).orderBy(desc("cos"), col("label")).limit(3).collectAsList()) {
      out.printf(Locale.ROOT, "     %-60s cos %.3f%n", row.getString(0), row.getDouble(1));
    }
  }

  private Path dataDir() {
    if (data != null) {
      return Paths.get(data);
    }
    String home = System.getProperty("kgrag.home", System.getenv("KGRAG_HOME"));
    return home != null ? Paths.get(home, "data", "demo") : Paths.get("data", "demo");
  }
}
