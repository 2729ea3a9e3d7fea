package io.kgrag.core.index.partition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Seeded synthetic graph paths and query paths. A random node set carries label keys and non-negative
 * per-node vectors; a path of length l is l + 1 nodes, its keys theirs, its vector theirs concatenated.
 * Nodes shared between paths give duplicate keys and duplicate per-node vectors everywhere.
 */
final class PathTestData {

  enum Dist {
    /** Vectors uniform in [0,1)^d, 1000 label keys of equal frequency, nodes chosen uniformly. */
    UNIFORM,
    /**
     * 12 Gaussian blobs (absolute values, so non-negative), each with its own pool of 40 label keys, so
     * keys and locations are correlated.
     */
    CLUSTERED,
    /**
     * Power-law keys over 150 values, exponential coordinates quantised to quarters (many ties) with 30%
     * zeros and a constant dimension 0 (d > 1), power-law node popularity (many duplicate vectors), and 20%
     * of paths exact copies of earlier ones under a new path id.
     */
    SKEWED
  }

  final Dist dist;
  final int l;
  final int d;
  final int dims;
  final List<PathRecord> paths;
  final long[] keySet;
  final float[] max;

  private PathTestData(Dist dist, int l, int d, List<PathRecord> paths, long[] keySet) {
    this.dist = dist;
    this.l = l;
    this.d = d;
    this.dims = (l + 1) * d;
    this.paths = paths;
    this.keySet = keySet;
    this.max = new float[dims];
    for (PathRecord p : paths) {
      for (int i = 0; i < dims; i++) {
        max[i] = Math.max(max[i], p.vector[i]);
      }
    }
  }

