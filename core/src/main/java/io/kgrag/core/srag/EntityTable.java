package io.kgrag.core.srag;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.EvidenceEdge;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * A question's relational table (the paper's §4.2 "Table Generation"): one row per member of the entity
 * set, the member's label in {@code entity} and id in {@code entity_id}, then one column per property.
 * Values are normalised ({@link ValueNormaliser}); a column whose members have at most one value holds a
 * scalar (null when a member has none), a multi-valued column holds a sorted array (empty when none), so
 * {@code size()} counts values and {@code array_contains} tests them.
 *
 * <p>Built from the graph: members are the nodes joined to the anchor by the set's relation, values the
 * labels of the nodes joined to a member by a property's relation. The edges read are kept as evidence.
 */
public final class EntityTable implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The first two columns of every table. */
  public static final String ENTITY = "entity";

  public static final String ENTITY_ID = "entity_id";

  /** A column's value type: BIGINT, DOUBLE or STRING in SQL. */
  public enum Kind {
    INTEGER,
    DECIMAL,
    TEXT;

    /** The narrowest kind of all of {@code values} (Long, Double or String; nulls ignored); INTEGER for none. */
    public static Kind of(Iterable<Object> values) {
      Kind k = INTEGER;
      for (Object v : values) {
        if (v instanceof String) {
          return TEXT;
        }
        if (v instanceof Double) {
          k = DECIMAL;
        }
      }
      return k;
    }

    public boolean numeric() {
      return this != TEXT;
    }
  }

  /** A property column: its SQL name, where its values come from, their kind, and whether it holds arrays. */
  public record Column(String name, Property property, Kind kind, boolean multi) implements Serializable {}

  /** One member: its id, label and one cell per column (a scalar or null, or a {@code List} for multi columns). */
  public record Row(long entityId, String entity, List<Object> cells) implements Serializable {}

  private final EntitySet set;
  private final List<Column> columns;
  private final List<Row> rows;
  private final List<EvidenceEdge> evidence;
  private final boolean evidenceTruncated;

  EntityTable(EntitySet set, List<Column> columns, List<Row> rows, List<EvidenceEdge> evidence, boolean evidenceTruncated) {
    this.set = set;
    this.columns = List.copyOf(columns);
    this.rows = Collections.unmodifiableList(rows);
    this.evidence = List.copyOf(evidence);
    this.evidenceTruncated = evidenceTruncated;
  }

  public EntitySet set() {
    return set;
  }

  public List<Column> columns() {
    return columns;
  }

  public List<Row> rows() {
    return rows;
  }

  /** The edges the table was built from (set edges first), at most the builder's limit. */
  public List<EvidenceEdge> evidence() {
    return evidence;
  }

  public boolean evidenceTruncated() {
    return evidenceTruncated;
  }

  /** The column holding {@code p}'s values. */
  public Column column(Property p) {
    for (Column c : columns) {
      if (c.property().sameAs(p)) {
        return c;
      }
    }
    throw new IllegalArgumentException("the table has no column for " + p.relation() + (p.outgoing() ? "" : " (incoming)"));
  }

  /**
   * Builds the table of {@code set} with one column per property (in order).
   *
   * @param maxMembers a larger set is refused
   * @param maxEvidence edges kept as evidence
   * @throws TooLarge when the set has more than {@code maxMembers} members
   */
  public static EntityTable build(KnowledgeGraph graph, EntitySet set, List<Property> properties, int maxMembers, int maxEvidence) {
    int anchor = graph.index(set.anchorId());
    if (anchor < 0) {
      throw new IllegalArgumentException("entity " + set.anchorId() + " (" + set.anchorLabel() + ") is not in the graph");
    }
    List<EvidenceEdge> evidence = new ArrayList<>();
    boolean[] truncated = {false};
    TreeSet<Integer> members = new TreeSet<>(Comparator.comparing(graph::label).thenComparingLong(graph::entityId));
    for (int m : set.members(graph)) {
      members.add(m);
      edge(graph, evidence, truncated, maxEvidence, set.membersAreSubjects() ? m : anchor, set.relation(), set.membersAreSubjects() ? anchor : m);
    }
    if (members.size() > maxMembers) {
      throw new TooLarge(set, members.size(), maxMembers);
    }
    List<Column> columns = new ArrayList<>();
    List<Row> rows = new ArrayList<>();
    List<List<List<Object[]>>> values = new ArrayList<>(); // [member][column] → (value, cleaned label)
    for (int m : members) {
      List<List<Object[]>> perColumn = new ArrayList<>();
      for (Property p : properties) {
        Map<String, Object[]> distinct = new LinkedHashMap<>(); // value, cleaned label
        for (int k = 0; k < graph.entryCount(m); k++) {
          if (graph.entryRelation(m, k).equals(p.relation()) && graph.entryOutgoing(m, k) == p.outgoing()) {
            int v = graph.entryNeighbour(m, k);
            Object value = ValueNormaliser.value(graph.label(v));
            if (value != null && distinct.putIfAbsent(key(value), new Object[] {value, ValueNormaliser.clean(graph.label(v))}) == null) {
              edge(graph, evidence, truncated, maxEvidence, p.outgoing() ? m : v, p.relation(), p.outgoing() ? v : m);
            }
          }
        }
        perColumn.add(new ArrayList<>(distinct.values()));
      }
      values.add(perColumn);
    }
    java.util.Set<String> names = new java.util.HashSet<>(List.of(ENTITY, ENTITY_ID));
    for (int c = 0; c < properties.size(); c++) {
      List<Object> all = new ArrayList<>();
      boolean multi = false;
      for (List<List<Object[]>> member : values) {
        member.get(c).forEach(v -> all.add(v[0]));
        multi |= member.get(c).size() > 1;
      }
      Kind kind = Kind.of(all);
      columns.add(new Column(unique(names, columnName(properties.get(c))), properties.get(c), kind, multi));
    }
    int i = 0;
    for (int m : members) {
      List<Object> cells = new ArrayList<>();
      for (int c = 0; c < columns.size(); c++) {
        List<Object> vs = coerce(values.get(i).get(c), columns.get(c).kind());
        if (columns.get(c).multi()) {
          vs.sort(EntityTable::compareValues);
          cells.add(Collections.unmodifiableList(vs));
        } else {
          cells.add(vs.isEmpty() ? null : vs.get(0));
        }
      }
      rows.add(new Row(graph.entityId(m), graph.label(m), Collections.unmodifiableList(cells)));
      i++;
    }
    return new EntityTable(set, columns, rows, evidence, truncated[0]);
  }

  /** A set over the member limit. */
  public static final class TooLarge extends RuntimeException {
    public TooLarge(EntitySet set, int members, int max) {
      super(String.format(Locale.ROOT, "the entity set %s has %,d members, more than the limit of %,d", set.describe(), members, max));
    }
  }

  /**
   * The SQL name of a property's column: the relation's last path segment in lower case, letters, digits and
   * underscores ({@code /people/person/nationality} → {@code nationality}), {@code _of} when the member is the
   * edge's tail.
   */
  public static String columnName(Property p) {
    String r = p.relation();
    String[] parts = r.split("[/#.:]+");
    String last = "";
    for (int j = parts.length - 1; j >= 0 && last.isEmpty(); j--) {
      last = parts[j];
    }
    String name = last.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
    if (name.isEmpty()) {
      name = "property";
    }
    if (Character.isDigit(name.charAt(0))) {
      name = "p_" + name;
    }
    return p.outgoing() ? name : name + "_of";
  }

  private static String unique(java.util.Set<String> taken, String name) {
    String n = name;
    for (int j = 2; !taken.add(n); j++) {
      n = name + "_" + j;
    }
    return n;
  }

  private static String key(Object v) {
    return v instanceof String s ? "s" + s : "n" + ((Number) v).doubleValue();
  }

  /** Values as the column's kind: numbers as Double in a DECIMAL column, the cleaned labels in a TEXT one. */
  private static List<Object> coerce(List<Object[]> vs, Kind kind) {
    List<Object> out = new ArrayList<>(vs.size());
    for (Object[] v : vs) {
      out.add(switch (kind) {
        case INTEGER -> v[0];
        case DECIMAL -> ((Number) v[0]).doubleValue();
        case TEXT -> v[1];
      });
    }
    return out;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareValues(Object a, Object b) {
    if (a instanceof String x && b instanceof String y) {
      return AnswerRenderer.LABEL_ORDER.compare(x, y);
    }
    return ((Comparable) a).compareTo(b);
  }

  private static void edge(KnowledgeGraph g, List<EvidenceEdge> out, boolean[] truncated, int max, int src, String rel, int dst) {
    if (out.size() < max) {
      out.add(new EvidenceEdge(g.entityId(src), g.label(src), rel, g.entityId(dst), g.label(dst)));
    } else {
      truncated[0] = true;
    }
  }
}
