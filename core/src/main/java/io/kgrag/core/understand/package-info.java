/**
 * One question understanding for every method, grounded in the graph: mentions linked to graph entities
 * ({@link io.kgrag.core.understand.MentionLinker}), the graph's schema derived from the graph itself
 * ({@link io.kgrag.core.understand.GraphSchema}), candidate query programs enumerated from the mentions over
 * that schema and ranked by how well their canonical wording paraphrases the question
 * ({@link io.kgrag.core.understand.QuestionUnderstanding}, after Wang, Berant and Liang, "Building a Semantic
 * Parser Overnight", 2015), and programs executed into complete answer sets with evidence
 * ({@link io.kgrag.core.understand.ProgramExecutor}); the operation on the set (count, most frequent, order or
 * filter by a numeric relation, arithmetic) chosen by the same paraphrase reading once a span of the question reads
 * like the operator's canonical phrase ({@link io.kgrag.core.understand.OperationChooser}, applied by
 * {@link io.kgrag.core.understand.OperationExecutor}), and comparisons of two mentioned entities
 * ({@link io.kgrag.core.understand.ComparisonReader}). A multi-constraint question's mentions also make the star query
 * graph the retrievers read ({@link io.kgrag.core.understand.StarQueryGraph}). No word list or template of any benchmark: the words it
 * knows are the graph's labels and relation names, closed-class English words, English numerals, and one or two
 * canonical phrases per operator of the grammar ("how many", "the latest", "more than").
 */
package io.kgrag.core.understand;
