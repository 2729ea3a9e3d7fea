/**
 * Stage {@code schema} ({@link io.kgrag.jobs.internal.stage.schema.Schema}): the graph's schema (which relations join
 * which nodes, in which direction, with how many values) computed on the executors from {@code entities} and
 * {@code relations} into {@code graph_schema} ({@link io.kgrag.jobs.internal.stage.schema.SchemaStage}), and read
 * back by the question understanding of every QA run ({@link io.kgrag.jobs.internal.stage.schema.SchemaTable}).
 */
package io.kgrag.jobs.internal.stage.schema;
