package io.kgrag.core.sgrag.gnn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Quality figures of a {@link DominanceModel}, all computed with the Java forward the index uses.
 *
 * <p><b>Violations</b> count training pairs (g, s) whose exact outputs break o(s) ≤ o(g) in some
 * dimension. They say how well training met the paper's constraint (eq 14); they never cost a match,
 * because the index compares against {@link DominanceModel#starUpperBound}, not o(g).
 *
 * <p><b>Pruning power</b> is the fraction of random non-matching (query star s, data star g') pairs for
 * which the index rejects g', i.e. o(s) is not dominated by UB(g'). Higher is better; a true match is
 * never rejected. s is a random subset (random size, the empty one included) of a random star's leaves;
 * pairs where s is in fact label-contained in g' are skipped, as they must match. Three kinds of g':
 *
 * <ul>
 *   <li>{@link #pruningPower}: any other star;
 *   <li>{@link #pruningPowerSameLabel}: another star with the same centre label. This is the figure that
 *       matters when the index already keys entries by label, as kgrag's does;
 *   <li>{@link #pruningPowerDropOne}: s's own star without one leaf of s (the hardest case).
 * </ul>
 */
public final class DominanceMetrics {

  private DominanceMetrics() {}

  /** Pairs (g, s) of the samples where embedStar(s) &gt; embedStar(g) in some dimension. */
  public static int violations(DominanceModel model, List<StarSampler.Sample> samples) {
    return (int) violationStats(model, samples)[0];
  }

  /**
   * {violating pairs, largest relative excess max (o(s)_i − o(g)_i) / o(g)_i over them (0 if none)}.
   */
  public static double[] violationStats(DominanceModel model, List<StarSampler.Sample> samples) {
    int v = 0;
    double worst = 0;
    for (StarSampler.Sample sample : samples) {
      Star g = sample.star();
      float[] c = model.project(g.centerRef());
      List<float[]> leaves = new ArrayList<>(g.leafCount());
      for (int j = 0; j < g.leafCount(); j++) {
        leaves.add(model.project(g.leafRef(j)));
      }
      float[] og = model.embedStar(c, leaves);
      for (int[] sub : sample.substructures()) {
        List<float[]> sl = new ArrayList<>(sub.length);
        for (int j : sub) {
          sl.add(leaves.get(j));
        }
        float[] os = model.embedStar(c, sl);
        boolean violating = false;
        for (int i = 0; i < os.length; i++) {
          if (os[i] > og[i]) {
            violating = true;
            worst = Math.max(worst, (os[i] - og[i]) / Math.max(og[i], Float.MIN_NORMAL));
          }
        }
        if (violating) {
          v++;
        }
      }
    }
    return new double[] {v, worst};
  }

  /** Pruning power against other stars; NaN when no usable pair exists. */
  public static double pruningPower(DominanceModel model, List<Star> stars, int pairs, long seed) {
    return new Eval(model, stars).run(pairs, seed, Kind.OTHER);
  }

  /** Pruning power against other stars with the same centre label; NaN when no two stars share one. */
  public static double pruningPowerSameLabel(DominanceModel model, List<Star> stars, int pairs, long seed) {
    return new Eval(model, stars).run(pairs, seed, Kind.SAME_LABEL);
  }

  /** Pruning power against s's own star minus one leaf of s; NaN when no star has a leaf. */
  public static double pruningPowerDropOne(DominanceModel model, List<Star> stars, int pairs, long seed) {
    return new Eval(model, stars).run(pairs, seed, Kind.DROP_ONE);
  }

  private enum Kind {
    OTHER,
    SAME_LABEL,
    DROP_ONE
  }

  /** Shared state: label ids and lazily computed projections. */
  private static final class Eval {
    private final DominanceModel model;
    private final List<Star> stars;
    private final int[] centerId;
    private final int[][] leafIds;
    private final Map<Integer, List<Integer>> byCenter = new HashMap<>();
    private final Map<Integer, float[][]> proj = new HashMap<>();

    Eval(DominanceModel model, List<Star> stars) {
      this.model = model;
      this.stars = stars;
      LabelKeys keys = new LabelKeys();
      centerId = new int[stars.size()];
      leafIds = new int[stars.size()][];
      for (int i = 0; i < stars.size(); i++) {
        Star s = stars.get(i);
        centerId[i] = keys.id(s.centerRef());
        leafIds[i] = new int[s.leafCount()];
        for (int j = 0; j < s.leafCount(); j++) {
          leafIds[i][j] = keys.id(s.leafRef(j));
        }
        byCenter.computeIfAbsent(centerId[i], k -> new ArrayList<>()).add(i);
      }
    }

    /** [centre, leaf 0, leaf 1, ...] projections of star i. */
    private float[][] proj(int i) {
      return proj.computeIfAbsent(
          i,
          k -> {
            Star s = stars.get(k);
            float[][] p = new float[1 + s.leafCount()][];
            p[0] = model.project(s.centerRef());
            for (int j = 0; j < s.leafCount(); j++) {
              p[1 + j] = model.project(s.leafRef(j));
            }
            return p;
          });
    }

    double run(int pairs, long seed, Kind kind) {
      int n = stars.size();
      if (n == 0 || pairs <= 0) {
        return Double.NaN;
      }
      SplittableRandom r = new SplittableRandom(seed);
      int done = 0;
      int pruned = 0;
      int tries = 0;
      while (done < pairs && tries < 20 * pairs) {
        tries++;
        int a = r.nextInt(n);
        int la = stars.get(a).leafCount();
        int[] sub;
        int b;
        int[] gLeaves; // indices into star b's leaves
        if (kind == Kind.DROP_ONE) {
          if (la == 0) {
            continue;
          }
          sub = StarSampler.randomSubset(r, la, 1 + r.nextInt(la));
          int drop = sub[r.nextInt(sub.length)];
          b = a;
          gLeaves = new int[la - 1];
          for (int j = 0, t = 0; j < la; j++) {
            if (j != drop) {
              gLeaves[t++] = j;
            }
          }
        } else {
          sub = StarSampler.randomSubset(r, la, r.nextInt(la + 1));
          if (kind == Kind.OTHER) {
            if (n < 2) {
              return Double.NaN;
            }
            b = r.nextInt(n - 1);
            if (b >= a) {
              b++;
            }
          } else {
            List<Integer> same = byCenter.get(centerId[a]);
            if (same.size() < 2) {
              continue;
            }
            b = same.get(r.nextInt(same.size()));
            if (b == a) {
              continue;
            }
          }
          gLeaves = new int[stars.get(b).leafCount()];
          for (int j = 0; j < gLeaves.length; j++) {
            gLeaves[j] = j;
          }
        }
        int[] sIds = new int[sub.length];
        for (int j = 0; j < sub.length; j++) {
          sIds[j] = leafIds[a][sub[j]];
        }
        int[] gIds = new int[gLeaves.length];
        for (int j = 0; j < gLeaves.length; j++) {
          gIds[j] = leafIds[b][gLeaves[j]];
        }
        if (LabelKeys.contained(centerId[a], sIds, centerId[b], gIds)) {
          continue; // a true match: must pass, not a pruning opportunity
        }
        float[][] pa = proj(a);
        float[][] pb = proj(b);
        List<float[]> sl = new ArrayList<>(sub.length);
        for (int j : sub) {
          sl.add(pa[1 + j]);
        }
        List<float[]> gl = new ArrayList<>(gLeaves.length);
        for (int j : gLeaves) {
          gl.add(pb[1 + j]);
        }
        float[] q = model.embedStar(pa[0], sl);
        float[] ub = model.starUpperBound(pb[0], gl);
        if (!DominanceModel.dominatedBy(q, ub)) {
          pruned++;
        }
        done++;
      }
      return done == 0 ? Double.NaN : (double) pruned / done;
    }
  }
}
