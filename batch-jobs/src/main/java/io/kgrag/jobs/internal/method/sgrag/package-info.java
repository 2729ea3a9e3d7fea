/**
 * The SG-RAG retrieval method (papers/sg-rag.txt): its settings ({@code spark.kgrag.sgrag.*}) and its run, which
 * ships {@link io.kgrag.core.sgrag.qa.SgragContext} and takes each question through planning, two probe rounds of
 * the partitioned path index and assembly ({@link io.kgrag.jobs.internal.method.sgrag.SgragMethod}).
 */
package io.kgrag.jobs.internal.method.sgrag;
