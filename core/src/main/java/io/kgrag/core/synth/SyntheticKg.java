package io.kgrag.core.synth;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A synthetic knowledge graph with the shape of a real one, for scale benchmarks: typed entities with
 * readable, unique labels; a few hundred relation types, each from one subject type to one object type,
 * named in Freebase's schema style ({@code /film/film/directed_by}, which {@link
 * io.kgrag.core.qa.TypeMatcher} reads types from); and power-law degrees: an entity's chance to be picked
 * for an edge is proportional to {@code rank^-exponent} within its type (ranks a random permutation), and
 * relation types are picked with a Zipf law too, so a few hubs and a few relations hold many edges while
 * most entities have a handful.
 *
 * <p>Every entity gets at least one edge (the first pass gives each one edge), so the entity count of the
 * ingested graph is the configured one. Edges are distinct (subject, relation, object) triples without
 * self-loops. The same configuration (seed included) gives the same graph, byte for byte.
 *
 * <p>Edges are kept as packed longs (24 bits subject, 12 bits relation, 24 bits object), so 10 M edges take
 * 80 MB; at most 16,777,215 entities and 4,095 relation types.
 */
public final class SyntheticKg {
  static final int ENTITY_BITS = 24;
  static final int RELATION_BITS = 12;
  private static final long ENTITY_MASK = (1L << ENTITY_BITS) - 1;
  private static final long RELATION_MASK = (1L << RELATION_BITS) - 1;

  /**
   * What to generate.
   *
   * @param edges distinct edges
   * @param entities entities (each in at least one edge); at most {@code edges}
   * @param relationTypes relation types; each entity type is the subject type of at least one
   * @param entityTypes entity types (at most {@link Vocabulary#TYPES}' size)
   * @param degreeExponent the power law's exponent (0 = uniform; about 0.8-1.0 gives hubs as in Freebase)
   * @param seed the random seed
   */
  public record Config(long edges, int entities, int relationTypes, int entityTypes, double degreeExponent, long seed) {
    public Config {
      if (edges < 1 || edges > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException("edges must be between 1 and " + (Integer.MAX_VALUE - 16) + ": " + edges);
      }
      if (entities < 2 || entities > ENTITY_MASK || entities > edges * 2) {
        throw new IllegalArgumentException("entities must be between 2, twice the edges and " + ENTITY_MASK + ": " + entities);
      }
      if (entityTypes < 1 || entityTypes > Vocabulary.TYPES.size() || entityTypes > entities) {
        throw new IllegalArgumentException("entity types must be between 1 and " + Vocabulary.TYPES.size() + ": " + entityTypes);
      }
      if (relationTypes < entityTypes || relationTypes > Vocabulary.maxProperties() || relationTypes > RELATION_MASK) {
        throw new IllegalArgumentException(
            "relation types must be between the entity types (" + entityTypes + ") and " + Vocabulary.maxProperties() + ": " + relationTypes);
      }
      if (!(degreeExponent >= 0 && degreeExponent <= 3)) {
        throw new IllegalArgumentException("degree exponent must be between 0 and 3: " + degreeExponent);
      }
    }

    /** The default shape for a given edge count: a tenth as many entities, 300 relation types, 40 entity types. */
    public static Config ofEdges(long edges, long seed) {
      int entities = (int) Math.max(2, Math.min(ENTITY_MASK, edges / 10));
      int types = Math.min(40, entities);
      return new Config(edges, entities, Math.max(types, (int) Math.min(300, Math.max(types, edges / 50))), types, 0.9, seed);
    }
  }

  private final Config config;
  private final String[] labels;
  private final int[] entityType;
  private final String[] typeNames;
  private final String[] relationNames;
  private final int[] subjectType;
  private final int[] objectType;
  private final long[] edges;

  private SyntheticKg(
      Config config, String[] labels, int[] entityType, String[] typeNames, String[] relationNames, int[] subjectType, int[] objectType, long[] edges) {
    this.config = config;
    this.labels = labels;
    this.entityType = entityType;
    this.typeNames = typeNames;
    this.relationNames = relationNames;
    this.subjectType = subjectType;
    this.objectType = objectType;
    this.edges = edges;
  }

