package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.core.synth.BridgeStarQuestions;
import io.kgrag.core.synth.SyntheticKg;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kgrag synth}: writes a synthetic knowledge graph ({@link SyntheticKg}) and bridge-star questions
 * over it ({@link BridgeStarQuestions}) for scale benchmarks. Runs in the driver alone (no Spark job).
 */
@Command(
    name = "synth",
    mixinStandardHelpOptions = true,
    description = {
      "Writes a synthetic knowledge graph with a real graph's shape (power-law degrees, typed entities with",
      "readable unique labels, a few hundred Freebase-style relation types) as <out>/kb.txt for",
      "`kgrag index --format pipe`, and multi-constraint bridge-star questions with known answers (SG-RAG",
      "Appendix G) as <out>/questions.csv for `kgrag qa --questions`. The same options give the same files."
    })
public final class SynthCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--edges", required = true, paramLabel = "<n>", description = "Distinct edges, e.g. 1000000.")
  long edges;

  @Option(names = "--entities", paramLabel = "<n>", description = "Entities, each in at least one edge. Default: a tenth of --edges.")
  Integer entities;

  @Option(names = "--relation-types", paramLabel = "<n>", description = "Relation types. Default: 300 (fewer for small graphs).")
  Integer relationTypes;

  @Option(names = "--entity-types", paramLabel = "<n>", description = "Entity types, at most 40. Default: 40.")
  Integer entityTypes;

  @Option(names = "--degree-exponent", defaultValue = "0.9", paramLabel = "<a>",
      description = "Power-law exponent of the degrees (0 = uniform). Default: ${DEFAULT-VALUE}.")
  double degreeExponent;

  @Option(names = "--questions", defaultValue = "1000", paramLabel = "<n>", description = "Questions to write. Default: ${DEFAULT-VALUE}.")
  int questions;

  @Option(names = "--min-constraints", defaultValue = "3", paramLabel = "<k>", description = "Least constraints per question. Default: ${DEFAULT-VALUE}.")
  int minConstraints;

  @Option(names = "--max-constraints", defaultValue = "5", paramLabel = "<k>", description = "Most constraints per question. Default: ${DEFAULT-VALUE}.")
  int maxConstraints;

  @Option(names = "--seed", defaultValue = "7", description = "Seed of the graph and the questions. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--out", required = true, paramLabel = "<dir>", description = "Directory to write kb.txt and questions.csv into (created).")
  Path out;

  @Override
  public Integer call() {
    long t0 = System.nanoTime();
    SyntheticKg.Config d = SyntheticKg.Config.ofEdges(Math.max(1, edges), seed);
    SyntheticKg.Config config;
    try {
      config =
          new SyntheticKg.Config(
              edges,
              entities != null ? entities : d.entities(),
              relationTypes != null ? relationTypes : d.relationTypes(),
              entityTypes != null ? entityTypes : d.entityTypes(),
              degreeExponent,
              seed);
    } catch (IllegalArgumentException e) {
      throw new UserInputException(e.getMessage());
    }
    if (questions < 0 || minConstraints < 2 || maxConstraints < minConstraints) {
      throw new UserInputException("need --questions >= 0 and 2 <= --min-constraints <= --max-constraints");
    }
    PrintWriter w = spec.commandLine().getOut();
    try {
      Files.createDirectories(out);
      SyntheticKg kg = SyntheticKg.generate(config);
      kg.writeTriples(out.resolve("kb.txt"));
      double graphS = (System.nanoTime() - t0) / 1e9;
      List<BridgeStarQuestions.Question> qs = new BridgeStarQuestions(kg).generate(questions, minConstraints, maxConstraints, seed);
      BridgeStarQuestions.writeCsv(qs, out.resolve("questions.csv"));
      w.printf(Locale.ROOT, "kgrag synth: %,d edges, %,d entities, %,d relation types -> %s (%.1f s); %,d questions -> %s (%.1f s)%n",
          kg.edgeCount(), kg.entityCount(), kg.relationCount(), out.resolve("kb.txt"), graphS, qs.size(), out.resolve("questions.csv"),
          (System.nanoTime() - t0) / 1e9 - graphS);
      if (qs.size() < questions) {
        w.printf(Locale.ROOT, "kgrag synth: only %,d of %,d questions have a unique answer within %d constraints%n", qs.size(), questions, maxConstraints);
      }
    } catch (IOException e) {
      throw new UserInputException("cannot write to " + out + " (" + e + "): check the directory and its permissions");
    } catch (IllegalStateException e) {
      throw new UserInputException(e.getMessage());
    }
    w.flush();
    return 0;
  }
}
