/**
 * One question understanding for every method, grounded in the graph: mentions linked to graph entities
 * ({@link io.kgrag.core.understand.MentionLinker}), the graph's schema derived from the graph itself
 * ({@link io.kgrag.core.understand.GraphSchema}), candidate query programs enumerated from the mentions over
 * that schema and ranked by how well their canonical wording paraphrases the question
 * ({@link io.kgrag.core.understand.QuestionUnderstanding}, after Wang, Berant and Liang, "Building a Semantic
 * Parser Overnight", 2015), and programs executed into complete answer sets with evidence
 * ({@link io.kgrag.core.understand.ProgramExecutor}). No word list or template of any benchmark: the words it
 * knows are the graph's labels and relation names and closed-class English words.
 */
package io.kgrag.core.understand;
