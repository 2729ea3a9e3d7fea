package io.kgrag.core.srag;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A multi-entity question analysed against the graph, the paper's Q = (t_Q, V_Q, P_Q): the operation t_Q,
 * the entity set V_Q (a defining pattern), and the properties P_Q the table needs, with the operation's
 * arguments.
 *
 * <p>Arguments by operation (others null / empty / 0):
 *
 * <ul>
 *   <li>{@link Operation#AGGREGATION}: {@code group} and one value (members having it), {@code measure},
 *       {@code comparison} and {@code number} (members whose measure compares so), {@code group} alone (how many
 *       distinct values the members have: "how many painters"), or nothing (how many members);
 *   <li>{@link Operation#DISTRIBUTION}: {@code group} (members per value) or {@code measure} (per number);
 *   <li>{@link Operation#SUPERLATIVE}: {@code measure} and {@code highest} (the extreme members), or
 *       {@code group} and {@code highest} (the most / least common values);
 *   <li>{@link Operation#INTERCOMPARISON}, {@link Operation#HYPOTHETICAL}: {@code group} and two values
 *       (hypothetical: the first gains {@code k} members);
 *   <li>{@link Operation#DISTRIBUTION_COMPLIANCE}: {@code measure};
 *   <li>{@link Operation#CORRELATION}: {@code measure} and {@code measure2};
 *   <li>{@link Operation#VARIANCE}: {@code measure}, {@code group} and two values;
 *   <li>{@link Operation#RELATIONSHIP}: {@code group} and one value (the members related to it).
 * </ul>
 */
public record SetQuery(
    EntitySet set,
    Operation operation,
    Measure measure,
    Measure measure2,
    Property group,
    List<String> values,
    Comparison comparison,
    double number,
    int k,
    boolean highest)
    implements Serializable {
  /** How a measure is compared with {@code number}. */
  public enum Comparison {
    GT(">"),
    GE(">="),
    LT("<"),
    LE("<="),
    EQ("=");

    private final String sql;

    Comparison(String sql) {
      this.sql = sql;
    }

    public String sql() {
      return sql;
    }
  }

  public SetQuery {
    Objects.requireNonNull(set, "set");
    Objects.requireNonNull(operation, "operation");
    values = values == null ? List.of() : List.copyOf(values);
  }

  /** The properties the table needs, each once, in argument order. */
  public List<Property> properties() {
    List<Property> out = new ArrayList<>();
    for (Property p : new Property[] {measure == null ? null : measure.property(), measure2 == null ? null : measure2.property(), group}) {
      if (p != null && out.stream().noneMatch(p::sameAs)) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * The analysis as a query graph (for the {@code query_graphs} table): the members as the target, joined to
   * the anchor by the set's relation, to each value by its property, and to an unknown node per property
   * read without a value (measures, groups).
   */
  public io.kgrag.core.qa.QueryGraph queryGraph() {
    io.kgrag.core.qa.QueryGraph.Builder b = io.kgrag.core.qa.QueryGraph.builder();
    int members = b.unknown(set.typeWord());
    int anchor = b.entity(set.anchorLabel());
    if (set.membersAreSubjects()) {
      b.edge(members, anchor, set.relation());
    } else {
      b.edge(anchor, members, set.relation());
    }
    for (Property p : properties()) {
      boolean valued = p.sameAs(group) && !values.isEmpty();
      if (valued) {
        for (String v : values) {
          int n = b.entity(v);
          if (p.outgoing()) {
            b.edge(members, n, p.relation());
          } else {
            b.edge(n, members, p.relation());
          }
        }
      } else {
        int n = b.unknown(p.relation());
        if (p.outgoing()) {
          b.edge(members, n, p.relation());
        } else {
          b.edge(n, members, p.relation());
        }
      }
    }
    return b.target(members).build();
  }

  /** One line for logs and the query-graph table. */
  public String describe() {
    StringBuilder b = new StringBuilder(operation.sqlName()).append(" over ").append(set.describe());
    if (measure != null) {
      b.append("; measure ").append(measure.count() ? "count(" + measure.property().relation() + ")" : measure.property().relation());
    }
    if (measure2 != null) {
      b.append(", ").append(measure2.count() ? "count(" + measure2.property().relation() + ")" : measure2.property().relation());
    }
    if (group != null) {
      b.append("; by ").append(group.relation());
    }
    if (!values.isEmpty()) {
      b.append("; values ").append(values);
    }
    if (comparison != null) {
      b.append("; ").append(comparison.sql()).append(' ').append(number);
    }
    if (k != 0) {
      b.append("; k=").append(k);
    }
    return b.toString();
  }
}