  static long[] randomKeys(Random r, int n) {
    Set<Long> s = new HashSet<>();
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      long v;
      do {
        v = r.nextLong();
      } while (v == PathPartition.WILDCARD || !s.add(v));
      k[i] = v;
    }
    return k;
  }

  /** A per-node vector of the distribution (cluster {@code c} for CLUSTERED). */
  static float[] nodeVector(Dist dist, Random r, int d, int c, float[][] centres) {
    float[] v = new float[d];
    for (int i = 0; i < d; i++) {
      switch (dist) {
        case UNIFORM -> v[i] = r.nextFloat();
        case CLUSTERED -> v[i] = (float) Math.abs(centres[c][i] + 0.12 * r.nextGaussian());
        case SKEWED -> {
          if (d > 1 && i == 0) {
            v[i] = 1.0f;
          } else if (r.nextDouble() < 0.3) {
            v[i] = 0f;
          } else {
            v[i] = (float) (Math.round(-Math.log(1 - r.nextDouble()) * 4) / 4.0);
          }
        }
        default -> throw new AssertionError();
      }
    }
    return v;
  }

  static float[][] centres(Random r, int d) {
    float[][] c = new float[12][d];
    for (float[] x : c) {
      for (int i = 0; i < d; i++) {
        x[i] = r.nextFloat() * 3;
      }
    }
    return c;
  }

  /** {@code n} points of the per-path vector distribution (for partitioning tests). */
  static float[][] vectors(Dist dist, int dims, int n, long seed) {
    Random r = new Random(seed);
    float[][] centres = centres(new Random(77), dims); // the same blobs for every draw
    float[][] out = new float[n][];
    for (int e = 0; e < n; e++) {
      if (dist == Dist.SKEWED && e > 0 && r.nextDouble() < 0.25) {
        out[e] = out[r.nextInt(e)].clone();
      } else {
        out[e] = nodeVector(dist, r, dims, r.nextInt(12), centres);
      }
    }
    return out;
  }

  static PathTestData generate(Dist dist, int l, int d, int n, long seed) {
    Random r = new Random(seed);
    int numNodes = Math.max(300, n / 4);
    long[] nodeIds = new long[numNodes];
    long[] nodeKeys = new long[numNodes];
    float[][] nodeVecs = new float[numNodes][];
    float[][] centres = centres(r, d);
    long[] keySet;
    switch (dist) {
      case UNIFORM -> keySet = randomKeys(r, 1000);
      case CLUSTERED -> keySet = randomKeys(r, 12 * 40);
      default -> keySet = randomKeys(r, 150);
    }
    for (int v = 0; v < numNodes; v++) {
      nodeIds[v] = 1_000_000L + v * 7L;
      int c = r.nextInt(12);
      nodeVecs[v] = nodeVector(dist, r, d, c, centres);
      nodeKeys[v] = switch (dist) {
        case UNIFORM -> keySet[r.nextInt(keySet.length)];
        case CLUSTERED -> keySet[c * 40 + r.nextInt(40)];
        default -> keySet[(int) (keySet.length * Math.pow(r.nextDouble(), 3))];
      };
    }
    long[] pathIds = randomKeys(r, n);
    List<PathRecord> paths = new ArrayList<>(n);
    int w = l + 1;
    for (int e = 0; e < n; e++) {
      if (dist == Dist.SKEWED && e > 0 && r.nextDouble() < 0.2) {
        PathRecord o = paths.get(r.nextInt(e));
        paths.add(new PathRecord(pathIds[e], o.nodeIds, o.labelKeys, o.vector));
        continue;
      }
      long[] ids = new long[w];
      long[] keys = new long[w];
      float[] vec = new float[w * d];
      for (int p = 0; p < w; p++) {
        int v = dist == Dist.SKEWED ? (int) (numNodes * Math.pow(r.nextDouble(), 2)) : r.nextInt(numNodes);
        ids[p] = nodeIds[v];
        keys[p] = nodeKeys[v];
        System.arraycopy(nodeVecs[v], 0, vec, p * d, d);
      }
      paths.add(new PathRecord(pathIds[e], ids, keys, vec));
    }
    return new PathTestData(dist, l, d, paths, keySet);
  }

  /**
   * A query: mostly a slightly shrunk copy of a stored path (so it matches at least that path) with some
   * positions > 0 made wildcards; otherwise a stored path's keys with a random vector, or random keys
   * (half never stored at position 0) with a random vector.
   */
  QueryPath query(Random r) {
    long[] keys = new long[l + 1];
    float[] vec = new float[dims];
    double kind = r.nextDouble();
    if (kind < 0.7) {
      PathRecord p = paths.get(r.nextInt(paths.size()));
      for (int i = 0; i <= l; i++) {
        keys[i] = i > 0 && r.nextDouble() < 0.35 ? PathPartition.WILDCARD : p.labelKeys[i];
      }
      double mode = r.nextDouble();
      for (int i = 0; i < dims; i++) {
        float x = p.vector[i];
        double u = r.nextDouble();
        if (u < 0.15) {
          vec[i] = x; // exactly on the boundary
        } else if (u < 0.22) {
          vec[i] = 0f;
        } else if (u < 0.24) {
          vec[i] = Float.NEGATIVE_INFINITY;
        } else if (mode < 0.1 && u < 0.3) {
          vec[i] = Math.nextUp(x); // just above: excludes p itself
        } else {
          vec[i] = x * (float) (0.75 + 0.25 * r.nextDouble());
        }
      }
    } else if (kind < 0.85) {
      PathRecord p = paths.get(r.nextInt(paths.size()));
      for (int i = 0; i <= l; i++) {
        keys[i] = i > 0 && r.nextDouble() < 0.35 ? PathPartition.WILDCARD : p.labelKeys[i];
      }
      for (int i = 0; i < dims; i++) {
        vec[i] = max[i] * (float) Math.pow(r.nextDouble(), 2);
      }
    } else {
      keys[0] = r.nextBoolean() ? keySet[r.nextInt(keySet.length)] : r.nextLong() | 1L;
      for (int i = 1; i <= l; i++) {
        keys[i] = r.nextBoolean() ? PathPartition.WILDCARD : keySet[r.nextInt(keySet.length)];
      }
      for (int i = 0; i < dims; i++) {
        vec[i] = max[i] * (float) Math.pow(r.nextDouble(), 3);
      }
    }
    return new QueryPath(keys, vec);
  }

  static boolean matches(PathRecord p, long[] keys, float[] vec) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != PathPartition.WILDCARD && keys[i] != p.labelKeys[i]) {
        return false;
      }
    }
    for (int i = 0; i < vec.length; i++) {
      if (!(p.vector[i] >= vec[i])) {
        return false;
      }
    }
    return true;
  }

  /** Path ids of all matches, by scanning every path, sorted. */
  long[] bruteForce(QueryPath q) {
    long[] ids = paths.stream().filter(p -> matches(p, q.labelKeys, q.vector)).mapToLong(p -> p.pathId).toArray();
    Arrays.sort(ids);
    return ids;
  }
}
