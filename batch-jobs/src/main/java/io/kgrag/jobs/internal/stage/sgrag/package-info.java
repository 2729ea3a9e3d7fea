/**
 * SG-RAG's index stages: {@code gnn} ({@link io.kgrag.jobs.internal.stage.sgrag.Gnn}: the dominance GNN and every
 * node's vector), {@code paths} ({@link io.kgrag.jobs.internal.stage.sgrag.Paths}) and {@code path-index} ({@link
 * io.kgrag.jobs.internal.stage.sgrag.PathIndex}: one R*-tree per partition of a Sedona-style partitioning), each
 * with its incremental update for {@code kgrag reindex}: the tables now diffed against the Delta versions the stage
 * last read ({@code read.<table>} in its runs row); what to recompute is decided by {@link
 * io.kgrag.core.sgrag.reindex}, these classes only move data.
 */
package io.kgrag.jobs.internal.stage.sgrag;
