package io.kgrag.core.qa.normalize;

import com.github.jelmerk.hnswlib.core.Item;
import com.github.jelmerk.hnswlib.core.SearchResult;
import com.github.jelmerk.hnswlib.core.hnsw.HnswIndex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Approximate nearest neighbours over the graph's label embeddings (an HNSW graph, hnswlib), one item per
 * distinct label key: the FAISS search of SG-RAG Algorithm 3, line 4. Vectors are L2-normalised, so the
 * similarity returned is the cosine.
 *
 * <p>Items are added in label-key order whatever order they are given in. hnswlib draws each item's level at
 * random (ThreadLocalRandom, which cannot be seeded), so two builds of the same labels are not byte-identical;
 * with a search breadth well above k (and on small sets, where the search is exhaustive) they answer alike. A
 * large label set is
 * searched as several of these ({@link ShardedLabelIndex}).
 */
public final class LabelIndex implements LabelSearch {
  /** The order of {@link #nearest}'s hits: similarity descending, then label key. */
  public static final Comparator<Hit> ORDER = Comparator.comparingDouble(Hit::similarity).reversed().thenComparingLong(Hit::labelKey);

  /** A label with its key and vector. */
  public record Entry(long labelKey, String label, float[] vector) implements Item<Long, float[]> {
    @Override
    public Long id() {
      return labelKey;
    }

    @Override
    public int dimensions() {
      return vector.length;
    }
  }

  /** A nearest label and its cosine similarity to the query. */
  public record Hit(long labelKey, String label, double similarity) {}

  private final HnswIndex<Long, float[], Entry, Float> index;

  private LabelIndex(HnswIndex<Long, float[], Entry, Float> index) {
    this.index = index;
  }

  /** Builds the index (M = 16, efConstruction = 200, ef = 64); duplicate keys keep the entry seen first in key order. */
  public static LabelIndex build(List<Entry> entries) {
    return build(entries, 200, 64);
  }

  /**
   * Builds the index with the given construction and search breadth: a smaller {@code efConstruction}
   * builds faster at some recall; {@code ef} should be several times the k asked for (SimGRAG's setup: 8·k).
   */
  public static LabelIndex build(List<Entry> entries, int efConstruction, int ef) {
    return build(entries, efConstruction, ef, 1);
  }

  /**
   * As {@link #build(List, int, int)}, inserting with {@code threads} threads (hnswlib's {@code addAll}), at most
   * this JVM's available processors: about that many times faster on as many idle cores. With one thread the items go
   * in label-key order; with more, the order in which they are linked depends on the threads' schedule, which changes
   * the graph as the random levels already do, not which labels a search with a breadth well above k returns.
   *
   * <p>The cap is not only for speed: hnswlib 1.2.1 keeps one visited-set per available processor, and more
   * inserting threads than that can deadlock (a thread holding a node's lock waits for a set that a thread waiting
   * for that lock holds; seen with 4 threads on 2 cores).
   */
  public static LabelIndex build(List<Entry> entries, int efConstruction, int ef, int threads) {
    return build(entries, 16, efConstruction, ef, threads);
  }

  /** As {@link #build(List, int, int, int)}, with {@code m} links per node (HNSW's M; 16 there). */
  public static LabelIndex build(List<Entry> entries, int m, int efConstruction, int ef, int threads) {
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("no label embeddings to index: run `kgrag index --stages embed` first");
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }
    Map<Long, Entry> byKey = new TreeMap<>();
    for (Entry e : entries) {
      byKey.putIfAbsent(e.labelKey(), e);
    }
    int dims = entries.get(0).dimensions();
    for (Entry e : byKey.values()) {
      if (e.dimensions() != dims) {
        throw new IllegalArgumentException("label '" + e.label() + "' has a " + e.dimensions() + "-d vector, others " + dims);
      }
    }
    HnswIndex<Long, float[], Entry, Float> index =
        HnswIndex.<float[], Float>newBuilder(dims, new InnerProductDistance(), byKey.size())
            .withM(m)
            .withEfConstruction(efConstruction)
            .withEf(ef)
            .build();
    threads = Math.min(threads, Runtime.getRuntime().availableProcessors());
    if (threads == 1) {
      for (Entry e : byKey.values()) {
        index.add(e);
      }
    } else {
      try {
        index.addAll(byKey.values(), threads, (done, max) -> {}, Integer.MAX_VALUE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while building the label index", e);
      }
    }
    return new LabelIndex(index);
  }

  /**
   * 1 − u·v of unit vectors (hnswlib's inner-product distance) as eight running sums ({@link EightLaneDot}: SIMD
   * where the Vector API is present, the same bits either way). Stored indexes name this class: keep its name.
   */
  static final class InnerProductDistance implements com.github.jelmerk.hnswlib.core.DistanceFunction<float[], Float> {
    private static final long serialVersionUID = 1L;

    @Override
    public Float distance(float[] u, float[] v) {
      return 1f - EightLaneDot.dot(u, v);
    }
  }

  public int size() {
    return index.size();
  }

  /**
   * Sets how broadly {@link #nearest} searches (HNSW's ef; it should be several times the k asked for) and returns
   * this index: a method reads the index built at index time with its own breadth, without building another.
   */
  public LabelIndex searchBreadth(int ef) {
    if (ef < 1) {
      throw new IllegalArgumentException("search breadth must be at least 1, got " + ef);
    }
    index.setEf(ef);
    return this;
  }

  /** The k nearest labels, most similar first ({@link #ORDER}). */
  @Override
  public List<Hit> nearest(float[] vector, int k) {
    List<SearchResult<Entry, Float>> rs = index.findNearest(vector, k);
    List<Hit> out = new ArrayList<>(rs.size());
    for (SearchResult<Entry, Float> r : rs) {
      out.add(new Hit(r.item().labelKey(), r.item().label(), 1.0 - r.distance()));
    }
    out.sort(ORDER);
    return out;
  }

  /** The vector stored for {@code labelKey}, or null when the index has no such label. */
  public float[] vector(long labelKey) {
    return index.get(labelKey).map(Entry::vector).orElse(null);
  }

  /** The label stored for {@code labelKey}, or null when the index has no such label. */
  public String label(long labelKey) {
    return index.get(labelKey).map(Entry::label).orElse(null);
  }

  /** Writes the index to {@code out} (hnswlib's format, Java serialisation; hnswlib may close {@code out}). */
  public void writeTo(OutputStream out) {
    try {
      index.save(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads an index {@link #writeTo} wrote. */
  public static LabelIndex readFrom(InputStream in) {
    try {
      return new LabelIndex(HnswIndex.load(in, LabelIndex.class.getClassLoader()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public byte[] toBytes() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    writeTo(b);
    return b.toByteArray();
  }

  public static LabelIndex fromBytes(byte[] bytes) {
    return readFrom(new ByteArrayInputStream(bytes));
  }
}
