package io.kgrag.core.stem;

import io.kgrag.core.qa.QueryGraph;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * One candidate plan of STEM's semantic-to-structural projection (§3.1–3.2): the atomic assertions the
 * question was decomposed into (eq. 1), the answer strategy, and the schema graph G_sch built from their
 * structural triples (eq. 2).
 *
 * <p>The schema graph is a {@link QueryGraph}: a question entity is an entity node whose label is the
 * entity's text, a placeholder {@code [ENTk]} is an unknown node (the k-th unknown in node order), an edge's
 * phrase is the triple's relation (a relation name of the graph, or free text), written in the triple's
 * direction, and the target is the placeholder the question asks for.
 *
 * @param schema G_sch
 * @param strategy the answer strategy σ
 * @param assertions the atomic assertions S, with placeholders; may be empty (the embedded decomposer has none)
 * @param source where the plan came from (the exemplar pattern key, "star", "llm"), for notes and logs
 */
public record SchemaPlan(QueryGraph schema, Strategy strategy, List<String> assertions, String source) implements Serializable {
  public SchemaPlan {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(strategy, "strategy");
    assertions = assertions == null ? List.of() : List.copyOf(assertions);
    if (schema.edges().isEmpty()) {
      throw new IllegalArgumentException("a schema graph needs at least one triple");
    }
  }

  /** The placeholder text of unknown node {@code id}: {@code [ENTk]}, k its rank among the unknowns from 1. */
  public String placeholder(int id) {
    int k = 0;
    for (QueryGraph.Node n : schema.nodes()) {
      if (n.unknown()) {
        k++;
        if (n.id() == id) {
          return "[ENT" + k + "]";
        }
      }
    }
    throw new IllegalArgumentException("node " + id + " is not a placeholder of " + schema);
  }

  /** A node's text in the schema's triples: the entity's text, or its placeholder. */
  public String term(int id) {
    QueryGraph.Node n = schema.node(id);
    return n.unknown() ? placeholder(id) : n.label();
  }

  /** The structural triples T as text, {@code (head, relation, tail)} per edge, in edge order. */
  public String triplesText() {
    StringBuilder b = new StringBuilder("[");
    for (QueryGraph.Edge e : schema.edges()) {
      if (b.length() > 1) {
        b.append(", ");
      }
      b.append('(').append(term(e.src())).append(", ").append(e.phrase() == null ? "?" : e.phrase()).append(", ").append(term(e.dst())).append(')');
    }
    return b.append(']').toString();
  }
}
