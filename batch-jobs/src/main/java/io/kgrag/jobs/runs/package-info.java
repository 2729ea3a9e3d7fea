/**
 * The runs log: one row of table {@code runs} per stage run ({@link io.kgrag.jobs.runs.RunLog}) with what it read,
 * wrote and counted ({@link io.kgrag.jobs.runs.StageReport}), and the Spark task time, shuffle and input bytes of
 * the stage ({@link io.kgrag.jobs.runs.SparkUsage}); each also prints the stage's one progress line. While a stage
 * runs, {@link io.kgrag.jobs.runs.StageProgress} shows its done/total (Spark tasks, or units the stage counts
 * itself) and the time left, on stderr: one line rewritten in place on a terminal, a line every {@code
 * spark.kgrag.progress.interval} seconds in a log.
 */
package io.kgrag.jobs.runs;
