/**
 * SG-RAG's index work on the executors: {@link io.kgrag.udfs.sgrag.DominanceUdfs} computes every node's
 * dominance vector from a broadcast {@link io.kgrag.core.sgrag.gnn.DominanceModel}, {@link
 * io.kgrag.udfs.sgrag.PathIndexes} builds the partitioned path index (one {@link
 * io.kgrag.core.index.partition.PathPartition} per partition, as Apache Sedona builds spatial indexes), and
 * {@link io.kgrag.udfs.sgrag.PathIndexProbe} routes a batch of query paths to the partitions that can hold a
 * match and probes them there (Algorithm 7 within a partition). Used by batch-jobs' SG-RAG index stages, QA job
 * and {@code kgrag verify-index}.
 */
package io.kgrag.udfs.sgrag;
