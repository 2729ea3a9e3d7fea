/**
 * {@code kgrag reindex}: the SG-RAG index stages (gnn, paths, path-index) brought up to date with what
 * changed in their input tables since they last ran, found from the tables themselves: every index stage
 * records in its {@code runs} row the Delta versions it read ({@code read.<table>}), and the next reindex of
 * that stage diffs the tables now against those versions (time travel). What to recompute is decided by
 * {@link io.kgrag.core.sgrag.reindex}; these classes only move data.
 */
package io.kgrag.jobs.internal.stage.sgrag;
