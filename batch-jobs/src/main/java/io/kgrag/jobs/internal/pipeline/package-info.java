/**
 * The index pipeline: its stages in the order their reads and writes give ({@link
 * io.kgrag.jobs.internal.pipeline.Pipeline}, the one place stage names and order live) and the runner that builds or
 * updates them with a runs row each ({@link io.kgrag.jobs.internal.pipeline.PipelineRun}).
 */
package io.kgrag.jobs.internal.pipeline;
