/**
 * The path index split across Spark partitions, plain Java (no Spark here): SG-RAG's R*-tree path index
 * (papers/sg-rag.txt §4.2–4.3, Appendix K) organised the way Apache Sedona organises a spatial index — a
 * <em>partitioning</em> built on the driver from a sample, a partitioner that sends every record to one
 * cell, one index built per partition, and a small directory on the driver that routes each query only
 * to partitions that can hold a match.
 *
 * <h2>Model</h2>
 *
 * <p>A stored path of length l (1 or 2 in SG-RAG) is a {@link io.kgrag.core.index.partition.PathRecord}:
 * path id, l + 1 node ids, l + 1 label keys (64-bit hashes of normalised labels, compared for equality)
 * and a non-negative dominance vector of {@code (l + 1) * d} floats. A
 * {@link io.kgrag.core.index.partition.QueryPath} has l + 1 label keys, of which positions 1..l may be
 * {@link io.kgrag.core.index.partition.PathPartition#WILDCARD}, and a query vector. A path matches a query
 * when every non-wildcard key equals the path's key at that position and the path's vector dominates the
 * query's ({@code data[i] >= query[i]} in every dimension). Paths are stored in both orientations by the
 * caller, so queries are oriented with position 0 known; a wildcard at position 0 is rejected with
 * {@link java.lang.IllegalArgumentException} everywhere. Nothing here may ever lose a match: the tests
 * compare the routed, partitioned, serialised index with a brute-force scan, query by query.
 *
 * <h2>Flow (as the Spark jobs run it)</h2>
 *
 * <ol>
 *   <li>Driver: sample path vectors;
 *       {@link io.kgrag.core.index.partition.DominancePartitioning#fromSample(int, float[][], int)} cuts
 *       {@code R^dims} into at most n cells (KDB-tree-like median splits; cells tile all of space, so
 *       {@link io.kgrag.core.index.partition.DominancePartitioning#partitionOf(float[])} places every
 *       vector); broadcast it.
 *   <li>Executors: send each path to {@code partitionOf(vector)}; per partition,
 *       {@link io.kgrag.core.index.partition.PathPartition#build} (an
 *       {@link io.kgrag.core.index.RStarTree} keyed by the first label key, plus columns), store
 *       {@link io.kgrag.core.index.partition.PathPartition#toBytes()} in {@code path_index.tree}, and return
 *       {@link io.kgrag.core.index.partition.PathPartition#summary()}.
 *   <li>Driver: {@link io.kgrag.core.index.partition.PartitionDirectory#of} over the summaries (merging
 *       any of one partition), broadcast it; for each query,
 *       {@link io.kgrag.core.index.partition.PartitionDirectory#route} lists the partitions whose count is
 *       positive, whose vector box's upper corner dominates the query vector, and whose Bloom filter
 *       ({@link io.kgrag.core.index.partition.LongBloomFilter}) may hold the query's first key.
 *   <li>Executors: {@link io.kgrag.core.index.partition.PathPartition#fromBytes} and
 *       {@link io.kgrag.core.index.partition.PathPartition#probe} or
 *       {@link io.kgrag.core.index.partition.PathPartition#probeBatch} (which returns local rows, not path
 *       ids) for the queries routed there.
 * </ol>
 *
 * <h2>Byte forms</h2>
 *
 * <p>Every class that is stored or shipped has a versioned byte form: 4 magic bytes ({@code KGDP}
 * partitioning, {@code KGPP} partition, {@code KGPS} summary, {@code KGPD} directory, {@code KGBF} Bloom
 * filter), a version byte (1), the body, and a CRC32; readers accept only their version and reject damaged
 * input with {@link java.lang.IllegalArgumentException}. The partitioning, summaries, directory, Bloom
 * filters, records and queries are also {@link java.io.Serializable} for broadcasting.
 *
 * <h2>Threads</h2>
 *
 * <p>Everything is immutable once built except {@link io.kgrag.core.index.partition.LongBloomFilter}
 * (whose {@code add} must not overlap with anything); probes and routing may run concurrently, with one
 * {@link io.kgrag.core.index.SearchStats} per thread.
 */
package io.kgrag.core.index.partition;
