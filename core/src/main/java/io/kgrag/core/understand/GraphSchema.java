package io.kgrag.core.understand;

import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.graph.KnowledgeGraph;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The graph's schema, derived from the graph itself: every relation walked in either direction (a
 * <em>role</em>), with how many edges it has, how many distinct nodes it starts and ends at, how many values
 * it gives a start node on average, and which roles can follow it (a node where one ends and the next starts;
 * "which relations join which kinds of entities" without any type system). Programs are enumerated over it.
 */
public final class GraphSchema implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * One role's row, as the index's {@code schema} stage stores it: the relation walked forwards or backwards, its
   * edges, distinct start and end nodes, the edges ending at a number (with the least and greatest number; NaN when
   * none), and the roles that can follow it ({@link #roleName}) with the nodes where they join.
   */
  public record Row(
      String relation, boolean forward, long edges, long starts, long ends, long numericEdges, double least, double greatest,
      Map<String, Long> followedBy) {
    /** Average number of values a start node gets. */
    public double valuesPerStart() {
      return starts == 0 ? 0 : (double) edges / starts;
    }
  }

  private final String[] relations;
  private final long[] edges;
  private final long[] starts;
  private final long[] ends;
  private final long[][] follows;
  private final long[] numericEdges;
  private final double[] least;
  private final double[] greatest;

  /** Empty counts for the roles of {@code relations} (in name order): no number seen yet by any role. */
  private GraphSchema(String[] relations) {
    int roles = relations.length * 2;
    this.relations = relations;
    this.edges = new long[roles];
    this.starts = new long[roles];
    this.ends = new long[roles];
    this.follows = new long[roles][roles];
    this.numericEdges = new long[roles];
    this.least = new double[roles];
    this.greatest = new double[roles];
    Arrays.fill(least, Double.POSITIVE_INFINITY);
    Arrays.fill(greatest, Double.NEGATIVE_INFINITY);
  }

  /** One pass over the graph's adjacency. */
  public static GraphSchema of(KnowledgeGraph graph) {
    TreeSet<String> names = new TreeSet<>();
    for (int n = 0; n < graph.nodeCount(); n++) {
      for (int k = 0; k < graph.entryCount(n); k++) {
        names.add(graph.entryRelation(n, k));
      }
    }
    String[] relations = names.toArray(new String[0]);
    int roles = relations.length * 2;
    GraphSchema out = new GraphSchema(relations);
    long[] edges = out.edges;
    long[] starts = out.starts;
    long[] ends = out.ends;
    long[][] follows = out.follows;
    long[] numericEdges = out.numericEdges;
    double[] least = out.least;
    double[] greatest = out.greatest;
    double[] value = new double[graph.nodeCount()];
    for (int n = 0; n < value.length; n++) {
      value[n] = Literals.valueOf(graph.label(n));
    }
    BitSet startRoles = new BitSet(roles);
    BitSet endRoles = new BitSet(roles);
    for (int n = 0; n < graph.nodeCount(); n++) {
      startRoles.clear();
      for (int k = 0; k < graph.entryCount(n); k++) {
        int r = Arrays.binarySearch(relations, graph.entryRelation(n, k));
        int start = role(r, graph.entryOutgoing(n, k));
        edges[start]++;
        startRoles.set(start);
        double v = value[graph.entryNeighbour(n, k)];
        if (!Double.isNaN(v)) {
          numericEdges[start]++;
          least[start] = Math.min(least[start], v);
          greatest[start] = Math.max(greatest[start], v);
        }
      }
      // a node that starts role s ends the opposite role of s
      endRoles.clear();
      for (int s = startRoles.nextSetBit(0); s >= 0; s = startRoles.nextSetBit(s + 1)) {
        starts[s]++;
        endRoles.set(s ^ 1);
      }
      for (int e = endRoles.nextSetBit(0); e >= 0; e = endRoles.nextSetBit(e + 1)) {
        ends[e]++;
        for (int s = startRoles.nextSetBit(0); s >= 0; s = startRoles.nextSetBit(s + 1)) {
          follows[e][s]++;
        }
      }
    }
    return out;
  }

  static int role(int relation, boolean forward) {
    return relation * 2 + (forward ? 0 : 1);
  }

  public int roles() {
    return relations.length * 2;
  }

  /** The role of walking {@code relation} forwards or backwards, or -1 for a relation the graph lacks. */
  public int role(String relation, boolean forward) {
    int r = Arrays.binarySearch(relations, relation);
    return r < 0 ? -1 : role(r, forward);
  }

  public String relation(int role) {
    return relations[role / 2];
  }

  public boolean forward(int role) {
    return role % 2 == 0;
  }

  /** Edges walked by the role (the same for both directions of one relation). */
  public long edges(int role) {
    return edges[role];
  }

  /** Average number of values a start node of the role gets (1 for a functional relation). */
  public double valuesPerStart(int role) {
    return starts[role] == 0 ? 0 : (double) edges[role] / starts[role];
  }

  /** Nodes where {@code first} ends and {@code next} starts: 0 when {@code next} can never follow. */
  public long follows(int first, int next) {
    return follows[first][next];
  }

  /**
   * Whether {@code next} follows {@code first} at more than a stray node: at least one in a hundred of the nodes
   * where {@code first} ends start {@code next} (a film title that is also a person's name does not make
   * "written by" continue with "starred actors").
   */
  public boolean canFollow(int first, int next) {
    return follows[first][next] > 0 && follows[first][next] * 100 >= ends[first];
  }

  /**
   * Whether the role's values are numbers (at least 9 in 10 of its edges end at a node whose label is one, such as
   * a release year): a property the answers can be ordered or filtered by.
   */
  public boolean numeric(int role) {
    return edges[role] > 0 && numericEdges[role] * 10 >= edges[role] * 9;
  }

  /** The least value of a numeric role. */
  public double least(int role) {
    return least[role];
  }

  /** The greatest value of a numeric role. */
  public double greatest(int role) {
    return greatest[role];
  }

  /** Whether a numeric role's values are whole numbers from 1000 to 2999: years, ordered by "earliest" and "latest". */
  public boolean years(int role) {
    return numeric(role) && least[role] >= 1000 && greatest[role] < 3000;
  }

  /** The chain that walks {@code roles} in order. */
  public Chain chain(int[] roles) {
    List<Chain.Step> steps = new ArrayList<>(roles.length);
    for (int r : roles) {
      steps.add(new Chain.Step(relation(r), forward(r)));
    }
    return new Chain(steps);
  }

  /** The roles {@code chain} walks, in order (-1 for a relation the graph lacks). */
  public int[] roles(Chain chain) {
    int[] out = new int[chain.length()];
    for (int i = 0; i < out.length; i++) {
      Chain.Step s = chain.steps().get(i);
      out[i] = role(s.relation(), s.forward());
    }
    return out;
  }

  /** A role's name in {@link Row#followedBy}: the relation, with {@code ^} in front when walked backwards. */
  public static String roleName(String relation, boolean forward) {
    return (forward ? "" : "^") + relation;
  }

  /** Every role's row, relations in name order, forward first. */
  public List<Row> rows() {
    List<Row> out = new ArrayList<>();
    for (int r = 0; r < roles(); r++) {
      Map<String, Long> next = new LinkedHashMap<>();
      for (int s = 0; s < roles(); s++) {
        if (follows[r][s] > 0) {
          next.put(roleName(relation(s), forward(s)), follows[r][s]);
        }
      }
      boolean anyNumber = numericEdges[r] > 0;
      out.add(new Row(relation(r), forward(r), edges[r], starts[r], ends[r], numericEdges[r], anyNumber ? least[r] : Double.NaN,
          anyNumber ? greatest[r] : Double.NaN, next));
    }
    return out;
  }

  /**
   * The schema that {@link #rows()} (or the index's {@code schema} table) describes: {@code fromRows(of(g).rows())}
   * answers every question as {@code of(g)} does.
   *
   * @throws IllegalArgumentException when a relation lacks one of its two roles, appears twice, or a row names a
   *     follower that is no role of the rows
   */
  public static GraphSchema fromRows(List<Row> rows) {
    TreeSet<String> names = new TreeSet<>();
    for (Row row : rows) {
      names.add(row.relation());
    }
    String[] relations = names.toArray(new String[0]);
    int roles = relations.length * 2;
    if (rows.size() != roles) {
      throw new IllegalArgumentException("schema rows: " + rows.size() + " rows for " + relations.length + " relations (want one per relation and direction)");
    }
    GraphSchema out = new GraphSchema(relations);
    BitSet seen = new BitSet(roles);
    for (Row row : rows) {
      int r = role(Arrays.binarySearch(relations, row.relation()), row.forward());
      if (seen.get(r)) {
        throw new IllegalArgumentException("schema rows: " + roleName(row.relation(), row.forward()) + " twice");
      }
      seen.set(r);
      out.edges[r] = row.edges();
      out.starts[r] = row.starts();
      out.ends[r] = row.ends();
      out.numericEdges[r] = row.numericEdges();
      if (row.numericEdges() > 0) {
        out.least[r] = row.least();
        out.greatest[r] = row.greatest();
      }
      for (Map.Entry<String, Long> f : row.followedBy().entrySet()) {
        String name = f.getKey();
        boolean fwd = !name.startsWith("^");
        int i = Arrays.binarySearch(relations, fwd ? name : name.substring(1));
        if (i < 0) {
          throw new IllegalArgumentException("schema rows: " + roleName(row.relation(), row.forward()) + " is followed by " + name + ", which has no row");
        }
        out.follows[r][role(i, fwd)] = f.getValue();
      }
    }
    return out;
  }
}
