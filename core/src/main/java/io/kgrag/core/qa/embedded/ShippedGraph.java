package io.kgrag.core.qa.embedded;

import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.graph.KnowledgeGraph;
import java.io.Serializable;
import java.util.Objects;

/**
 * A context's graph as it is shipped: its {@link GraphSource}, read on first use in each JVM and kept there with
 * its {@link Gazetteer} (transient fields, so serialising the context never carries the graph it has read).
 */
public final class ShippedGraph implements Serializable {
  private static final long serialVersionUID = 1L;

  private final GraphSource source;
  private transient volatile KnowledgeGraph graph;
  private transient volatile Gazetteer gazetteer;

  public ShippedGraph(GraphSource source) {
    this.source = Objects.requireNonNull(source, "source");
  }

  public GraphSource source() {
    return source;
  }

  /** The graph, read from the source once per JVM. */
  public KnowledgeGraph graph() {
    KnowledgeGraph g = graph;
    if (g == null) {
      synchronized (this) {
        if (graph == null) {
          graph = source.read();
        }
        g = graph;
      }
    }
    return g;
  }

  /** The graph's gazetteer, built once per JVM. */
  public Gazetteer gazetteer() {
    Gazetteer z = gazetteer;
    if (z == null) {
      KnowledgeGraph g = graph();
      synchronized (this) {
        if (gazetteer == null) {
          gazetteer = new Gazetteer(g);
        }
        z = gazetteer;
      }
    }
    return z;
  }
}
