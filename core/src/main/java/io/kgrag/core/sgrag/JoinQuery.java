package io.kgrag.core.sgrag;

import io.kgrag.core.qa.QueryGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A query graph as one Spark SQL query over the graph's edges: the brute-force baseline of SG-RAG's path
 * index ({@code kgrag join-baseline}). Same matching as SG-RAG's exact answers
 * ({@link io.kgrag.core.sgrag.qa.SgragRetriever}'s assembly with verification):
 *
 * <ul>
 *   <li>each query edge is one alias {@code e<i>} of the undirected adjacency {@code adj(a, b)}, the edges
 *       of {@code relations} in both orientations, so it matches a graph edge either way; relation phrases
 *       are not used (they only rank in SG-RAG);
 *   <li>a known node binds to one of the entity ids it was normalised to ({@code IN} list, on every
 *       alias it appears in), an unknown node is a join variable;
 *   <li>the bound query nodes (those on some edge) bind to pairwise distinct entities, as SG-RAG's
 *       injective bindings: an unknown differs from every other node's binding, known nodes included (the
 *       pair of two known nodes with disjoint id lists needs no predicate);
 *   <li>the answer is the distinct entities bound to {@link QueryGraph#target()}, the first unknown node
 *       (the node every SG-RAG extractor marks as what is asked), each with its label from
 *       {@code entities} (null when it has no row there).
 * </ul>
 *
 * <p>A query graph the join cannot answer gets a reason instead of SQL ({@link #reason()}): no edge, no
 * unknown node, a known node normalised to no entity, an answer node on no edge, or an unknown not
 * connected to any known node (the join would enumerate the whole graph; SG-RAG cannot place such a node
 * either). Aliases are joined in a connected order starting from the known node with the fewest ids, with
 * the equalities in {@code ON}; a query graph in several pieces is a cross product of them, as plain SQL
 * would have it. Ids are numbers and table names are checked identifiers, so nothing is quoted.
 */
public final class JoinQuery {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

  private final String sql;
  private final String reason;

  private JoinQuery(String sql, String reason) {
    this.sql = sql;
    this.reason = reason;
  }

  /**
   * The join for {@code q}.
   *
   * @param entityIds the entity ids known node {@code i} was normalised to (null or empty: none)
   * @param relations the table or view holding the graph's edges ({@code src_id}, {@code dst_id})
   * @param entities the table or view holding the labels ({@code entity_id}, {@code label})
   * @throws IllegalArgumentException for a table name that is not a plain (optionally qualified) identifier
   */
  public static JoinQuery of(QueryGraph q, IntFunction<long[]> entityIds, String relations, String entities) {
    checkIdentifier(relations);
    checkIdentifier(entities);
    int n = q.nodes().size();
    List<QueryGraph.Edge> edges = q.edges();
    if (edges.isEmpty()) {
      return unable("the query graph has no edge");
    }
    if (q.target() < 0) {
      return unable("the query graph has no unknown node");
    }
    long[][] ids = new long[n][];
    for (QueryGraph.Node v : q.nodes()) {
      if (!v.unknown()) {
        long[] given = entityIds.apply(v.id());
        if (given == null || given.length == 0) {
          return unable("node " + v.id() + " ('" + v.label() + "') was normalised to no entity");
        }
        ids[v.id()] = Arrays.stream(given).distinct().sorted().toArray();
      }
    }
    boolean[] onEdge = new boolean[n];
    for (QueryGraph.Edge e : edges) {
      onEdge[e.src()] = true;
      onEdge[e.dst()] = true;
    }
    if (!onEdge[q.target()]) {
      return unable("the answer node (node " + q.target() + ") is on no edge");
    }
    int[] component = components(n, edges);
    boolean[] anchored = new boolean[n];
    for (QueryGraph.Node v : q.nodes()) {
      if (!v.unknown() && onEdge[v.id()]) {
        anchored[component[v.id()]] = true;
      }
    }
    for (QueryGraph.Node v : q.nodes()) {
      if (v.unknown() && onEdge[v.id()] && !anchored[component[v.id()]]) {
        return unable("unknown node " + v.id() + " is connected to no known node");
      }
    }
    return new JoinQuery(sql(q, ids, onEdge, relations, entities), null);
  }

  /** Whether there is a query to run; when not, {@link #reason()} says why the question is unable. */
  public boolean answerable() {
    return sql != null;
  }

  /**
   * The query: one row per matched entity, columns {@code entity_id} (distinct) and {@code label}.
   *
   * @throws IllegalStateException when the query graph is not {@link #answerable()}
   */
  public String sql() {
    if (sql == null) {
      throw new IllegalStateException("no query: " + reason);
    }
    return sql;
  }

  /** Why the query graph has no join; null when it has one. */
  public String reason() {
    return reason;
  }

  private static JoinQuery unable(String reason) {
    return new JoinQuery(null, reason);
  }

  private static String sql(QueryGraph q, long[][] ids, boolean[] onEdge, String relations, String entities) {
    List<QueryGraph.Edge> edges = q.edges();
    String[] bound = new String[q.nodes().size()]; // node -> the column that binds it
    List<String> from = new ArrayList<>();
    List<String> where = new ArrayList<>();
    for (int i : joinOrder(edges, ids)) {
      QueryGraph.Edge e = edges.get(i);
      String alias = "e" + i;
      List<String> on = new ArrayList<>();
      int[] ends = {e.src(), e.dst()};
      String[] cols = {alias + ".a", alias + ".b"};
      for (int s = 0; s < 2; s++) {
        int v = ends[s];
        if (ids[v] != null) {
          where.add(cols[s] + in(ids[v]));
        }
        if (bound[v] == null) {
          bound[v] = cols[s];
        } else {
          on.add(cols[s] + " = " + bound[v]);
        }
      }
      if (from.isEmpty()) {
        from.add("FROM adj " + alias);
      } else if (on.isEmpty()) {
        from.add("CROSS JOIN adj " + alias);
      } else {
        from.add("JOIN adj " + alias + " ON " + String.join(" AND ", on));
      }
    }
    for (int u = 0; u < bound.length; u++) {
      for (int v = u + 1; v < bound.length; v++) {
        if (onEdge[u] && onEdge[v] && !(ids[u] != null && ids[v] != null && disjoint(ids[u], ids[v]))) {
          where.add(bound[u] + " <> " + bound[v]);
        }
      }
    }
    return "WITH adj AS (SELECT src_id AS a, dst_id AS b FROM " + relations + " UNION ALL SELECT dst_id AS a, src_id AS b FROM " + relations + ")\n"
        + "SELECT m.entity_id, ent.label FROM (\n"
        + "  SELECT DISTINCT " + bound[q.target()] + " AS entity_id\n"
        + "  " + String.join("\n  ", from) + "\n"
        + "  WHERE " + String.join("\n    AND ", where) + "\n"
        + ") m LEFT JOIN " + entities + " ent ON ent.entity_id = m.entity_id";
  }

  /**
   * The edges in join order: each next edge touches a node already bound where one does, preferring an edge
   * with a known end, the fewest ids, then the lowest index; so the first edge is at the most selective
   * known node and a new piece of the graph starts at a known node.
   */
  private static List<Integer> joinOrder(List<QueryGraph.Edge> edges, long[][] ids) {
    List<Integer> order = new ArrayList<>();
    boolean[] used = new boolean[edges.size()];
    boolean[] bound = new boolean[ids.length];
    for (int k = 0; k < edges.size(); k++) {
      int best = -1;
      long bestKey = Long.MAX_VALUE;
      for (int i = 0; i < edges.size(); i++) {
        if (used[i]) {
          continue;
        }
        QueryGraph.Edge e = edges.get(i);
        boolean connected = bound[e.src()] || bound[e.dst()];
        long selectivity = Math.min(size(ids[e.src()]), size(ids[e.dst()]));
        long key = (connected ? 0 : 1L << 40) + Math.min(selectivity, (1L << 40) - 1);
        if (key < bestKey) {
          best = i;
          bestKey = key;
        }
      }
      used[best] = true;
      bound[edges.get(best).src()] = true;
      bound[edges.get(best).dst()] = true;
      order.add(best);
    }
    return order;
  }

  /** A known node's id count; unknown nodes sort after every known one. */
  private static long size(long[] ids) {
    return ids == null ? (1L << 40) - 1 : ids.length;
  }

  private static int[] components(int n, List<QueryGraph.Edge> edges) {
    int[] c = new int[n];
    for (int i = 0; i < n; i++) {
      c[i] = i;
    }
    boolean changed = true;
    while (changed) { // a handful of nodes: relax until every edge joins equal labels
      changed = false;
      for (QueryGraph.Edge e : edges) {
        int m = Math.min(c[e.src()], c[e.dst()]);
        if (c[e.src()] != m || c[e.dst()] != m) {
          c[e.src()] = m;
          c[e.dst()] = m;
          changed = true;
        }
      }
    }
    return c;
  }

  private static boolean disjoint(long[] a, long[] b) {
    TreeSet<Long> s = new TreeSet<>();
    for (long x : a) {
      s.add(x);
    }
    for (long x : b) {
      if (s.contains(x)) {
        return false;
      }
    }
    return true;
  }

  private static String in(long[] ids) {
    if (ids.length == 1) {
      return " = " + ids[0];
    }
    return " IN (" + Arrays.stream(ids).mapToObj(Long::toString).collect(Collectors.joining(", ")) + ")";
  }

  private static void checkIdentifier(String name) {
    if (name == null || !IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException("not a plain table name: " + name);
    }
  }
}
