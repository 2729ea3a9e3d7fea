/**
 * Spark-free helpers of the runs log: {@link io.kgrag.core.runs.SnapshotRule} picks, from the runs log, the Delta
 * version of each index table written by the last complete build (used by batch-jobs' catalog), and {@link
 * io.kgrag.core.runs.ProgressEstimate} words a long stage's done/total and the time it has left for its progress
 * line.
 */
package io.kgrag.core.runs;
