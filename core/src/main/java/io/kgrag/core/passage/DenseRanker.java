package io.kgrag.core.passage;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Dense passage retrieval, the baseline of graph retrieval over text: the chunks whose stored embeddings are nearest
 * the question's by cosine (the vectors are L2-normalised, so by dot product), exact over every chunk. Ties go to the
 * lower chunk id. Serializable, so that Spark can ship it to the executors.
 */
public final class DenseRanker implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long[] chunkIds;
  private final String[] docIds;
  private final float[] vectors; // row-major, chunks x dimension
  private final int dimension;

  /**
   * @param chunkIds the chunks, one per row of {@code vectors}
   * @param docIds their documents
   * @param vectors one L2-normalised vector per chunk, all of one length
   */
  public DenseRanker(long[] chunkIds, String[] docIds, float[][] vectors) {
    if (chunkIds.length != docIds.length || chunkIds.length != vectors.length) {
      throw new IllegalArgumentException("chunk ids, documents and vectors differ in number: " + chunkIds.length + ", " + docIds.length + ", " + vectors.length);
    }
    this.chunkIds = chunkIds.clone();
    this.docIds = docIds.clone();
    this.dimension = vectors.length == 0 ? 0 : vectors[0].length;
    this.vectors = new float[vectors.length * dimension];
    for (int i = 0; i < vectors.length; i++) {
      if (vectors[i].length != dimension) {
        throw new IllegalArgumentException("chunk " + chunkIds[i] + " has a vector of " + vectors[i].length + " components, the first has " + dimension);
      }
      System.arraycopy(vectors[i], 0, this.vectors, i * dimension, dimension);
    }
  }

  /** Number of chunks. */
  public int size() {
    return chunkIds.length;
  }

  /** The {@code k} chunks nearest {@code question} (an L2-normalised vector of the chunks' dimension), nearest first. */
  public List<RetrievedPassage> rank(float[] question, int k) {
    if (question.length != dimension && size() > 0) {
      throw new IllegalArgumentException("the question's vector has " + question.length + " components, the chunks' " + dimension
          + " (were they embedded with another model? `kgrag index --stages embed` embeds them again)");
    }
    // worst of the kept on top: lower score, then higher chunk id
    PriorityQueue<double[]> top = new PriorityQueue<>(
        (a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Long.compare(chunkIds[(int) b[1]], chunkIds[(int) a[1]]));
    for (int i = 0; i < chunkIds.length; i++) {
      double dot = 0;
      int o = i * dimension;
      for (int j = 0; j < dimension; j++) {
        dot += question[j] * vectors[o + j];
      }
      double[] cand = {dot, i};
      if (top.size() < k) {
        top.add(cand);
      } else if (top.comparator().compare(cand, top.peek()) > 0) {
        top.poll();
        top.add(cand);
      }
    }
    List<RetrievedPassage> out = new ArrayList<>(top.size());
    while (!top.isEmpty()) {
      double[] c = top.poll();
      int i = (int) c[1];
      out.add(0, new RetrievedPassage(chunkIds[i], docIds[i], c[0], List.of(), List.of(), c[0]));
    }
    return out;
  }
}
