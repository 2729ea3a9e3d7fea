/**
 * Verification and baseline tools, apart from the production path: {@link
 * io.kgrag.jobs.internal.tools.IndexVerifier} ({@code kgrag verify-index}: the path index against a brute-force
 * matcher) and {@link io.kgrag.jobs.internal.tools.JoinBaseline} ({@code kgrag join-baseline}: a run's query graphs
 * answered by plain Spark SQL joins, the scale benchmark's baseline).
 */
package io.kgrag.jobs.internal.tools;
