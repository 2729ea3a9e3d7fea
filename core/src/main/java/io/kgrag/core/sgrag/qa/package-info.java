/**
 * SG-RAG's retrieval for one question, in the three steps that talk to the path index so that a batch job can
 * send every question's queries at once: {@link io.kgrag.core.sgrag.qa.SgragRetriever} plans ({@link
 * io.kgrag.core.sgrag.qa.SgragPlan}: normalised query graph and label-completion queries, Algorithms 3–5),
 * makes the exact query paths ({@link io.kgrag.core.sgrag.qa.ExactPlan}, Algorithms 6–7) and assembles and
 * ranks the hits ({@link io.kgrag.core.sgrag.qa.Retrieval}, Algorithm 8). {@link
 * io.kgrag.core.sgrag.qa.PathDecomposer} is the cost-model plan selection of Algorithm 4. Used by batch-jobs'
 * SG-RAG QA job.
 */
package io.kgrag.core.sgrag.qa;
