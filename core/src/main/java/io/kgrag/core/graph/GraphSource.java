package io.kgrag.core.graph;

import java.io.Serializable;
import java.util.Objects;

/**
 * Where a QA context's graph comes from, as the context carries it to the JVMs that answer: either the graph
 * itself ({@link #of}: a test's, or one built for a single run), or a reference each JVM reads the graph from
 * itself (the warehouse's {@code entities} and {@code relations} files), so that the driver never collects it and
 * no broadcast carries it.
 */
public interface GraphSource extends Serializable {
  /** The graph, read where it is called (contexts read it once per JVM and keep it). */
  KnowledgeGraph read();

  /** Entity rows the source holds (the graph's node count, before an edge with an unknown end is dropped). */
  long entityRows();

  /** Edge rows the source holds. */
  long edgeRows();

  /** A graph held in memory. */
  static GraphSource of(KnowledgeGraph graph) {
    return new Held(Objects.requireNonNull(graph, "graph"));
  }

  /** A graph held in memory ({@link #of}). */
  record Held(KnowledgeGraph graph) implements GraphSource {
    @Override
    public KnowledgeGraph read() {
      return graph;
    }

    @Override
    public long entityRows() {
      return graph.nodeCount();
    }

    @Override
    public long edgeRows() {
      return graph.edgeCount();
    }
  }
}
