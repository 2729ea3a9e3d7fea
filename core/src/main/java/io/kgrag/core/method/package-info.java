/**
 * What every retrieval method gives back for one question, free of Spark: the {@link
 * io.kgrag.core.method.QuestionAnswerer} a method's {@link io.kgrag.core.method.MethodContext} builds per task,
 * the {@link io.kgrag.core.method.Outcome} it returns and the {@link io.kgrag.core.method.Trace} of the
 * question's query graph and figures. {@link io.kgrag.core.method.LabelContext} is what the label-embedding
 * methods' contexts share, {@link io.kgrag.core.method.Components} which side asks the LLM. Each paper's package
 * holds its own context and answerer ({@link io.kgrag.core.qafd.QafdContext}, {@link
 * io.kgrag.core.simgrag.SimgragContext}, {@link io.kgrag.core.stem.StemContext}, {@link
 * io.kgrag.core.sgrag.qa.SgragContext}, {@link io.kgrag.core.srag.SragContext}). batch-jobs' retrieval-method
 * plug-ins ({@code io.kgrag.jobs.api.RetrievalMethod}) ship a context to every task, and the one QA job runs each
 * question through it.
 */
package io.kgrag.core.method;
