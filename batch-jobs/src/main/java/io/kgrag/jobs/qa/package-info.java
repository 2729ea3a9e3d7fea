/**
 * Question answering jobs on Spark. {@link io.kgrag.jobs.qa.QuestionsInput} reads question sets (CSV,
 * MetaQA, JSON Lines files or a Delta table) into table {@code questions}, with the parsing itself in
 * {@code io.kgrag.core.qa.io}.
 */
package io.kgrag.jobs.qa;
