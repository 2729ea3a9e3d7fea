/**
 * The dense method: a question's chunks by cosine between its embedding and the chunks' stored embeddings ({@link
 * io.kgrag.core.passage.DenseRanker}), the baseline graph retrieval over text is measured against. It ranks passages
 * and names no answer.
 */
package io.kgrag.core.dense;
