/**
 * Spark data helpers that the QA job and the index stages share, below both: the stored label and relation
 * embeddings collected for in-memory search ({@link io.kgrag.jobs.internal.data.LabelVectors}, read by SimGRAG,
 * QAFD-RAG, STEM and the stem-gnn stage), the LLM reply cache moved to tasks and back ({@link
 * io.kgrag.jobs.internal.data.LlmCacheRows}, used by {@code kgrag qa} and LLM extraction in the ingest stage),
 * rows kept once computed outside Spark's cache manager ({@link io.kgrag.jobs.internal.data.PinnedRows}), row
 * building ({@link io.kgrag.jobs.internal.data.Rows}), and a table version's Parquet files read by each JVM itself
 * ({@link io.kgrag.jobs.internal.data.TableFiles}), through which a QA context ships the graph as its files ({@link
 * io.kgrag.jobs.internal.data.StoredGraph}) so that the driver never collects it.
 */
package io.kgrag.jobs.internal.data;
