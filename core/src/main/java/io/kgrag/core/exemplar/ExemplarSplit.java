package io.kgrag.core.exemplar;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;

/**
 * Splits labelled questions into exemplars and held-out questions, stratified by question type, so that
 * every type has exemplars and an evaluation can run on questions that were never exemplars.
 *
 * <p>In each stratum of n questions, {@code round(fraction · n)} are drawn as exemplars; when n ≥ 2 and
 * 0 &lt; fraction &lt; 1 at least one question lands on each side. The draw is a shuffle seeded by the
 * seed and the stratum's name, so a stratum's split does not depend on the other strata, and the same
 * input, fraction and seed always give the same split. Both sides keep the input order.
 */
public final class ExemplarSplit {
  private ExemplarSplit() {}

  /**
   * The two sides of a split, each in input order.
   *
   * @param exemplars the questions drawn as exemplars
   * @param heldOut the others
   */
  public record Result<T>(List<T> exemplars, List<T> heldOut) {
    public Result {
      exemplars = Collections.unmodifiableList(new ArrayList<>(exemplars));
      heldOut = Collections.unmodifiableList(new ArrayList<>(heldOut));
    }
  }

  /**
   * Splits {@code items}.
   *
   * @param stratum an item's stratum (its question type); null is a stratum of its own
   * @param fraction the share drawn as exemplars, in [0, 1]
   * @param seed the draw's seed
   * @throws IllegalArgumentException when {@code fraction} is outside [0, 1]
   */
  public static <T> Result<T> split(List<T> items, Function<? super T, String> stratum, double fraction, long seed) {
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("fraction must be in [0, 1], got " + fraction);
    }
    Map<String, List<Integer>> strata = new LinkedHashMap<>();
    for (int i = 0; i < items.size(); i++) {
      strata.computeIfAbsent(Objects.requireNonNullElse(stratum.apply(items.get(i)), "\u0000none"), k -> new ArrayList<>()).add(i);
    }
    boolean[] chosen = new boolean[items.size()];
    for (Map.Entry<String, List<Integer>> e : strata.entrySet()) {
      List<Integer> idx = new ArrayList<>(e.getValue());
      int k = count(idx.size(), fraction);
      Collections.shuffle(idx, new Random(mix(seed, e.getKey())));
      for (int j = 0; j < k; j++) {
        chosen[idx.get(j)] = true;
      }
    }
    List<T> ex = new ArrayList<>();
    List<T> held = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      (chosen[i] ? ex : held).add(items.get(i));
    }
    return new Result<>(ex, held);
  }

  /** How many of a stratum of {@code n} become exemplars. */
  static int count(int n, double fraction) {
    int k = (int) Math.round(fraction * n);
    if (n >= 2 && fraction > 0 && fraction < 1) {
      k = Math.max(1, Math.min(n - 1, k));
    }
    return k;
  }

  /** The stratum's seed: the seed and the stratum name's hash (String.hashCode is fixed by the JLS), mixed. */
  private static long mix(long seed, String stratum) {
    long z = seed * 0x9E3779B97F4A7C15L + stratum.hashCode();
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
