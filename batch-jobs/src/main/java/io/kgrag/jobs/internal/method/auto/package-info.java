/**
 * The {@code auto} retrieval method: the shared, graph-grounded question understanding picks each question's
 * program and the program's complete answer set answers ({@link io.kgrag.jobs.internal.method.auto.AutoMethod},
 * settings {@code spark.kgrag.auto.*}; the algorithm is {@link io.kgrag.core.understand} and
 * {@link io.kgrag.core.auto}).
 */
package io.kgrag.jobs.internal.method.auto;
