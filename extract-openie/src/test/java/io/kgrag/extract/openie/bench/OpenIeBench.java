package io.kgrag.extract.openie.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.Extractors;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import io.kgrag.core.text.extract.TripleExtractorProvider;
import io.kgrag.extract.openie.OpenIeExtractor;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput of the {@code openie} extractor on a JSON corpus (an array of {@code {title, text}}), the way
 * a Spark executor runs it: one shared pipeline, one extractor per worker thread, one passage per chunk.
 *
 * <pre>
 *   OpenIeBench --corpus FILE [--limit N] [--offset N] [--threads T] [--dump K] [--set key=value ...]
 * </pre>
 *
 * Prints one Markdown table row per run (bench/corpus/run puts the header around it) and, with {@code
 * --dump K}, the first K passages' triples and entities on standard error.
 */
public final class OpenIeBench {
  public static void main(String[] args) throws Exception {
    String corpus = null;
    int limit = Integer.MAX_VALUE;
    int offset = 0;
    int threads = 1;
    int dump = 0;
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--corpus" -> corpus = args[++i];
        case "--limit" -> limit = Integer.parseInt(args[++i]);
        case "--offset" -> offset = Integer.parseInt(args[++i]);
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--dump" -> dump = Integer.parseInt(args[++i]);
        case "--set" -> {
          String kv = args[++i];
          int eq = kv.indexOf('=');
          if (eq < 1) {
            throw new IllegalArgumentException("--set: expected key=value, got " + kv);
          }
          settings.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + " (usage: --corpus FILE [--limit N] [--offset N] [--threads T] [--dump K] [--set key=value])");
      }
    }
    if (corpus == null) {
      throw new IllegalArgumentException("--corpus FILE is required");
    }
    JsonNode all = new ObjectMapper().readTree(new File(corpus));
    List<TextChunk> chunks = new ArrayList<>();
    for (int i = offset; i < all.size() && chunks.size() < limit; i++) {
      JsonNode p = all.get(i);
      chunks.add(new TextChunk(i, "doc-" + i, p.path("title").asText(""), p.path("text").asText("")));
    }
    long chars = chunks.stream().mapToLong(c -> c.text().length()).sum();

    TripleExtractorProvider provider = Extractors.provider("openie");
    try (TripleExtractor warm = provider.create(settings)) {
      ((OpenIeExtractor) warm).warmUp();
    }
    double loadS = OpenIeExtractor.loadSeconds();
    System.gc();
    long afterLoad = usedHeap();

    AtomicInteger next = new AtomicInteger();
    AtomicLong triples = new AtomicLong();
    AtomicLong entities = new AtomicLong();
    AtomicLong rejected = new AtomicLong();
    AtomicLong emptyChunks = new AtomicLong();
    AtomicLong skippedSentences = new AtomicLong();
    Map<String, Integer> types = new TreeMap<>();
    Extraction[] dumped = new Extraction[Math.min(dump, chunks.size())];
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long t0 = System.nanoTime();
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      futures.add(pool.submit(() -> {
        try (TripleExtractor ex = provider.create(settings)) {
          for (int i; (i = next.getAndIncrement()) < chunks.size(); ) {
            Extraction e = ex.extract(chunks.get(i));
            triples.addAndGet(e.triples().size());
            entities.addAndGet(e.entities().size());
            rejected.addAndGet(e.rejected().size());
            skippedSentences.addAndGet(e.rejected().stream().filter(r -> r.contains("not parsed")).count());
            if (e.triples().isEmpty()) {
              emptyChunks.incrementAndGet();
            }
            synchronized (types) {
              e.entities().forEach(en -> types.merge(en.type().isEmpty() ? "(none)" : en.type(), 1, Integer::sum));
            }
            if (i < dumped.length) {
              dumped[i] = e;
            }
          }
        }
        return null;
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    pool.shutdown();

    for (int i = 0; i < dumped.length; i++) {
      System.err.println("## " + chunks.get(i).title() + ": " + chunks.get(i).text());
      dumped[i].triples().forEach(t -> System.err.printf("  T %.2f (%s; %s; %s)%n", t.confidence(), t.subject(), t.relation(), t.object()));
      dumped[i].entities().forEach(en -> System.err.println("  E " + en.name() + " / " + en.type()));
      dumped[i].rejected().forEach(r -> System.err.println("  R " + r));
    }
    int n = chunks.size();
    System.out.printf("| %s | %d | %d | %d | %s | %.1f | %.1f | %.2f | %.0f | %d | %.2f | %d | %d | %d | %.2f | %.2f |%n",
        new File(corpus).getName(), n, chars, threads, settings.isEmpty() ? "defaults" : settings.toString(),
        loadS, secs, n / secs, chars / secs, triples.get(), triples.get() / secs, entities.get(), emptyChunks.get(),
        skippedSentences.get(), afterLoad / 1073741824.0, peakHeap() / 1073741824.0);
    System.out.println("entity types: " + types);
    System.out.printf("per passage: %.2f triples, %.2f entities, %.2f rejection lines%n",
        triples.get() / (double) n, entities.get() / (double) n, rejected.get() / (double) n);
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  /** Sum of the heap pools' peak usage (an upper bound of the peak heap in use). */
  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
