/**
 * What every retrieval method gives back for one question, free of Spark: the {@link
 * io.kgrag.core.method.QuestionAnswerer} a method builds per task, the {@link io.kgrag.core.method.Outcome} it
 * returns and the {@link io.kgrag.core.method.Trace} of the question's query graph and figures. The batch QA job
 * (batch-jobs) runs any method through these and writes the answers, evidence, query graphs and figures as
 * tables; each paper's package holds its own answerer.
 */
package io.kgrag.core.method;