  /** Generates the graph {@code config} describes. */
  public static SyntheticKg generate(Config config) {
    SplittableRandom rnd = new SplittableRandom(config.seed());
    int nTypes = config.entityTypes();
    String[] typeNames = Vocabulary.TYPES.subList(0, nTypes).toArray(new String[0]);

    // entity types: Zipf sizes (the first types are the big ones: person, film, ...), at least one entity each
    int n = config.entities();
    double[] typeWeight = zipf(nTypes, 1.0);
    int[] typeSize = new int[nTypes];
    Arrays.fill(typeSize, 1);
    int rest = n - nTypes;
    double wsum = Arrays.stream(typeWeight).sum();
    for (int t = 0; t < nTypes; t++) {
      int add = (int) Math.floor(rest * typeWeight[t] / wsum);
      typeSize[t] += add;
    }
    int assigned = Arrays.stream(typeSize).sum();
    for (int t = 0; assigned < n; t = (t + 1) % nTypes, assigned++) {
      typeSize[t]++;
    }
    int[] entityType = new int[n];
    int[][] members = new int[nTypes][];
    int[] order = permutation(n, rnd);
    for (int t = 0, at = 0; t < nTypes; t++) {
      members[t] = Arrays.copyOfRange(order, at, at + typeSize[t]);
      Arrays.sort(members[t]);
      for (int e : members[t]) {
        entityType[e] = t;
      }
      at += typeSize[t];
    }
    String[] labels = labels(n, rnd);

    // relation types: one per (verb, preposition) property; the first nTypes cover every subject type
    int nRel = config.relationTypes();
    String[] properties = Vocabulary.properties(nRel, rnd);
    String[] relationNames = new String[nRel];
    int[] subjectType = new int[nRel];
    int[] objectType = new int[nRel];
    double[] typeCdf = cdf(typeWeight);
    for (int r = 0; r < nRel; r++) {
      subjectType[r] = r < nTypes ? r : pick(typeCdf, rnd);
      objectType[r] = rnd.nextInt(nTypes);
      String t = typeNames[subjectType[r]];
      relationNames[r] = "/" + t + "/" + t + "/" + properties[r];
    }
    int[][] relationsBySubject = new int[nTypes][];
    for (int t = 0; t < nTypes; t++) {
      final int tt = t;
      relationsBySubject[t] = java.util.stream.IntStream.range(0, nRel).filter(r -> subjectType[r] == tt).toArray();
    }
    int[][] relationsByObject = new int[nTypes][];
    for (int t = 0; t < nTypes; t++) {
      final int tt = t;
      relationsByObject[t] = java.util.stream.IntStream.range(0, nRel).filter(r -> objectType[r] == tt).toArray();
    }

    // per type: the power law over a random rank order of its members
    double[][] memberCdf = new double[nTypes][];
    for (int t = 0; t < nTypes; t++) {
      int[] rank = permutation(members[t].length, rnd);
      double[] w = new double[members[t].length];
      for (int i = 0; i < w.length; i++) {
        w[i] = Math.pow(rank[i] + 1, -config.degreeExponent());
      }
      memberCdf[t] = cdf(w);
    }
    double[] relationCdf = cdf(zipf(nRel, 1.0));

    long target = config.edges();
    long[] buf = new long[(int) Math.min(Integer.MAX_VALUE - 16, target + target / 8 + n + 16)];
    int size = 0;
    // pass 1: every entity gets an edge, as subject when its type has relations out, else as object
    for (int e = 0; e < n && size < target; e++) {
      int t = entityType[e];
      if (relationsBySubject[t].length > 0 && (relationsByObject[t].length == 0 || rnd.nextBoolean())) {
        int r = relationsBySubject[t][rnd.nextInt(relationsBySubject[t].length)];
        int o = members[objectType[r]][pick(memberCdf[objectType[r]], rnd)];
        if (o != e) {
          buf[size++] = pack(e, r, o);
          continue;
        }
      }
      if (relationsByObject[t].length > 0) {
        int r = relationsByObject[t][rnd.nextInt(relationsByObject[t].length)];
        int s = members[subjectType[r]][pick(memberCdf[subjectType[r]], rnd)];
        if (s != e) {
          buf[size++] = pack(s, r, e);
        }
      }
    }
    // pass 2: power-law edges until there are enough distinct ones
    int distinct = dedupe(buf, size);
    size = distinct;
    int guard = 0;
    while (size < target) {
      int room = (int) Math.min(buf.length - size, (target - size) + (target - size) / 16 + 16);
      for (int i = 0; i < room; i++) {
        int r = pick(relationCdf, rnd);
        int s = members[subjectType[r]][pick(memberCdf[subjectType[r]], rnd)];
        int o = members[objectType[r]][pick(memberCdf[objectType[r]], rnd)];
        if (s != o) {
          buf[size++] = pack(s, r, o);
        }
      }
      size = dedupe(buf, size);
      if (++guard > 1000) {
        throw new IllegalStateException("cannot find " + target + " distinct edges among " + n + " entities: fewer edges or more entities");
      }
    }
    long[] edges = trim(buf, size, target, rnd);
    return new SyntheticKg(config, labels, entityType, typeNames, relationNames, subjectType, objectType, edges);
  }

  /** Sorts and removes repeated edges; returns the distinct count (at the front of {@code a}). */
  private static int dedupe(long[] a, int size) {
    Arrays.sort(a, 0, size);
    int out = 0;
    for (int i = 0; i < size; i++) {
      if (out == 0 || a[out - 1] != a[i]) {
        a[out++] = a[i];
      }
    }
    return out;
  }

