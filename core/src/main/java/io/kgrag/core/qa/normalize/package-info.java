/**
 * Entity normalisation (SG-RAG Algorithm 3): {@link io.kgrag.core.qa.normalize.EntityNormaliser} maps each
 * labelled query node to the graph label it means, searching the label embeddings when no label matches
 * exactly. The search (line 4, the paper's FAISS) is a {@link io.kgrag.core.qa.normalize.LabelSearch}: one HNSW
 * graph ({@link io.kgrag.core.qa.normalize.LabelIndex}) or one per shard for large graphs ({@link
 * io.kgrag.core.qa.normalize.ShardedLabelIndex}). Used by batch-jobs' QA methods and label index stage.
 */
package io.kgrag.core.qa.normalize;
