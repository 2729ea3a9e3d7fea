/**
 * Exact, in-memory path index of SG-RAG: a d-dimensional R*-tree over entries
 * {@code (long key, float[] point, long id)}.
 *
 * <h2>Model</h2>
 *
 * <p>SG-RAG (papers/sg-rag.txt §4.2, §4.3, Appendix K) indexes every data path p of length l by its label
 * embedding {@code o0(p)} and its dominance embedding {@code o(p)}. A query path q matches p only when
 * {@code o0(q) = o0(p)} (exact label equality after normalisation) and {@code o(q) <= o(p)} in every
 * dimension. kgrag normalises labels into a 64-bit <b>key</b> (a hash of the label sequence), so the
 * semantic test is key equality, and keeps the R*-tree for the low-dimensional dominance vector (the
 * <b>point</b>, typically 2–16 dimensions). The <b>id</b> names the path (for example {@code path_id}).
 *
 * <p>The index must never lose a true match: every search here is exact, and the tests compare every kind
 * of search against a brute-force scan ({@link io.kgrag.core.index.LinearScanIndex}).
 *
 * <h2>Types</h2>
 *
 * <ul>
 *   <li>{@link io.kgrag.core.index.DominanceIndex}: the read side (dominance, window and batch searches);
 *   <li>{@link io.kgrag.core.index.RStarTree}: the R*-tree, built by insertion or bulk loading
 *       ({@link io.kgrag.core.index.RStarTree.Builder});
 *   <li>{@link io.kgrag.core.index.DominanceBatchSearch}: SG-RAG's Algorithm 7, one best-first traversal
 *       for a batch of query paths;
 *   <li>{@link io.kgrag.core.index.RTreeSerializer}: the compact byte form stored in {@code path_index};
 *   <li>{@link io.kgrag.core.index.TreeStats}, {@link io.kgrag.core.index.SearchStats}: shape of a tree
 *       and work done by searches (for example the fraction of nodes a probe visits:
 *       {@code stats.nodesVisited() / (double) tree.stats().nodeCount()} per query);
 *   <li>{@link io.kgrag.core.index.Rect}: an immutable box (the root MBR).
 * </ul>
 *
 * <h2>Keys in the tree</h2>
 *
 * <p>Every node keeps, besides its box {@code [low, high]}, the key range {@code [minKey, maxKey]} of the
 * entries below it, so a search for key k descends only into nodes whose range contains k. Bulk loading
 * sorts by key first ({@link io.kgrag.core.index.BulkLoadOrder#KEY_FIRST}, the default) and tiles each
 * key's entries spatially, which gives nodes short key ranges (most single-key): a dominance search then
 * touches little beyond the subtree of its key. Insertion chooses nodes by geometry alone, as the R*-tree
 * does, so an insertion-built tree has wide key ranges and relies on its boxes; bulk-load static indexes.
 *
 * <h2>Stopping rule of the batch search</h2>
 *
 * <p>Algorithm 7 pops nodes by the L1 norm of the box's upper corner and stops when it falls below the
 * smallest L1 norm of a query vector. kgrag uses the signed coordinate sum instead of the L1 norm; the two
 * agree on non-negative vectors (SG-RAG's GAT outputs after a non-negative activation), and the sum form
 * stays sound for negative coordinates, where the L1 form would lose matches. No non-negativity
 * precondition is therefore needed. Since a query is only forwarded to a node whose box meets its
 * dominance region, which already implies the sum bound, the rule never actually cuts a search short; all
 * pruning comes from the key-range and box tests. See {@link io.kgrag.core.index.DominanceBatchSearch}.
 *
 * <h2>Threads</h2>
 *
 * <p>Searches are read-only and may run concurrently; {@code insert} must not overlap with anything.
 * {@link io.kgrag.core.index.SearchStats} objects are not thread-safe: one per thread.
 */
package io.kgrag.core.index;
