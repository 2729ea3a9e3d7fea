/**
 * Reading a run of {@code kgrag qa} back: {@link io.kgrag.jobs.internal.eval.RunEvaluator} scores its answers against
 * the questions' gold answers per method, dataset and slice into {@code kgrag.metrics} (with the core's
 * {@link io.kgrag.core.qa.eval.QaMetrics}), and {@link io.kgrag.jobs.internal.eval.EvidenceExport} writes one
 * question's evidence as GraphML and DOT files.
 */
package io.kgrag.jobs.internal.eval;
