/**
 * The SRAG retrieval method (papers/srag.txt): its settings ({@code spark.kgrag.srag.*}) and its two phases, the
 * question's entity table on the executors and its SQL through Spark on the driver ({@link
 * io.kgrag.jobs.internal.method.srag.SragMethod}).
 */
package io.kgrag.jobs.internal.method.srag;
