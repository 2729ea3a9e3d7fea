/**
 * Reading a consistent build while a re-index commits: {@link io.kgrag.core.runs.SnapshotRule} picks, from the
 * runs log, the Delta version of each index table written by the last complete build. Spark-free; used by
 * batch-jobs' catalog.
 */
package io.kgrag.core.runs;
