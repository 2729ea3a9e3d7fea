package io.kgrag.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * The one local Spark session every test in this module shares (Surefire runs them in one JVM). Jobs
 * started through {@link KgragMain#execute} pick it up with getOrCreate.
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
      System.setProperty("spark.sql.shuffle.partitions", "4");
      System.setProperty("spark.default.parallelism", "2");
      System.setProperty("spark.driver.host", "127.0.0.1");
      System.setProperty("spark.driver.bindAddress", "127.0.0.1");
      System.setProperty("spark.sql.warehouse.dir", scratch.resolve("spark-warehouse").toString());
      System.setProperty("spark.databricks.delta.snapshotPartitions", "2");
      // a small dominance GNN so index tests train in seconds
      System.setProperty("spark.kgrag.gnn.epochs", "8");
      System.setProperty("spark.kgrag.gnn.train-stars", "400");
      spark = Sessions.create("kgrag tests", null);
      Runtime.getRuntime().addShutdownHook(new Thread(() -> spark.stop()));
    }
    return spark;
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
