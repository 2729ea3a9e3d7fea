/**
 * The {@code auto} method: the shared question understanding ({@link io.kgrag.core.understand}) decides each
 * question's program, and the program's complete answer set, ranked and each answer with its evidence, is the
 * answer. Core, free of Spark; the QA job ships {@link io.kgrag.core.auto.AutoContext} to its tasks.
 */
package io.kgrag.core.auto;
