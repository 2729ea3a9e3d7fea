package io.kgrag.jobs;

import io.kgrag.jobs.conf.KgragConf;
import org.apache.spark.SparkConf;

/** A {@link KgragConf} over given settings, for tests that need no Spark session. */
public final class TestConf {
  private TestConf() {}

  /** {@code kv}: key, value, key, value, … */
  public static KgragConf of(String... kv) {
    SparkConf c = new SparkConf(false);
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return new KgragConf(c);
  }
}
