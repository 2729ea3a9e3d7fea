package io.kgrag.extract.openie;

import edu.stanford.nlp.pipeline.StanfordCoreNLP;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * CoreNLP pipelines, loaded once per JVM (a Spark executor) and shared by every extractor: the models take
 * tens of seconds and about a gigabyte of heap to load, while a pipeline serves concurrent threads. Keyed
 * by their properties, created lazily on first use; a load that fails is not kept, so a later call retries.
 */
final class Pipelines {
  private static final Map<String, Lazy> PIPELINES = new ConcurrentHashMap<>();
  private static final AtomicLong LOAD_NANOS = new AtomicLong();

  private Pipelines() {}

  /** The pipeline for {@code props}, loading it (once, whichever thread comes first) when needed. */
  static StanfordCoreNLP get(Properties props) {
    String key = key(props);
    Lazy lazy = PIPELINES.computeIfAbsent(key, k -> new Lazy(props));
    try {
      return lazy.get();
    } catch (RuntimeException | Error e) {
      PIPELINES.remove(key, lazy);
      throw e;
    }
  }

  /** Seconds this JVM has spent loading pipelines so far (for benchmarks and logs). */
  static double loadSeconds() {
    return LOAD_NANOS.get() / 1e9;
  }

  /** A stable key: the properties sorted by name. */
  static String key(Properties props) {
    Map<String, String> sorted = new TreeMap<>();
    for (String name : props.stringPropertyNames()) {
      sorted.put(name, props.getProperty(name));
    }
    return sorted.toString();
  }

  private static final class Lazy {
    private final Properties props;
    private volatile StanfordCoreNLP pipeline;

    Lazy(Properties props) {
      this.props = (Properties) props.clone();
    }

    StanfordCoreNLP get() {
      StanfordCoreNLP p = pipeline;
      if (p == null) {
        synchronized (this) {
          p = pipeline;
          if (p == null) {
            long t0 = System.nanoTime();
            p = new StanfordCoreNLP(props);
            LOAD_NANOS.addAndGet(System.nanoTime() - t0);
            pipeline = p;
          }
        }
      }
      return p;
    }
  }
}