  /** Keeps {@code target} of the {@code size} distinct edges, dropping random ones that leave no entity without an edge. */
  private static long[] trim(long[] a, int size, long target, SplittableRandom rnd) {
    if (size == target) {
      return Arrays.copyOf(a, size);
    }
    // drop random edges whose subject and object keep another edge, so every entity stays covered
    int maxEntity = 0;
    for (int i = 0; i < size; i++) {
      maxEntity = Math.max(maxEntity, Math.max(subject(a[i]), object(a[i])));
    }
    int[] degree = new int[maxEntity + 1];
    for (int i = 0; i < size; i++) {
      degree[subject(a[i])]++;
      degree[object(a[i])]++;
    }
    long toDrop = size - target;
    boolean[] dropped = new boolean[size];
    int tries = 0;
    while (toDrop > 0 && tries < size * 4) {
      int i = rnd.nextInt(size);
      tries++;
      if (!dropped[i] && degree[subject(a[i])] > 1 && degree[object(a[i])] > 1) {
        dropped[i] = true;
        degree[subject(a[i])]--;
        degree[object(a[i])]--;
        toDrop--;
      }
    }
    long[] out = new long[(int) target];
    int k = 0;
    for (int i = 0; i < size && k < target; i++) {
      if (!dropped[i]) {
        out[k++] = a[i];
      }
    }
    return out;
  }

  static long pack(int s, int r, int o) {
    return ((long) s << (ENTITY_BITS + RELATION_BITS)) | ((long) r << ENTITY_BITS) | o;
  }

  static int subject(long edge) {
    return (int) (edge >>> (ENTITY_BITS + RELATION_BITS));
  }

  static int relation(long edge) {
    return (int) ((edge >>> ENTITY_BITS) & RELATION_MASK);
  }

  static int object(long edge) {
    return (int) (edge & ENTITY_MASK);
  }

  private static double[] zipf(int n, double s) {
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = Math.pow(i + 1, -s);
    }
    return w;
  }

  private static double[] cdf(double[] w) {
    double[] c = new double[w.length];
    double sum = 0;
    for (int i = 0; i < w.length; i++) {
      sum += w[i];
      c[i] = sum;
    }
    for (int i = 0; i < c.length; i++) {
      c[i] /= sum;
    }
    return c;
  }

  private static int pick(double[] cdf, SplittableRandom rnd) {
    int i = Arrays.binarySearch(cdf, rnd.nextDouble());
    return Math.min(cdf.length - 1, i >= 0 ? i : -i - 1);
  }

  /** 0..n-1 in an order drawn from {@code rnd} (Fisher-Yates). */
  static int[] permutation(int n, SplittableRandom rnd) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int x = p[i];
      p[i] = p[j];
      p[j] = x;
    }
    return p;
  }

  /** Unique two-word (or, on a clash, three-word) names built from pronounceable syllables. */
  private static String[] labels(int n, SplittableRandom rnd) {
    String[] out = new String[n];
    Set<String> seen = new HashSet<>(n * 2);
    for (int i = 0; i < n; i++) {
      String label = Vocabulary.word(rnd) + " " + Vocabulary.word(rnd);
      while (!seen.add(label.toLowerCase(Locale.ROOT))) {
        label = label + " " + Vocabulary.word(rnd);
      }
      out[i] = label;
    }
    return out;
  }

  public Config config() {
    return config;
  }

  public int entityCount() {
    return labels.length;
  }

  public int edgeCount() {
    return edges.length;
  }

  public String label(int entity) {
    return labels[entity];
  }

  /** The entity's type word ("film"). */
  public String typeOf(int entity) {
    return typeNames[entityType[entity]];
  }

  public int relationCount() {
    return relationNames.length;
  }

  public String relationName(int relation) {
    return relationNames[relation];
  }

  /** The property of a relation as words ("directed by"), as a question would say it. */
  public String relationPhrase(int relation) {
    String name = relationNames[relation];
    return name.substring(name.lastIndexOf('/') + 1).replace('_', ' ');
  }

  /** The type word of a relation's subjects. */
  public String subjectTypeOf(int relation) {
    return typeNames[subjectType[relation]];
  }

  /** Edge {@code i} (sorted by subject, relation, object) packed; see {@link #subject}, {@link #relation}, {@link #object}. */
  long edge(int i) {
    return edges[i];
  }

  /** Out- plus in-degree of every entity. */
  public int[] degrees() {
    int[] d = new int[labels.length];
    for (long e : edges) {
      d[subject(e)]++;
      d[object(e)]++;
    }
    return d;
  }

  /**
   * Writes the edges as {@code subject|relation|object} lines of labels ({@code kgrag index --format pipe}),
   * sorted by subject, through a temporary file renamed into place (a reader never sees half a file).
   */
  public void writeTriples(Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      for (long e : edges) {
        w.write(labels[subject(e)]);
        w.write('|');
        w.write(relationNames[relation(e)]);
        w.write('|');
        w.write(labels[object(e)]);
        w.write('\n');
      }
    }
    Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }
}
