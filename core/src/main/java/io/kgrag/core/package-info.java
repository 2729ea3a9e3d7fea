/**
 * kgrag's core library, free of Spark: graph, text, embedding, question-answering and index code, with one
 * subpackage per concern and one per paper ({@code sgrag}, {@code simgrag}, {@code qafd}, {@code stem}, {@code
 * srag}). The root holds only {@link io.kgrag.core.UserInputException}, a problem with what the user gave,
 * which the command line reports with exit code 2. Used by udfs and batch-jobs.
 */
package io.kgrag.core;
