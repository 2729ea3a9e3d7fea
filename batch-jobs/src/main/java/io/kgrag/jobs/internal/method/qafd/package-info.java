/**
 * The QAFD-RAG retrieval method (papers/qafd-rag.txt): its settings ({@code spark.kgrag.qafd.*}) and the run that
 * loads the graph and label index and ships {@link io.kgrag.core.qafd.QafdContext} ({@link
 * io.kgrag.jobs.internal.method.qafd.QafdMethod}).
 */
package io.kgrag.jobs.internal.method.qafd;
