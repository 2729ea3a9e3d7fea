package io.kgrag.jobs.conf;

import io.delta.sql.DeltaSparkSessionExtension;
import io.kgrag.core.UserInputException;
import io.kgrag.jobs.runs.SparkUsage;
import io.kgrag.udfs.sql.KgFunctions;
import io.kgrag.udfs.sql.KgragExtensions;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashSet;
import java.util.Properties;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.catalog.DeltaCatalog;

/**
 * Creates the Spark session every job runs in: Delta enabled, kgrag's SQL functions registered (by {@link
 * KgragExtensions} in {@code spark.sql.extensions}, added to any extensions the user set, and as session functions
 * when the session existed before), task metrics summed by {@link SparkUsage} for the stages' progress lines and {@code runs} rows.
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
    conf.set("spark.sql.extensions", extensions(conf.get("spark.sql.extensions", "")));
    conf.set("spark.sql.catalog.spark_catalog", DeltaCatalog.class.getName());
    conf.setIfMissing("spark.ui.showConsoleProgress", "false");
    SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    KgFunctions.register(spark);
    SparkUsage.register(spark.sparkContext());
    return spark;
  }

  /**
   * The {@code spark.sql.extensions} value for a kgrag session: {@code configured} (a comma-separated list the user
   * set, may be empty) with Delta's and kgrag's extensions ({@link KgragExtensions}) added when missing, the user's
   * first and in their order.
   */
  public static String extensions(String configured) {
    Set<String> names = new LinkedHashSet<>();
    for (String n : configured.split(",")) {
      if (!n.isBlank()) {
        names.add(n.strip());
      }
    }
    names.add(DeltaSparkSessionExtension.class.getName());
    names.add(KgragExtensions.CLASS_NAME);
    return String.join(",", names);
  }
}
