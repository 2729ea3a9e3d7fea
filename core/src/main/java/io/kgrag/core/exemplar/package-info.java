/**
 * Labelled questions as exemplars, which vote in the question understanding (core.understand) that every
 * embedded parser reads: a labelled question set ({@link io.kgrag.core.exemplar.MetaQaSource}) turned into
 * exemplars whose relation chain is induced from the graph ({@link io.kgrag.core.exemplar.ChainInducer},
 * {@link io.kgrag.core.exemplar.ExemplarBuilder}), split by type with a seed ({@link
 * io.kgrag.core.exemplar.ExemplarSplit}) and stored as JSON lines ({@link io.kgrag.core.exemplar.ExemplarFile});
 * at question time the masked exemplar texts are embedded once ({@link io.kgrag.core.exemplar.ExemplarStore})
 * and a question's nearest exemplars vote for their chains.
 */
package io.kgrag.core.exemplar;
