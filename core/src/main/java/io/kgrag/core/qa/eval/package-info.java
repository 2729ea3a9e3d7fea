/**
 * Scoring question answering runs, Spark-free: {@link io.kgrag.core.qa.eval.AnswerMatch} grades one question
 * (Hit@1, precision, recall, F1 of the predicted answer set against the gold answers, compared in
 * {@link io.kgrag.core.graph.Labels#normalize normalised} form; EM and token F1 of the top answer's text by
 * {@link io.kgrag.core.qa.eval.SpanScore}, for text QA), and {@link io.kgrag.core.qa.eval.QaMetrics}
 * aggregates graded questions into means, latency percentiles and a count per answer status.
 * {@code kgrag eval} runs them per method, dataset and slice of a run.
 */
package io.kgrag.core.qa.eval;
