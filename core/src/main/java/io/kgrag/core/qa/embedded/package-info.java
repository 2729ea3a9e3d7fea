/**
 * What question reading without an LLM needs of the graph: its labels as token sequences ({@link
 * io.kgrag.core.qa.embedded.Gazetteer}), for finding mentions, and the graph each JVM that answers reads once ({@link
 * io.kgrag.core.qa.embedded.ShippedGraph}). The reading itself is {@link io.kgrag.core.understand}'s.
 */
package io.kgrag.core.qa.embedded;
