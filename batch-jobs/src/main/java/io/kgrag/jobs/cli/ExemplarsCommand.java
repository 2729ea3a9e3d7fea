package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.core.exemplar.ChainInducer;
import io.kgrag.core.exemplar.ExemplarBuilder;
import io.kgrag.core.exemplar.MetaQaSource;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kgrag exemplars}: builds the exemplar store of SimGRAG's embedded query-to-pattern step from
 * labelled MetaQA questions, and the held-out question files to evaluate on. See {@link ExemplarBuilder}
 * for the split, the chain induction and what is held out. The warehouse is only read (no run is
 * recorded in it), and nothing is written unless every input is good.
 */
@Command(
    name = "exemplars",
    mixinStandardHelpOptions = true,
    description = {
      "Turns labelled MetaQA questions into a SimGRAG exemplar file and held-out",
      "question files. Each file's questions are split by question type (its",
      "_qtype.txt sidecar): --fraction of each type are drawn as exemplars. For each",
      "(hop, type) the relation chain is induced from the drawn questions over the",
      "warehouse's graph (best F1 against the answers); a drawn question becomes an",
      "exemplar, with the chain as its pattern, when the chain reaches one of its",
      "answers. Every other line goes to a held-out file of the same name and format",
      "in --heldout-dir, which `kgrag qa --questions` reads with its hop and sidecar.",
      "Question files are read from the local file system; the warehouse is only",
      "read, and nothing is written unless every input is good."
    })
public final class ExemplarsCommand implements Callable<Integer> {
  /** Left-out questions listed by name; the rest are counted. */
  private static final int LIST_LEFT_OUT = 10;

  @Mixin JobOptions job = new JobOptions();

  @Spec CommandSpec spec;

  @Option(names = "--questions", arity = "1..*", required = true, paramLabel = "<file>",
      description = "MetaQA question files (question<TAB>a1|a2, topic in [brackets], hop in the name as in qa_dev_2hop.txt); "
          + "a <stem>_qtype.txt sidecar next to a file gives its question types.")
  List<Path> questions;

  @Option(names = "--fraction", defaultValue = "0.2", paramLabel = "<share>",
      description = "Share of each question type drawn as exemplars, in (0, 1]. Default: ${DEFAULT-VALUE}.")
  double fraction;

  @Option(names = "--seed", defaultValue = "7", description = "Seed of the split and of the induction sample. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--induce-sample", defaultValue = "50", paramLabel = "<n>",
      description = "Drawn questions per (hop, type) scored against every chain; the chosen chain is then checked on all. Default: ${DEFAULT-VALUE}.")
  int induceSample;

  @Option(names = "--out", required = true, paramLabel = "<exemplars.jsonl>", description = "The exemplar file to write (JSON Lines).")
  Path out;

  @Option(names = "--heldout-dir", required = true, paramLabel = "<dir>",
      description = "Where to write the held-out question files (and sidecars), under the inputs' names.")
  Path heldoutDir;

  @Override
  public Integer call() {
    long t0 = System.nanoTime();
    if (!(fraction > 0 && fraction <= 1)) {
      throw new UserInputException("--fraction must be in (0, 1], got " + fraction);
    }
    if (induceSample < 1) {
      throw new UserInputException("--induce-sample must be at least 1, got " + induceSample);
    }
    // the inputs first: a bad line fails before Spark or the graph is touched
    List<MetaQaSource.QuestionFile> files = new ArrayList<>();
    for (Path p : questions) {
      files.add(MetaQaSource.read(p));
    }
    SparkSession spark = job.session("kgrag exemplars");
    Catalog catalog = job.catalog(spark, null);
    long t1 = System.nanoTime();
    KnowledgeGraph graph = GraphLoader.load(catalog);
    long t2 = System.nanoTime();
    ExemplarBuilder.Build build = ExemplarBuilder.build(files, new ChainInducer(graph, induceSample, seed), fraction, seed);
    long t3 = System.nanoTime();
    build.write(out, heldoutDir);

    PrintWriter w = spec.commandLine().getOut();
    for (ExemplarBuilder.Group g : build.groups()) {
      String chain =
          g.chain() != null ? g.chain().toString() : g.qtype() == null ? "per question (" + g.chains() + " chains)" : "none found";
      w.printf(Locale.ROOT, "hop %d  %-36s %6d questions %6d drawn %6d exemplars  chain %-44s mean F1 %.3f%s%n",
          g.hop(), g.qtype() == null ? "(no qtype)" : g.qtype(), g.questions(), g.drawn(), g.exemplars(), chain, g.meanF1(),
          g.topicMissing() + g.zeroF1() == 0 ? "" : "  (left out: " + g.topicMissing() + " topic not in graph, " + g.zeroF1() + " F1 0)");
    }
    int listed = 0;
    for (ExemplarBuilder.LeftOut l : build.leftOut()) {
      if (listed++ == LIST_LEFT_OUT) {
        w.printf(Locale.ROOT, "left out: … and %d more%n", build.leftOut().size() - LIST_LEFT_OUT);
        break;
      }
      w.printf(Locale.ROOT, "left out: %s %s: %s (held out)%n", l.question().where(), l.question().question(), l.reason());
    }
    long missing = build.groups().stream().mapToLong(ExemplarBuilder.Group::topicMissing).sum();
    long zero = build.groups().stream().mapToLong(ExemplarBuilder.Group::zeroF1).sum();
    w.printf(Locale.ROOT,
        "kgrag exemplars: %,d exemplars of %,d questions in %d file%s (%,d drawn at fraction %s, seed %d; %,d left out and held out: %,d topic not in graph, %,d F1 0); "
            + "%,d held out; %d groups; graph %,d nodes %,d edges; graph load %.1f s, induction and split %.1f s, total %.1f s%n",
        build.exemplars().size(), build.questions(), files.size(), files.size() == 1 ? "" : "s", build.drawn(), fraction, seed,
        build.leftOut().size(), missing, zero, build.heldOutCount(), build.groups().size(), graph.nodeCount(), graph.edgeCount(),
        (t2 - t1) / 1e9, (t3 - t2) / 1e9, (System.nanoTime() - t0) / 1e9);
    w.printf(Locale.ROOT, "wrote %s and %d held-out file%s in %s%n", out, files.size(), files.size() == 1 ? "" : "s", heldoutDir);
    w.flush();
    return 0;
  }
}
