package io.kgrag.jobs.api;

import java.util.List;
import java.util.Set;

/**
 * A retrieval method, found by {@link java.util.ServiceLoader} (a line in {@code
 * META-INF/services/io.kgrag.jobs.api.RetrievalMethod}): {@code kgrag qa --method <name>}, the demo and the
 * Airflow DAG run it through one QA job that reads the questions, ships the method's context to the executors,
 * runs its {@link Phase phases} over every question, and writes questions, query graphs, answers, evidence and
 * the run's figures. A method declares:
 *
 * <ul>
 *   <li>its {@link #name()} (the {@code method} column of answers and evidence) and the index stages it reads
 *       ({@link #requiredStages()}: a run reads the last complete build of the last of them);
 *   <li>its options, a record bound from {@code spark.kgrag.<name>.*} ({@link #optionsType()}, see {@link
 *       io.kgrag.jobs.conf.OptionsBinder}), and the shared {@code kgrag qa} flags it reads ({@link #flags()}; any
 *       other one given is an error naming the flag);
 *   <li>how a run starts ({@link #prepare}): on the driver, it reads what it needs through the run's pinned
 *       snapshot and returns a {@link MethodRun}, whose context and answering are plain Java (core).
 * </ul>
 */
public interface RetrievalMethod {
  /** The method's name: lower-case letters, digits and '-'. */
  String name();

  /** One line for {@code kgrag qa --help}. */
  String description();

  /** The index stages whose tables the method reads, in any order (names of the pipeline's stages). */
  List<String> requiredStages();

  /**
   * The record of its settings, bound from {@code spark.kgrag.<name>.<component in kebab case>}; it has a public
   * static {@code defaults()} and its canonical constructor rejects bad values naming the component.
   */
  Class<? extends Record> optionsType();

  /** The shared {@code kgrag qa} flags it reads. */
  Set<QaFlag> flags();

  /**
   * Starts a run: reads the method's tables through {@code setup}'s snapshot.
   *
   * @throws io.kgrag.core.UserInputException before anything is written, when the warehouse lacks what the
   *     method needs or a setting or file is bad
   */
  MethodRun prepare(MethodSetup setup);

  /** The answer generator's name in the runs table for a run with {@code c} ({@code extractive}, {@code llm:<model>}). */
  default String generatorName(io.kgrag.core.method.Components c) {
    return c.generatorName();
  }

  /**
   * Tables it needs besides those of its stages (the dense method: a text corpus's chunks and their embeddings);
   * {@code kgrag qa} refuses the method, and {@code --method all} skips it, when one is missing.
   */
  default java.util.List<io.kgrag.jobs.catalog.KgTable> requiredTables() {
    return java.util.List.of();
  }

  /** Whether {@code kgrag qa} and the demo use it when no method is named (one method says so). */
  default boolean isDefault() {
    return false;
  }
}
