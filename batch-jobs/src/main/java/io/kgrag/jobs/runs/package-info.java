/**
 * The runs log: one row of table {@code runs} per stage run ({@link io.kgrag.jobs.runs.RunLog}) with what it read,
 * wrote and counted ({@link io.kgrag.jobs.runs.StageReport}), and the Spark task time, shuffle and input bytes of
 * the stage ({@link io.kgrag.jobs.runs.SparkUsage}); each also prints the stage's one progress line.
 */
package io.kgrag.jobs.runs;
