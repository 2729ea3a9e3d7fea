/**
 * Supporting passages of a question over a graph built from text: {@link io.kgrag.core.passage.PassageGraph} holds
 * the entities, the chunks that mention them and the edges between them; {@link
 * io.kgrag.core.passage.PersonalizedPageRank} spreads a question's entities over the entity graph (HippoRAG's
 * retrieval, Gutiérrez et al. 2024, §2.2); {@link io.kgrag.core.passage.PassageRanker} turns the spread into a
 * ranking of chunks, the chunks behind a method's evidence edges first. Plain in-memory classes; batch-jobs moves
 * the tables in and the rankings out.
 */
package io.kgrag.core.passage;
