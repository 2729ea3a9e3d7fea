/**
 * The one QA job every retrieval method runs through: questions read into table {@code questions} ({@link
 * io.kgrag.jobs.internal.qa.QuestionsInput}, parsing in {@code io.kgrag.core.qa.io}), the method found ({@link
 * io.kgrag.jobs.internal.qa.Methods}) and its phases run over every question ({@link
 * io.kgrag.jobs.internal.qa.QaJob}), the run's answers, evidence, query graphs and LLM replies written ({@link
 * io.kgrag.jobs.internal.qa.QaOutput}, {@link io.kgrag.jobs.internal.data.LlmCacheRows}), and the runs rows ({@link
 * io.kgrag.jobs.internal.qa.QaRun}); with what several methods load the same way (the label embeddings, {@link
 * io.kgrag.jobs.internal.qa.LabelLoad}; exemplar files, {@link io.kgrag.jobs.internal.qa.ExemplarInput}).
 */
package io.kgrag.jobs.internal.qa;
