/**
 * kgrag's batch jobs: the {@code spark-submit} entry point ({@link io.kgrag.jobs.KgragMain}) of every command. The
 * API other code builds on is {@link io.kgrag.jobs.api} (retrieval methods as plug-ins), {@link
 * io.kgrag.jobs.catalog} (the Delta tables), {@link io.kgrag.jobs.conf} (settings) and {@link io.kgrag.jobs.runs}
 * (the runs log); everything under {@code io.kgrag.jobs.internal} is the implementation, and {@link
 * io.kgrag.jobs.cli} the command line over it. docs/ARCHITECTURE.md shows how they fit.
 */
package io.kgrag.jobs;
