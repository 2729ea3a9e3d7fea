package io.kgrag.core.qa;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The query graph q of a question (SG-RAG §4.3, ψ in eq. 1): entity nodes with a label, or unknown
 * ("UNK") nodes for what is asked, joined by edges without relation labels. An edge may carry the
 * question's relation phrase ("directed by"), and an unknown node the type word ("Which sport …"); both
 * only rank candidates, they never filter.
 *
 * <p>Node ids are dense: node i is {@code nodes().get(i)}. The target (the node the answer binds) is
 * {@link #target()}.
 */
public final class QueryGraph implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * A query node: a label for a mentioned entity, {@code null} for an unknown. {@code confidence} (0..1]
   * says how sure the extractor is that the mention is a constraint; retrieval weighs constraints by it.
   */
  public record Node(int id, String label, String description, String typeHint, double confidence) implements Serializable {
    public boolean unknown() {
      return label == null;
    }
  }

  /** An undirected query edge; {@code phrase} is the relation phrase of the question, or null. */
  public record Edge(int src, int dst, String phrase) implements Serializable {
    public int other(int node) {
      return node == src ? dst : src;
    }
  }

  private final List<Node> nodes;
  private final List<Edge> edges;
  private final int target;

  private QueryGraph(List<Node> nodes, List<Edge> edges, int target) {
    this.nodes = Collections.unmodifiableList(nodes);
    this.edges = Collections.unmodifiableList(edges);
    this.target = target;
  }

  public static Builder builder() {
    return new Builder();
  }

  public List<Node> nodes() {
    return nodes;
  }

  public List<Edge> edges() {
    return edges;
  }

  public Node node(int id) {
    return nodes.get(id);
  }

  /** The unknown node the answer binds; -1 when the graph has no unknown node. */
  public int target() {
    return target;
  }

  public List<Node> unknowns() {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes) {
      if (n.unknown()) {
        out.add(n);
      }
    }
    return out;
  }

  public List<Node> mentions() {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes) {
      if (!n.unknown()) {
        out.add(n);
      }
    }
    return out;
  }

  public int degree(int node) {
    int d = 0;
    for (Edge e : edges) {
      if (e.src() == node || e.dst() == node) {
        d++;
      }
    }
    return d;
  }

  /** A copy with node {@code id}'s label replaced (entity normalisation, Algorithm 3 line 5). */
  public QueryGraph withLabel(int id, String label) {
    List<Node> ns = new ArrayList<>(nodes);
    Node n = nodes.get(id);
    ns.set(id, new Node(id, label, n.description(), n.typeHint(), n.confidence()));
    return new QueryGraph(ns, new ArrayList<>(edges), target);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueryGraph q && q.nodes.equals(nodes) && q.edges.equals(edges) && q.target == target;
  }

  @Override
  public int hashCode() {
    return Objects.hash(nodes, edges, target);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Node n : nodes) {
      b.append(b.length() == 0 ? "" : " # ").append(n.id()).append(':').append(n.unknown() ? "UNK" : n.label());
      if (n.typeHint() != null) {
        b.append(" (").append(n.typeHint()).append(')');
      }
    }
    for (Edge e : edges) {
      b.append(" # ").append(e.src()).append('-').append(e.dst());
      if (e.phrase() != null) {
        b.append(" [").append(e.phrase()).append(']');
      }
    }
    return b.toString();
  }

  /** Builds a query graph; nodes get ids in the order they are added. */
  public static final class Builder {
    private final List<Node> nodes = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();
    private int target = -1;

    /** Adds a mentioned entity and returns its id. */
    public int entity(String label) {
      return entity(label, null);
    }

    public int entity(String label, String description) {
      return entity(label, description, 1.0);
    }

    public int entity(String label, String description, double confidence) {
      if (label == null || label.isBlank()) {
        throw new IllegalArgumentException("an entity node needs a label");
      }
      if (!(confidence > 0 && confidence <= 1)) {
        throw new IllegalArgumentException("confidence must be in (0, 1], got " + confidence);
      }
      nodes.add(new Node(nodes.size(), label.strip(), description, null, confidence));
      return nodes.size() - 1;
    }

    /** Adds an unknown node; the first one added is the target unless {@link #target(int)} says otherwise. */
    public int unknown(String typeHint) {
      nodes.add(new Node(nodes.size(), null, null, typeHint == null || typeHint.isBlank() ? null : typeHint.strip(), 1.0));
      if (target < 0) {
        target = nodes.size() - 1;
      }
      return nodes.size() - 1;
    }

    public Builder target(int id) {
      if (id < 0 || id >= nodes.size() || !nodes.get(id).unknown()) {
        throw new IllegalArgumentException("the target must be an unknown node, got " + id);
      }
      target = id;
      return this;
    }

    /** Adds an edge; self loops and repeated node pairs are ignored. */
    public Builder edge(int src, int dst, String phrase) {
      if (src < 0 || dst < 0 || src >= nodes.size() || dst >= nodes.size()) {
        throw new IllegalArgumentException("edge " + src + "-" + dst + " names a node that does not exist");
      }
      if (src == dst) {
        return this;
      }
      for (Edge e : edges) {
        if ((e.src() == src && e.dst() == dst) || (e.src() == dst && e.dst() == src)) {
          return this;
        }
      }
      edges.add(new Edge(src, dst, phrase == null || phrase.isBlank() ? null : phrase.strip()));
      return this;
    }

    public int size() {
      return nodes.size();
    }

    public QueryGraph build() {
      return new QueryGraph(new ArrayList<>(nodes), new ArrayList<>(edges), target);
    }
  }
}
