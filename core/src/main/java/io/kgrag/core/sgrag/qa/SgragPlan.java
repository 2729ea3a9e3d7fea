package io.kgrag.core.sgrag.qa;

import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.RelationPhraseMatcher;
import java.io.Serializable;
import java.util.List;

/**
 * A question after extraction, normalisation and decomposition (Algorithms 3 and 4): the query graph
 * (mentions the graph does not know dropped, listed in {@code dropped}), each node's label key
 * (WILDCARD for unknowns), the query paths, the label-completion queries for the index (Algorithm 5), and
 * per query edge how well its relation phrase names each relation ({@code edgeRelations}, null entries
 * for edges without a phrase).
 */
public record SgragPlan(
    QueryGraph graph,
    long[] nodeKeys,
    List<QueryPathPlan> paths,
    List<PathQuery> completion,
    List<String> dropped,
    List<RelationPhraseMatcher.Scores> edgeRelations)
    implements Serializable {}
