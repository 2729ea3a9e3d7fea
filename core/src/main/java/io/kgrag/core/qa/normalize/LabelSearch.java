package io.kgrag.core.qa.normalize;

import java.util.List;

/**
 * The nearest graph labels of a vector: the FAISS search of labels in SG-RAG Algorithm 3, line 4. Implemented by
 * one HNSW graph ({@link LabelIndex}) and by a set of them searched together ({@link ShardedLabelIndex}).
 */
public interface LabelSearch {
  /** The k nearest labels, most similar first, ties by label key. */
  List<LabelIndex.Hit> nearest(float[] vector, int k);
}
