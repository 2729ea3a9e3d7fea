package io.kgrag.core.sgrag.gnn;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Synthetic label embeddings and stars for the tests. */
final class SyntheticStars {

  private SyntheticStars() {}

  /** A random unit vector. */
  static float[] unit(Random r, int dim) {
    float[] v = new float[dim];
    double n = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) r.nextGaussian();
      n += (double) v[i] * v[i];
    }
    float inv = (float) (1 / Math.sqrt(n));
    for (int i = 0; i < dim; i++) {
      v[i] *= inv;
    }
    return v;
  }

  /**
   * A vocabulary of {@code vocab} unit label embeddings around {@code clusters} random cluster centres
   * (label = normalise(centre + 0.6 · random unit)), like sentence embeddings of related names.
   */
  static List<float[]> vocabulary(Random r, int dim, int clusters, int vocab) {
    List<float[]> centres = new ArrayList<>();
    for (int c = 0; c < clusters; c++) {
      centres.add(unit(r, dim));
    }
    List<float[]> labels = new ArrayList<>();
    for (int i = 0; i < vocab; i++) {
      float[] c = centres.get(i % clusters);
      float[] noise = unit(r, dim);
      float[] v = new float[dim];
      double n = 0;
      for (int k = 0; k < dim; k++) {
        v[k] = c[k] + 0.6f * noise[k];
        n += (double) v[k] * v[k];
      }
      float inv = (float) (1 / Math.sqrt(n));
      for (int k = 0; k < dim; k++) {
        v[k] *= inv;
      }
      labels.add(v);
    }
    return labels;
  }

  /**
   * {@code n} stars: centre labels drawn from the first {@code centreLabels} labels of the vocabulary (so
   * several stars share a centre label, as entities of one name do), 0..maxLeaves leaves drawn from the
   * whole vocabulary (repeats allowed).
   */
  static List<Star> clustered(int n, int dim, int clusters, int vocab, int centreLabels, int maxLeaves, long seed) {
    Random r = new Random(seed);
    List<float[]> labels = vocabulary(r, dim, clusters, vocab);
    List<Star> stars = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      float[] c = labels.get(r.nextInt(Math.min(centreLabels, vocab)));
      int l = r.nextInt(maxLeaves + 1);
      List<float[]> leaves = new ArrayList<>();
      for (int j = 0; j < l; j++) {
        leaves.add(labels.get(r.nextInt(vocab)));
      }
      stars.add(new Star(c, leaves));
    }
    return stars;
  }

  /** The default synthetic training set of the tests. */
  static List<Star> standard(int n, int dim, long seed) {
    return clustered(n, dim, 12, 240, 60, 10, seed);
  }
}
