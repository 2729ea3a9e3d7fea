package io.kgrag.jobs.conf;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.runs.SparkUsage;
import io.kgrag.udfs.sql.KgFunctions;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * Creates the Spark session every job runs in: Delta enabled, kgrag's SQL functions registered, task metrics
 * summed by {@link SparkUsage} for the stages' progress lines and {@code runs} rows.
 *
 * <p>Under {@code bin/kgrag} or {@code spark-submit --properties-file}, Spark has already read the
 * profile. When a job is started some other way with {@code --conf-file}, the file's {@code spark.*}
 * entries that are not already set are applied here (those Spark reads only at JVM start, such as
 * {@code spark.driver.memory}, then have no effect).
 */
public final class Sessions {
  private Sessions() {}

  public static SparkSession create(String appName, String confFile) {
    SparkConf conf = new SparkConf();
    if (confFile != null) {
      Path p = Paths.get(confFile);
      if (!Files.isReadable(p)) {
        throw new UserInputException("configuration file not found: " + confFile + " (see conf/*.properties)");
      }
      Properties props = new Properties();
      try (Reader r = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
        props.load(r);
      } catch (IOException e) {
        throw new UserInputException("cannot read configuration file " + confFile + ": " + e.getMessage(), e);
      }
      for (String k : props.stringPropertyNames()) {
        if (k.startsWith("spark.") && !conf.contains(k)) {
          conf.set(k, props.getProperty(k).trim());
        }
      }
    }
    conf.setIfMissing("spark.master", "local[*]");
    conf.setIfMissing("spark.app.name", appName);
    conf.set("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension");
    conf.set("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    conf.setIfMissing("spark.ui.showConsoleProgress", "false");
    SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    KgFunctions.register(spark);
    SparkUsage.register(spark.sparkContext());
    return spark;
  }
}
