/**
 * Question parsing without an LLM: {@link io.kgrag.core.qa.embedded.EmbeddedQueryGraphExtractor} makes a star
 * query graph (the asked-for entity at the centre, each mention a leaf with the words around it as relation
 * phrase), finding mentions through the graph's labels in a {@link io.kgrag.core.qa.embedded.Gazetteer}. The
 * offline default ψ, also the start of the other methods' embedded steps; used by batch-jobs' QA methods.
 */
package io.kgrag.core.qa.embedded;
