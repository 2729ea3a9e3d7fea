/**
 * The knowledge graph's data: input lines decoded strictly ({@link io.kgrag.core.graph.LineDecoder}) and parsed
 * as triples ({@link io.kgrag.core.graph.TripleFormat}: TSV, pipe-separated or N-Triples) or entity names
 * ({@link io.kgrag.core.graph.NamesFormat}), each line a {@link io.kgrag.core.graph.ParsedLine} or a {@link
 * io.kgrag.core.graph.Rejection}; content-derived ids ({@link io.kgrag.core.graph.StableIds}); label
 * normalisation ({@link io.kgrag.core.graph.Labels}); and {@link io.kgrag.core.graph.KnowledgeGraph}, the
 * compact in-memory graph broadcast for question answering. Used by udfs' SQL functions and by batch-jobs'
 * ingest, index stages and QA methods.
 */
package io.kgrag.core.graph;
