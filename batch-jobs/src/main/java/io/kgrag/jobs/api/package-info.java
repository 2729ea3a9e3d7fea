/**
 * The plug-in API of kgrag's QA: a retrieval method ({@link io.kgrag.jobs.api.RetrievalMethod}, found through
 * {@link java.util.ServiceLoader}) declares its name, the index stages it reads, its settings record and the shared
 * {@code kgrag qa} flags it reads ({@link io.kgrag.jobs.api.QaFlag}); from a {@link io.kgrag.jobs.api.MethodSetup}
 * it prepares a {@link io.kgrag.jobs.api.MethodRun}: the context shipped to every task and the {@link
 * io.kgrag.jobs.api.Phase phases} every question goes through. One QA job runs any method and writes its answers,
 * evidence, query graphs and figures. docs/ARCHITECTURE.md shows how to add a method.
 */
package io.kgrag.jobs.api;
