/**
 * What an incremental re-index ({@code kgrag reindex}) must recompute, decided from what changed in the
 * graph, without Spark: {@link io.kgrag.core.sgrag.reindex.AffectedNodes} (whose dominance vectors and
 * whose paths are stale) and {@link io.kgrag.core.sgrag.reindex.PartitionChanges} (which partitions of the
 * path index hold changed paths, and which have grown past their target size).
 */
package io.kgrag.core.sgrag.reindex;
