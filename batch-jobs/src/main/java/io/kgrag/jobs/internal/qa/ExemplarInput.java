package io.kgrag.jobs.internal.qa;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.exemplar.Exemplar;
import io.kgrag.core.exemplar.ExemplarFile;
import io.kgrag.core.exemplar.ExemplarStore;
import java.io.StringReader;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/** The exemplar file of {@code kgrag qa --exemplars}, for the methods that answer by example (SimGRAG, STEM). */
public final class ExemplarInput {
  private ExemplarInput() {}

  /**
   * The exemplars of a JSON-lines file written by {@code kgrag exemplars} (any path Spark reads).
   *
   * @throws UserInputException when the file cannot be read, holds a bad line or no exemplar
   */
  public static List<Exemplar> read(SparkSession spark, String path) {
    List<String> lines;
    try {
      lines = spark.read().textFile(path).collectAsList();
    } catch (Exception e) { // Spark's AnalysisException is checked in Java's eyes but thrown anyway
      throw new UserInputException("cannot read the exemplar file " + path + " (" + String.valueOf(e.getMessage()).lines().findFirst().orElse("")
          + "): pass a JSON-lines file written by `kgrag exemplars`", e);
    }
    List<Exemplar> out = ExemplarFile.read(new StringReader(String.join("\n", lines)), path);
    if (out.isEmpty()) {
      throw new UserInputException("the exemplar file " + path + " holds no exemplar: build one with `kgrag exemplars`");
    }
    return out;
  }

  /** The store of {@code path}'s exemplars, their masked texts embedded once; null when {@code path} is null. */
  public static ExemplarStore store(SparkSession spark, String path, EmbedderSpec embedder) {
    if (path == null) {
      return null;
    }
    List<Exemplar> exemplars = read(spark, path);
    try (Embedder e = embedder.open()) {
      return ExemplarStore.build(exemplars, e, 64);
    }
  }
}
