package io.kgrag.core.method;

import io.kgrag.core.passage.RetrievedPassage;
import io.kgrag.core.qa.QueryGraph;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * What a method records about one question while it answers it: the query graph (or pattern, or plan) it
 * answered, with the graph entities each named node stands for, and the question's own figures (a duration's
 * name ends in {@code _nanos}). What was recorded is kept when the question then fails, so a failed question
 * still shows how far it got.
 */
public final class Trace implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private QueryGraph queryGraph;
  private long[][] entityIds;
  private final LinkedHashMap<String, Long> metrics = new LinkedHashMap<>();
  private List<RetrievedPassage> passages;

  /** The question's query graph; {@code entityIds} gives a node's entities (null for an unknown), or is null. */
  public void queryGraph(QueryGraph graph, IntFunction<long[]> entityIds) {
    this.queryGraph = graph;
    if (graph == null) {
      this.entityIds = null;
      return;
    }
    long[][] ids = new long[graph.nodes().size()][];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = entityIds == null ? null : entityIds.apply(i);
    }
    this.entityIds = ids;
  }

  /** Records (or replaces) the figure {@code name} of this question. */
  public void metric(String name, long value) {
    metrics.put(name, value);
  }

  /** Adds {@code value} to the figure {@code name} (0 when not yet recorded). */
  public void add(String name, long value) {
    metrics.merge(name, value, Long::sum);
  }

  /** The query graph recorded, or null. */
  public QueryGraph queryGraph() {
    return queryGraph;
  }

  /** The entities of node {@code node} of the recorded query graph, or null. */
  public long[] entityIds(int node) {
    return entityIds == null ? null : entityIds[node];
  }

  /**
   * The passages the method ranked itself for this question (rank order), replacing the spread from its entities
   * that kgrag ranks otherwise over a graph built from text.
   */
  public void passages(List<RetrievedPassage> ranked) {
    this.passages = List.copyOf(ranked);
  }

  /** The passages the method ranked itself, or null when it ranked none. */
  public List<RetrievedPassage> passages() {
    return passages;
  }

  /** The figures recorded so far, in the order first recorded. */
  public Map<String, Long> metrics() {
    return Collections.unmodifiableMap(metrics);
  }
}
