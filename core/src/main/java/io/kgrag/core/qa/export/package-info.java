/**
 * Exporting the evidence of an answer for people and graph tools: {@link
 * io.kgrag.core.qa.export.EvidenceGraphWriter} turns the evidence edges of one question into GraphML (yEd,
 * Gephi, NetworkX) and Graphviz DOT, with the answer node marked. Spark-free; {@code kgrag export-evidence}
 * reads the rows and calls it.
 */
package io.kgrag.core.qa.export;
