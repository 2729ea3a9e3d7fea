package io.kgrag.core.sgrag.gnn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Builds the training pairs (g, s) of Algorithm 2 (lines 2–5): for each star g, substructures s that
 * share its centre and keep a subset of its leaves.
 *
 * <p>Scheme, for a star with L leaves:
 *
 * <ol>
 *   <li>if L &gt; {@code maxLeaves}, g is first replaced by a random sub-star with {@code maxLeaves} of its
 *       leaves (kept in their original order). A substructure of that sub-star is still a substructure of
 *       the original, so every pair stays a valid (g, s) pair; it only bounds the padded batch width;
 *   <li>every single-leaf substructure (L of them);
 *   <li>the full star itself (s = g; for L = 0 this is the lone centre, the only pair);
 *   <li>up to {@code samplesPerStar} random proper subsets: a size uniform in [0, L − 1] (0 is the lone
 *       centre), then that many distinct leaves uniformly; duplicates of earlier subsets are dropped.
 * </ol>
 *
 * All randomness comes from a generator seeded by (seed, star index), so a star's pairs do not depend
 * on the other stars or on the order of calls.
 *
 * <p>The sampling only shapes what the dominance loss sees. The index's no-false-negative guarantee does
 * not depend on it (nor on training at all): it comes from {@link DominanceModel#starUpperBound}, which
 * holds for every subset of every star by construction.
 */
public final class StarSampler {

  private final int samplesPerStar;
  private final int maxLeaves;
  private final long seed;

  /**
   * @param samplesPerStar random subsets drawn per star (&gt;= 0)
   * @param maxLeaves leaves kept per star (&gt;= 1)
   * @param seed base seed
   */
  public StarSampler(int samplesPerStar, int maxLeaves, long seed) {
    if (samplesPerStar < 0) {
      throw new IllegalArgumentException("samplesPerStar must be >= 0: " + samplesPerStar);
    }
    if (maxLeaves < 1) {
      throw new IllegalArgumentException("maxLeaves must be >= 1: " + maxLeaves);
    }
    this.samplesPerStar = samplesPerStar;
    this.maxLeaves = maxLeaves;
    this.seed = seed;
  }

  /** Samples of every star, in order ({@code result.get(i).starIndex() == i}). */
  public List<Sample> sample(List<Star> stars) {
    List<Sample> out = new ArrayList<>(stars.size());
    for (int i = 0; i < stars.size(); i++) {
      out.add(sample(stars.get(i), i));
    }
    return out;
  }

  /** The pairs of one star; {@code index} is its position in the training set (part of the seed). */
  public Sample sample(Star star, int index) {
    SplittableRandom r = new SplittableRandom(mix(seed, index));
    Star g = star;
    int[] kept = null;
    if (star.leafCount() > maxLeaves) {
      kept = randomSubset(r, star.leafCount(), maxLeaves);
      g = star.subStar(kept);
    }
    int n = g.leafCount();
    Set<List<Integer>> seen = new HashSet<>();
    List<int[]> subs = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      add(new int[] {j}, seen, subs);
    }
    int[] all = new int[n];
    for (int j = 0; j < n; j++) {
      all[j] = j;
    }
    add(all, seen, subs);
    if (n > 0) {
      for (int t = 0; t < samplesPerStar; t++) {
        add(randomSubset(r, n, r.nextInt(n)), seen, subs);
      }
    }
    return new Sample(index, g, kept, subs);
  }

  private static void add(int[] subset, Set<List<Integer>> seen, List<int[]> subs) {
    List<Integer> key = new ArrayList<>(subset.length);
    for (int i : subset) {
      key.add(i);
    }
    if (seen.add(key)) {
      subs.add(subset);
    }
  }

  /** {@code k} distinct indices of [0, n), sorted. */
  static int[] randomSubset(SplittableRandom r, int n, int k) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = 0; i < k; i++) {
      int j = i + r.nextInt(n - i);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    int[] s = Arrays.copyOf(p, k);
    Arrays.sort(s);
    return s;
  }

  static long mix(long seed, long index) {
    long z = seed * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The training pairs of one star. */
  public static final class Sample {
    private final int starIndex;
    private final Star star;
    private final int[] keptLeaves;
    private final List<int[]> substructures;

    Sample(int starIndex, Star star, int[] keptLeaves, List<int[]> substructures) {
      this.starIndex = starIndex;
      this.star = star;
      this.keptLeaves = keptLeaves;
      this.substructures = Collections.unmodifiableList(substructures);
    }

    /** Position of the original star in the training set. */
    public int starIndex() {
      return starIndex;
    }

    /** g: the original star, or its random sub-star of {@code maxLeaves} leaves. */
    public Star star() {
      return star;
    }

    /**
     * Indices into the original star's leaves that g kept, sorted; {@code null} when g is the original
     * star.
     */
    public int[] keptLeaves() {
      return keptLeaves == null ? null : keptLeaves.clone();
    }

    /** The substructures s, each as sorted leaf indices into {@link #star()}; do not modify them. */
    public List<int[]> substructures() {
      return substructures;
    }

    /** Number of (g, s) pairs. */
    public int size() {
      return substructures.size();
    }
  }
}
