package io.kgrag.jobs.catalog;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * What a Spark user runs, in a JVM of its own: a plain {@code SparkSession} with only the settings docs/catalog.md
 * lists, then each statement of a file, its rows printed as JSON lines after a line {@code -- <n>} (its number, from
 * 1). Exits 1 on the first statement that fails, with Spark's message on standard error.
 *
 * <p>Arguments: the warehouse root, the file of statements (one per line, already substituted).
 */
public final class PlainSparkSession {
  private PlainSparkSession() {}

  public static void main(String[] args) throws Exception {
    List<String> statements = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
    SparkSession spark = SparkSession.builder()
        .master("local[1]")
        .appName("a plain Spark session")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension,io.kgrag.udfs.sql.KgragExtensions")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.sql.catalog.kgrag", "io.kgrag.jobs.catalog.KgragCatalog")
        .config("spark.sql.catalog.kgrag.warehouse", args[0])
        .getOrCreate();
    int code = 0;
    try {
      for (int i = 0; i < statements.size(); i++) {
        System.out.println("-- " + (i + 1));
        try {
          spark.sql(statements.get(i)).toJSON().collectAsList().forEach(System.out::println);
        } catch (Exception e) {
          System.err.println("statement " + (i + 1) + " failed: " + e.getMessage());
          code = 1;
          break;
        }
      }
      System.out.flush();
    } finally {
      spark.stop();
    }
    System.exit(code);
  }
}
