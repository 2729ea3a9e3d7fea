package io.kgrag.jobs;

import io.kgrag.jobs.conf.Sessions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * The one local Spark session every test in this module shares (Surefire runs each tier's classes in one
 * JVM). Jobs started through {@link KgragMain#execute} pick it up with getOrCreate. It sets the small GNN and
 * Triple-GNN settings every test trains with.
 */
public final class SparkTestSession {
  private static SparkSession spark;
  private static Path scratch;

  private SparkTestSession() {}

  public static synchronized SparkSession get() {
    if (spark == null) {
      try {
        scratch = Files.createTempDirectory("kgrag-test-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      System.setProperty("spark.master", "local[2]");
      System.setProperty("spark.ui.enabled", "false");
      System.setProperty("spark.sql.shuffle.partitions", "2");
      System.setProperty("spark.default.parallelism", "2");
      System.setProperty("spark.driver.host", "127.0.0.1");
      System.setProperty("spark.driver.bindAddress", "127.0.0.1");
      System.setProperty("spark.sql.warehouse.dir", scratch.resolve("spark-warehouse").toString());
      // shuffle and block files live under the scratch folder too, so that one delete removes everything a run wrote
      System.setProperty("spark.local.dir", scratch.resolve("spark-local").toString());
      System.setProperty("spark.databricks.delta.snapshotPartitions", "1");
      // a small dominance GNN and Triple-GNN so index tests train in seconds (bounded by epochs and steps: the
      // same model on any machine)
      System.setProperty("spark.kgrag.gnn.epochs", "8");
      System.setProperty("spark.kgrag.gnn.train-stars", "400");
      System.setProperty("spark.kgrag.stem.gnn.steps", "20");
      System.setProperty("spark.kgrag.stem.gnn.samples", "60");
      System.setProperty("spark.kgrag.stem.gnn.width", "8");
      System.setProperty("spark.kgrag.stem.gnn.layers", "2");
      spark = Sessions.create("kgrag tests", null);
      Runtime.getRuntime().addShutdownHook(new Thread(SparkTestSession::stopAndDeleteScratch));
    }
    return spark;
  }

  /**
   * Stops the session and deletes the scratch folder: a test JVM leaves nothing behind (a run of both tiers wrote
   * several GB of tables and shuffle files, and repeated runs once filled the disk). -Dkgrag.test.keep=true keeps it.
   */
  private static void stopAndDeleteScratch() {
    spark.stop();
    if (Boolean.getBoolean("kgrag.test.keep")) {
      System.err.println("kgrag tests: kept " + scratch);
      return;
    }
    try (Stream<Path> paths = Files.walk(scratch)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      System.err.println("kgrag tests: could not delete " + scratch + ": " + e);
    }
  }

  /** A new empty directory under the session's scratch folder. */
  public static Path newDir(String prefix) {
    get();
    try {
      return Files.createTempDirectory(scratch, prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
