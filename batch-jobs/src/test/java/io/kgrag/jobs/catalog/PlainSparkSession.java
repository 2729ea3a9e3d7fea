package io.kgrag.jobs.catalog;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * What a Spark user runs, in a JVM of its own: a plain {@code SparkSession} with only the settings given (those
 * docs/catalog.md lists), then each statement of a file, its rows printed as JSON lines after a line {@code -- <n>}
 * (its number, from 1). Exits 1 on the first statement that fails, with Spark's message on standard error.
 *
 * <p>Arguments: the file of statements (one per line, already substituted), then the session's settings as {@code
 * key=value}.
 */
public final class PlainSparkSession {
  private PlainSparkSession() {}

  /**
   * Runs {@code statements} in a plain session of a new JVM with {@code settings}, in directory {@code dir}; each
   * statement's rows as JSON lines.
   */
  public static List<List<String>> query(Path dir, List<String> statements, Map<String, String> settings) throws Exception {
    Files.createDirectories(dir);
    Path file = Files.write(dir.resolve("statements.sql"), statements, StandardCharsets.UTF_8);
    List<String> args = new ArrayList<>();
    args.add(file.toString());
    settings.forEach((k, v) -> args.add(k + "=" + v));
    List<List<String>> results = new ArrayList<>();
    for (String line : ChildJvm.run(dir, PlainSparkSession.class.getName(), args).split("\n")) {
      if (line.equals("-- " + (results.size() + 1))) {
        results.add(new ArrayList<>());
      } else if (!results.isEmpty() && !line.isEmpty()) {
        results.get(results.size() - 1).add(line);
      }
    }
    return results;
  }

  public static void main(String[] args) throws Exception {
    List<String> statements = Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8);
    SparkSession.Builder builder = SparkSession.builder()
        .master("local[1]")
        .appName("a plain Spark session")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2");
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      builder.config(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    SparkSession spark = builder.getOrCreate();
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
