package io.kgrag.jobs.cli;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.internal.eval.EvidenceExport;
import java.io.PrintWriter;
import java.nio.file.Paths;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kgrag export-evidence}: one question's evidence subgraph as GraphML and DOT files. */
@Command(
    name = "export-evidence",
    mixinStandardHelpOptions = true,
    description = {
      "Writes the evidence edges of one answered question of a run as <out>/<qid>.graphml (yEd, Gephi, NetworkX)",
      "and <out>/<qid>.dot (Graphviz: dot -Tsvg <qid>.dot > <qid>.svg), the answer node marked, and prints the",
      "paths. Characters of the qid other than letters, digits, '.', '_' and '-' become '_' in the file names.",
      "Exit code 2 when the question has no evidence (e.g. status unable). Writes no table."
    })
public final class ExportEvidenceCommand implements Callable<Integer> {
  @Mixin QaRunOptions options = new QaRunOptions();

  @Option(names = "--qid", required = true, paramLabel = "<qid>", description = "The question (questions.qid).")
  String qid;

  @Option(names = "--method", paramLabel = "<method>", description = "The method whose answer to export (e.g. sgrag). Default: the run's only method for this question.")
  String method;

  @Option(names = "--dataset", paramLabel = "<name>", description = "The question's dataset. Default: the run's only dataset with this qid.")
  String dataset;

  @Option(names = "--out", paramLabel = "<dir>", defaultValue = "evidence", description = "Local folder to write to (created when missing). Default: ${DEFAULT-VALUE}.")
  String out;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String runId = options.runId();
    JobOptions job = options.job();
    SparkSession spark = job.session("kgrag export-evidence");
    Catalog catalog = job.catalog(spark, null);
    EvidenceExport.Written w = new EvidenceExport(catalog).export(runId, qid, method, dataset, Paths.get(out));
    PrintWriter o = spec.commandLine().getOut();
    o.printf(
        "question %s (%s, %s): %s, answer %s; %d nodes, %d edges%n",
        w.qid(), w.method(), w.dataset(), w.status(), w.answer() == null ? "(none)" : "\"" + w.answer() + "\"", w.nodes(), w.edges());
    o.println(w.graphml());
    o.println(w.dot());
    o.flush();
    return 0;
  }
}
