/**
 * kgrag as a library for Spark users: {@link io.kgrag.api.Kgrag#on Kgrag.on(spark).warehouse(path)} over a session
 * with Delta enabled, then {@link io.kgrag.api.Kgrag#index() index()}, {@link io.kgrag.api.Kgrag#answer answer(questions,
 * method)} and {@link io.kgrag.api.Kgrag#evaluate evaluate(runId)}, each returning its tables' rows as DataFrames. The
 * {@code kgrag} commands index, reindex, qa and eval are a thin layer over this package; it names no class of the
 * command line. docs/api.md shows it from Java, Scala and PySpark. (The retrieval-method plug-in API is
 * {@code io.kgrag.jobs.api}.)
 */
package io.kgrag.api;
